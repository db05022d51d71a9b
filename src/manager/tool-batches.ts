import type { ContextConfig } from '../config/index.js';
import { isAgentVisible } from '../counting/is-agent-visible.js';
import { archiveToolResult } from '../messages/kept-tool-results.js';
import type { Summarizer } from '../summarizing/summarizer-types.js';
import type { Message, ToolResultMessage } from '../types.js';
import type { CallOptions } from './context-manager-types.js';
import type { ContextEvent } from './events.js';
import { EarlyArchive } from './internal/early-archive.js';
import type { IntakeTally } from './internal/intake-tally.js';
import { summarizeBatch, summarizedEvent } from './internal/summarize-batch.js';
import { VisibleResults } from './internal/visible-results.js';
import type { SentProjection } from './sent-projection.js';

/** What {@link ToolBatches} needs from the manager. @internal */
interface ToolBatchesOptions {
  config: ContextConfig;
  summarizer: Summarizer;
}

/** A batch archived: where its results sat in the history, their archived copies, its summary message and its event. @internal */
interface ArchivedBatch {
  indexes: readonly number[];
  copies: readonly ToolResultMessage[];
  summary: Message;
  event: ContextEvent;
}

/**
 * The stage "archive a batch": the visible tool results (history index and where each is sent),
 * and, past `toolCallCutoff + toolSummaryBatch` of them, the oldest archived down to
 * `toolCallCutoff` behind one summary (`summarizeBatch` writes it).
 *
 * The results that the batch due at the end of an intake will hide are sent as their placeholders
 * as they are taken in ({@link EarlyArchive}), so a long history taken in whole neither counts nor
 * copies what is about to be hidden.
 *
 * @internal
 */
export class ToolBatches {
  private readonly visible = new VisibleResults();
  private readonly early = new EarlyArchive();

  constructor(private readonly options: ToolBatchesOptions) {}

  /** Starts an intake of what `tally` counts. */
  plan(tally: IntakeTally): void {
    this.early.plan(tally, this.visible.size, this.options.config);
  }

  /**
   * What a message taken in at history index `index` is sent as: its archived copy when the batch
   * due at the end of this intake hides it, else undefined (sent as itself).
   */
  sendAs(message: Message, index: number): ToolResultMessage | undefined {
    return this.early.take(message, index);
  }

  /** Notes the message at `index`, just projected (`copy` is what {@link sendAs} gave), sent at `position` (or -1). */
  note(message: Message, index: number, copy: ToolResultMessage | undefined, position: number): void {
    if (message.role !== 'toolResult' || !isAgentVisible(message)) return;
    this.early.sentAt(copy, position);
    this.visible.add(index, position);
  }

  /** Whether more than `toolCallCutoff + toolSummaryBatch` tool results are visible (and a strategy archives them). */
  due(): boolean {
    const { toolSummaryStrategy: strategy, toolCallCutoff: cutoff, toolSummaryBatch: batch } = this.options.config;
    return strategy !== 'off' && this.visible.size > cutoff + batch;
  }

  /**
   * Archives the oldest visible results down to `toolCallCutoff`: summarizes them (the one async
   * step: when the summarizer is aborted nothing changes), then sends each as its placeholder in
   * `projection`. Returns the batch for the history to hide them and append the summary, then report.
   */
  async archive(
    history: readonly Message[],
    projection: SentProjection,
    callOptions: CallOptions,
  ): Promise<ArchivedBatch> {
    const batch = await summarizeBatch(history, this.visible, this.options, callOptions);
    const { indexes, positions, outcome } = batch;
    this.visible.drop(indexes.length);
    const copies: ToolResultMessage[] = [];
    for (let rank = 0; rank < indexes.length; rank++) {
      const index = indexes[rank]!;
      const early = this.early.copyOf(index); // sent as its placeholder already
      const copy = early ?? archiveToolResult(history[index] as ToolResultMessage);
      if (early === undefined) projection.replaceResult(positions[rank]!, copy);
      copies.push(copy);
    }
    this.early.clear();
    return { indexes, copies, summary: outcome.message, event: summarizedEvent(batch) };
  }

  /** The intake ends without its archive: each result archived early is sent as itself again. */
  keepUnarchived(projection: SentProjection, history: readonly Message[]): void {
    this.early.restore(projection, history);
  }

  /** An intake failed: nothing it archived early stands. */
  forget(): void {
    this.early.clear();
  }

  /**
   * Starts noting the results of a history projected from scratch: none are visible yet, and the
   * results archived early in the intake under way are sent as their placeholders again.
   */
  restart(): void {
    this.visible.clear();
    this.early.rewind(true);
  }

  /** The archived copy, made early in this intake, of the result at `index` (asked in ascending order after {@link restart}). */
  earlyCopyOf(index: number): ToolResultMessage | undefined {
    return this.early.copyOf(index);
  }

  /** The history is projected again: the next {@link earlyCopyOf} starts from the first result. */
  projected(): void {
    this.early.rewind(false);
  }
}
