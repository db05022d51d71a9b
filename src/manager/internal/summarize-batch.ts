/** The summary half of archiving a batch of old tool results. */
import type { ContextConfig } from '../../config/index.js';
import { newestPairsThatFit } from '../../pipeline/internal/tool-summary-input.js';
import { summarizeArchivedResults, TOOL_SUMMARY_INPUT_CHARS } from '../../pipeline/summarize-tool-results.js';
import type { Summarizer } from '../../summarizing/summarizer-types.js';
import type { Message, ToolResultMessage } from '../../types.js';
import type { ContextEvent } from '../events.js';
import { pairsIn } from './pairs-in.js';
import type { VisibleResults } from './visible-results.js';

/** A batch's summary, and the history indexes of the results it stands for. @internal */
export interface SummarizedBatch {
  indexes: number[];
  outcome: Awaited<ReturnType<typeof summarizeArchivedResults>>;
}

/**
 * Summarizes the oldest visible tool results down to `toolCallCutoff` (the newest of them that fit
 * the summarizer's input), changing nothing: an abort rejects before the batch is archived.
 *
 * @internal
 */
export async function summarizeBatch(
  history: readonly Message[],
  visible: VisibleResults,
  options: { config: ContextConfig; summarizer: Summarizer; signal: AbortSignal | undefined },
): Promise<SummarizedBatch> {
  const indexes = visible.oldest(visible.size - options.config.toolCallCutoff);
  const originals = indexes.map((index) => history[index] as ToolResultMessage);
  const pairs = newestPairsThatFit(indexes.length, TOOL_SUMMARY_INPUT_CHARS, (newest) =>
    pairsIn(history, indexes.slice(-newest), originals.slice(-newest)),
  );
  const outcome = await summarizeArchivedResults(pairs, {
    strategy: options.config.toolSummaryStrategy as 'llm' | 'heuristic',
    summarizer: options.summarizer,
    signal: options.signal,
  });
  return { indexes, outcome };
}

/** The event of an archived batch. @internal */
export function summarizedEvent({ indexes, outcome }: SummarizedBatch): ContextEvent {
  return {
    type: 'tool-results-summarized',
    archived: indexes.length,
    fallback: outcome.fallback,
    summary: outcome.summary,
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
  };
}
