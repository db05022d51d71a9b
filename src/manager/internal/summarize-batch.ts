// The first half of archiving a batch of tool results: which results, and their summary. The
// manager's history applies it (hides the results, appends the summary) only once it is made, so an
// aborted summarizer changes nothing.
import type { ContextConfig } from '../../config/index.js';
import { batchItem, summarizeArchivedResults } from '../../pipeline/summarize-tool-results.js';
import { newestPairsThatFit } from '../../pipeline/tool-summary-input.js';
import type { Summarizer } from '../../summarizing/summarizer-types.js';
import { type BatchItem, batchBudget } from '../../summarizing/tool-output/batch-budget.js';
import type { Message, ToolResultMessage } from '../../types.js';
import type { CallOptions } from '../context-manager-types.js';
import type { ToolResultsSummarizedEvent } from '../events.js';
import { pairsIn } from './pairs-in.js';
import type { VisibleResults } from './visible-results.js';

/** A batch ready to archive: the history indexes of its results, where each is sent, and the summary. @internal */
interface SummarizedBatch {
  indexes: number[];
  positions: number[];
  outcome: Awaited<ReturnType<typeof summarizeArchivedResults>>;
}

/**
 * Summarizes the oldest visible tool results down to `toolCallCutoff`, with the newest calls and
 * results that fit the summarizer's input.
 *
 * @internal
 */
export async function summarizeBatch(
  history: readonly Message[],
  visible: VisibleResults,
  options: { config: ContextConfig; summarizer: Summarizer },
  callOptions: CallOptions,
): Promise<SummarizedBatch> {
  const strategy = options.config.toolSummaryStrategy as 'llm' | 'heuristic';
  const indexes = visible.oldest(visible.size - options.config.toolCallCutoff);
  const positions = visible.oldestPositions(indexes.length);
  // The summary's budget grows with the whole batch (see `toolSummaryBudget`): each result is
  // weighed by its flag and length, not read.
  const items: BatchItem[] = [];
  for (const index of indexes) items.push(batchItem(history[index] as ToolResultMessage));
  const budget = batchBudget(items, options.config.toolSummaryBudget);
  // Only the newest few reach the summarizer: the results are looked up as they are weighed, not
  // all of them (a first call archives thousands).
  const pairs = newestPairsThatFit(history, indexes, budget.inputChars, (newest) =>
    pairsIn(history, indexes.slice(-newest)),
  );
  const outcome = await summarizeArchivedResults(pairs, {
    strategy,
    summarizer: options.summarizer,
    budget,
    signal: callOptions.signal,
  });
  return { indexes, positions, outcome };
}

/** The event that reports an archived batch. @internal */
export function summarizedEvent({ indexes, outcome }: SummarizedBatch): ToolResultsSummarizedEvent {
  return {
    type: 'tool-results-summarized',
    archived: indexes.length,
    fallback: outcome.fallback,
    summary: outcome.summary,
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
  };
}
