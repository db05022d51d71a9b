import type { ContextConfig } from '../../config/index.js';
import { isAgentVisible } from '../../counting/is-agent-visible.js';
import { archiveToolResult } from '../../messages/kept-tool-results.js';
import type { Message, ToolResultMessage } from '../../types.js';
import type { SentProjection } from '../sent-projection.js';
import type { IntakeTally } from './intake-tally.js';

/**
 * The tool results that the archive due at the end of an intake will hide, archived as they are
 * taken in: the projection sends each as its placeholder at once, so a long history taken in whole
 * (a first call) neither counts nor copies what is hidden before the call returns. The history
 * keeps the results themselves until the batch's summary is made; the manager then puts these
 * copies in, or, when the intake ends without its archive, restores the results in the projection
 * (an intake that fails is undone whole), so the outcome is the same as archiving after the intake.
 *
 * Nothing is archived early when a new assistant message carries usage: the usage anchor is
 * measured against the results as sent before they are archived.
 *
 * @internal
 */
export class EarlyArchive {
  /** History indexes of the results archived early, ascending, their archived copies, and where each is sent. */
  readonly indexes: number[] = [];
  readonly copies: ToolResultMessage[] = [];
  readonly positions: number[] = [];
  /** Results still to archive early in this intake. */
  private left = 0;
  /** Where {@link copyOf} looks next. */
  private next = 0;

  /**
   * Plans an intake of what `tally` counts when `visible` results are visible before it: the
   * archive due at its end hides every visible result but the newest `toolCallCutoff`, so the new
   * ones among those are archived early.
   */
  plan(tally: IntakeTally, visible: number, config: ContextConfig): void {
    const { toolSummaryStrategy: strategy, toolCallCutoff: cutoff, toolSummaryBatch: batch } = config;
    const fresh = tally.results;
    const due = strategy !== 'off' && !tally.usage && visible + fresh > cutoff + batch;
    this.left = due ? Math.max(0, fresh - cutoff) : 0;
  }

  /** The archived copy of `message`, taken in at history index `index`, when it is archived early. */
  take(message: Message, index: number): ToolResultMessage | undefined {
    if (this.left === 0 || message.role !== 'toolResult' || !isAgentVisible(message)) return undefined;
    this.left--;
    const copy = archiveToolResult(message);
    this.indexes.push(index);
    this.copies.push(copy);
    return copy;
  }

  /** Notes where `copy`, the result {@link take} archived last (when it archived one), is sent: a position or -1. */
  sentAt(copy: ToolResultMessage | undefined, position: number): void {
    if (copy !== undefined) this.positions.push(position);
  }

  /** The next {@link copyOf} starts from the first result again; `resend` when they are all sent again. */
  rewind(resend: boolean): void {
    this.next = 0;
    if (resend) this.positions.length = 0;
  }

  /** The early copy of the result at history index `index`; asked in ascending order of index (see {@link rewind}). */
  copyOf(index: number): ToolResultMessage | undefined {
    while (this.next < this.indexes.length && this.indexes[this.next]! < index) this.next++;
    return this.indexes[this.next] === index ? this.copies[this.next] : undefined;
  }

  /** The intake ends without its archive: each result archived early is sent as itself again. */
  restore(projection: SentProjection, history: readonly Message[]): void {
    if (this.indexes.length === 0) {
      this.left = 0; // the usual intake, run before every call: nothing was archived early
      return;
    }
    for (let rank = 0; rank < this.indexes.length; rank++) {
      projection.replaceResult(this.positions[rank]!, history[this.indexes[rank]!] as ToolResultMessage);
    }
    this.clear();
  }

  /** Forgets every early copy (archived or restored). */
  clear(): void {
    this.indexes.length = 0;
    this.copies.length = 0;
    this.positions.length = 0;
    this.left = 0;
    this.next = 0;
  }
}
