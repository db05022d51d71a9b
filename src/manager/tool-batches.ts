/**
 * The stage "archive a batch": which tool results are visible, and, past `toolCallCutoff +
 * toolSummaryBatch` of them, the oldest archived down to `toolCallCutoff` behind one summary.
 */
import type { ContextConfig } from '../config/index.js';
import { isAgentVisible } from '../counting/is-agent-visible.js';
import { archiveToolResult } from '../messages/kept-tool-results.js';
import { batchItem, summarizeArchivedResults } from '../pipeline/summarize-tool-results.js';
import { newestPairsThatFit, withTheirCalls } from '../pipeline/tool-summary-input.js';
import type { Summarizer } from '../summarizing/summarizer-types.js';
import { type BatchItem, batchBudget } from '../summarizing/tool-output/batch-budget.js';
import type { Message, ToolResultMessage } from '../types.js';
import type { CallOptions } from './context-manager-types.js';
import type { CostPolicy } from './cost-policy.js';
import type { ContextEvent } from './events.js';
import type { SentProjection } from './sent-projection.js';

/** What {@link ToolBatches} needs from the manager. @internal */
interface ToolBatchesOptions {
  config: ContextConfig;
  summarizer: Summarizer;
  /** Archives earlier than the bound when it pays (the manager's `costAware` option). */
  policy?: CostPolicy | undefined;
}

/** A batch archived: where its results sat in the history, their archived copies, its summary message and its event. @internal */
interface ArchivedBatch {
  indexes: readonly number[];
  copies: readonly ToolResultMessage[];
  summary: Message;
  event: ContextEvent;
}

/**
 * The visible tool results of the history (their history index, and where each is sent), oldest
 * first, and the archiving of the oldest in batches. The summary is made before anything changes,
 * so a summarizer that is aborted leaves the history and what is sent as they were.
 *
 * @internal
 */
export class ToolBatches {
  /** History indexes of the visible results, oldest first. */
  private indexes: number[] = [];
  /** Where each is sent (its position in the projection, or -1 when it is not sent). */
  private positions: number[] = [];

  constructor(private readonly options: ToolBatchesOptions) {}

  /** Notes the message at history index `index`, just projected and sent at `position` (or -1). */
  note(message: Message, index: number, position: number): void {
    if (message.role !== 'toolResult' || !isAgentVisible(message)) return;
    this.indexes.push(index);
    this.positions.push(position);
  }

  /**
   * Whether a batch is due: more than `toolCallCutoff + toolSummaryBatch` tool results are visible
   * (and a strategy archives them), or the cost policy finds archiving the results past the cutoff
   * cheaper than carrying them. Called once per request.
   */
  due(projection: SentProjection): boolean {
    const { toolSummaryStrategy: strategy, toolCallCutoff: cutoff, toolSummaryBatch: batch } = this.options.config;
    if (strategy === 'off') return false;
    const bound = this.indexes.length > cutoff + batch;
    const policy = this.options.policy;
    if (policy === undefined) return bound;
    return policy.shouldArchive(this.candidate(projection)) || bound;
  }

  /** What archiving the visible results past the cutoff would change, or undefined when there are none. */
  private candidate(projection: SentProjection) {
    const count = this.indexes.length - this.options.config.toolCallCutoff;
    if (count <= 0) return undefined;
    // No array per request (this runs on every append): sum in place over the sent ones.
    let first = -1;
    let archivable = 0;
    for (let rank = 0; rank < count; rank++) {
      const position = this.positions[rank]!;
      if (position < 0) continue;
      if (first < 0) first = position;
      archivable += projection.tokensAt(position);
    }
    if (first < 0) return undefined;
    // What follows the first of them is at most the kept results and their calls: a short walk.
    let tail = 0;
    for (let position = projection.sent.length - 1; position >= first; position--) {
      tail += projection.tokensAt(position);
    }
    return { archivable, tail, context: projection.estimate };
  }

  /**
   * Archives the oldest visible results down to `toolCallCutoff`: summarizes them (the one async
   * step), then sends each as its placeholder in `projection`. Returns the batch for the history
   * to hide its results and append its summary, then report it.
   */
  async archive(
    history: readonly Message[],
    projection: SentProjection,
    callOptions: CallOptions,
  ): Promise<ArchivedBatch> {
    const count = this.indexes.length - this.options.config.toolCallCutoff;
    const indexes = this.indexes.slice(0, count);
    const positions = this.positions.slice(0, count);
    const outcome = await summarizeBatch(history, indexes, this.options, callOptions);
    // No longer visible: what is left is the newest `toolCallCutoff`.
    this.indexes = this.indexes.slice(count);
    this.positions = this.positions.slice(count);
    const copies: ToolResultMessage[] = [];
    for (let rank = 0; rank < indexes.length; rank++) {
      const copy = archiveToolResult(history[indexes[rank]!] as ToolResultMessage);
      projection.replaceResult(positions[rank]!, copy);
      copies.push(copy);
    }
    const event: ContextEvent = {
      type: 'tool-results-summarized',
      archived: indexes.length,
      fallback: outcome.fallback,
      summary: outcome.summary,
      ...(outcome.error === undefined ? {} : { error: outcome.error }),
    };
    this.options.policy?.archived();
    return { indexes, copies, summary: outcome.message, event };
  }

  /** Forgets every result: the history is about to be projected, and its results noted, again. */
  restart(): void {
    this.indexes = [];
    this.positions = [];
  }
}

/**
 * Summarizes the results at `indexes` with the newest calls and results that fit the summarizer's
 * input. The summary's budget grows with the whole batch (see `toolSummaryBudget`): each result is
 * weighed by its flag and length, not read; only the newest few are looked up with their calls and
 * reach the summarizer (a first call archives thousands).
 */
async function summarizeBatch(
  history: readonly Message[],
  indexes: readonly number[],
  options: ToolBatchesOptions,
  callOptions: CallOptions,
): Promise<Awaited<ReturnType<typeof summarizeArchivedResults>>> {
  const items: BatchItem[] = [];
  for (const index of indexes) items.push(batchItem(history[index] as ToolResultMessage));
  const budget = batchBudget(items, options.config.toolSummaryBudget);
  const pairs = newestPairsThatFit(history, indexes, budget.inputChars, (newest) =>
    pairsIn(history, indexes.slice(-newest)),
  );
  return summarizeArchivedResults(pairs, {
    strategy: options.config.toolSummaryStrategy as 'llm' | 'heuristic',
    summarizer: options.summarizer,
    budget,
    signal: callOptions.signal,
  });
}

/**
 * The results at `indexes` with their calls, found in the stretch of history that holds them:
 * calls sit just before their results, and a call found there is the one the whole history pairs
 * it with (a result answers the nearest earlier unanswered call of its id). The stretch starts 64
 * messages before the first result and widens while a call is missing.
 */
function pairsIn(history: readonly Message[], indexes: readonly number[]): Message[] {
  const results: ToolResultMessage[] = [];
  for (const index of indexes) results.push(history[index] as ToolResultMessage);
  const end = indexes[indexes.length - 1]! + 1;
  for (let span = 64; ; span *= 4) {
    const start = Math.max(0, indexes[0]! - span);
    const pairs = withTheirCalls(history.slice(start, end), results);
    if (start === 0 || pairs.length === results.length * 2) return pairs;
  }
}
