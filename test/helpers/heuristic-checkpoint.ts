// The checkpoint the heuristic summarizer writes for a compaction, as the summarizing tests read it.
import { heuristicSummarizer, type Message } from 'ctxkit';
import type { SummaryRequest } from 'ctxkit/summarizing';

/**
 * The text of the heuristic summarizer's checkpoint of `messages`, updating `previousSummary` when
 * one is given, within `maxOutputTokens` (2,000 unless told).
 */
export async function heuristicCheckpoint(
  messages: Message[],
  previousSummary?: string,
  maxOutputTokens = 2_000,
): Promise<string> {
  const request: SummaryRequest = {
    kind: 'compaction',
    messages,
    text: '',
    maxOutputTokens,
    ...(previousSummary ? { previousSummary } : {}),
  };
  const answer = await heuristicSummarizer.summarize(request);
  return typeof answer === 'string' ? answer : answer.text;
}
