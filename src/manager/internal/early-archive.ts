import type { ContextConfig } from '../../config/index.js';
import { isAgentVisible } from '../../counting/is-agent-visible.js';
import type { Message, ToolResultMessage } from '../../types.js';
import type { SentProjection } from '../sent-projection.js';
import { archivedCopy } from './sent-messages.js';

/**
 * The tool results that the archive due at the end of an intake will hide, archived as they are
 * taken in: the projection sends each as its placeholder at once, so a long history taken in whole
 * (a first call) neither counts nor copies what is hidden before the call returns. The history
 * keeps the results themselves until the batch's summary is made; the manager then puts these
 * copies in, or, when the intake fails (the summarizer aborted), restores the results in the
 * projection, so the outcome is the same as archiving after the intake.
 *
 * Nothing is archived early when a new assistant message carries usage: the usage anchor is
 * measured against the results as sent before they are archived.
 *
 * @internal
 */
export class EarlyArchive {
  /** History indexes of the results archived early, ascending, and their archived copies. */
  readonly indexes: number[] = [];
  readonly copies: ToolResultMessage[] = [];
  /** Results still to archive early in this intake. */
  private left = 0;
  /** Where {@link copyOf} looks next. */
  private next = 0;

  /**
   * Plans the intake of `input[start…]` when `visible` results are visible before it: the archive
   * due at its end hides every visible result but the newest `toolCallCutoff`, so the new ones
   * among those are archived early.
   */
  plan(input: readonly Message[], start: number, visible: number, config: ContextConfig): void {
    this.left = 0;
    const { toolSummaryStrategy: strategy, toolCallCutoff: cutoff, toolSummaryBatch: batch } = config;
    if (strategy === 'off') return;
    let fresh = 0;
    for (let index = start; index < input.length; index++) {
      const message = input[index]!;
      if (message.role === 'toolResult') {
        if (isAgentVisible(message)) fresh++;
      } else if (message.role === 'assistant' && message.usage !== undefined) {
        return;
      }
    }
    if (visible + fresh > cutoff + batch) this.left = Math.max(0, fresh - cutoff);
  }

  /** The archived copy of `message`, taken in at history index `index`, when it is archived early. */
  take(message: Message, index: number): ToolResultMessage | undefined {
    if (this.left === 0 || message.role !== 'toolResult' || !isAgentVisible(message)) return undefined;
    this.left--;
    const copy = archivedCopy(message);
    this.indexes.push(index);
    this.copies.push(copy);
    return copy;
  }

  /** The early copy of the result at history index `index`; asked in ascending order of index. */
  copyOf(index: number): ToolResultMessage | undefined {
    while (this.next < this.indexes.length && this.indexes[this.next]! < index) this.next++;
    return this.indexes[this.next] === index ? this.copies[this.next] : undefined;
  }

  /** A projection rebuilt while the history still holds the results: they stay sent as placeholders. */
  reapply(projection: SentProjection): void {
    for (let rank = 0; rank < this.indexes.length; rank++)
      projection.replaceResult(this.indexes[rank]!, this.copies[rank]!);
  }

  /** The intake ends without its archive: each result archived early is sent as itself again. */
  restore(projection: SentProjection, history: readonly Message[]): void {
    for (const index of this.indexes) projection.replaceResult(index, history[index] as ToolResultMessage);
    this.clear();
  }

  /** Forgets every early copy (archived or restored). */
  clear(): void {
    this.indexes.length = 0;
    this.copies.length = 0;
    this.left = 0;
    this.next = 0;
  }
}
