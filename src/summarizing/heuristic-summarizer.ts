import { clipText, codePointLength } from '../internal/clip-text.js';
import type { Message } from '../types.js';
import { checkSummaryRequest } from './check-summary-request.js';
import { cutCheckpoint } from './checkpoint-cut.js';
import { briefDigest, digestToolResults, digestWithShares } from './heuristic/digest-tool-results.js';
import { gatherFacts } from './heuristic/gather-facts.js';
import { type Detail, renderCheckpoint } from './heuristic/render-checkpoint.js';
import { resultEntries } from './heuristic/result-entries.js';
import type { Summarizer, SummaryRequest } from './summarizer-types.js';
import type { HighlightLimits } from './tool-output-highlights.js';

/** The fewest code points a heuristic summary may take, whatever the budget. */
const MIN_OUTPUT_CHARS = 64;
/** The budget when the request carries no usable `maxOutputTokens`. */
const DEFAULT_OUTPUT_TOKENS = 2048;

/** From most to least detail; the first rendering that fits the budget is used. */
const LEVELS: readonly { detail: Detail; highlight: HighlightLimits }[] = [
  { detail: { items: 12, itemChars: 300 }, highlight: { lines: 12, head: 1, tail: 3, lineChars: 200 } },
  { detail: { items: 8, itemChars: 200 }, highlight: { lines: 6, head: 1, tail: 2, lineChars: 160 } },
  { detail: { items: 5, itemChars: 140 }, highlight: { lines: 3, head: 0, tail: 1, lineChars: 120 } },
  { detail: { items: 3, itemChars: 100 }, highlight: { lines: 1, head: 0, tail: 1, lineChars: 100 } },
  { detail: { items: 2, itemChars: 80 }, highlight: { lines: 0, head: 0, tail: 0, lineChars: 80 } },
];

/** Code points a summary may take: four per output token, at least `MIN_OUTPUT_CHARS`. */
function budgetOf(maxOutputTokens: unknown): number {
  const tokens =
    typeof maxOutputTokens === 'number' && Number.isFinite(maxOutputTokens) && maxOutputTokens > 0
      ? maxOutputTokens
      : DEFAULT_OUTPUT_TOKENS;
  return Math.max(MIN_OUTPUT_CHARS, Math.floor(tokens * 4));
}

/** The checkpoint (compaction, branch) or the tool-results digest of a request, within `budget`. */
function render(request: SummaryRequest, messages: readonly Message[], budget: number): string {
  const previous = typeof request.previousSummary === 'string' ? request.previousSummary : undefined;
  const facts = request.kind === 'tool_results' ? undefined : gatherFacts(messages);
  if (facts) facts.focus = typeof request.instructions === 'string' ? request.instructions : undefined;
  const entries = facts ? [] : resultEntries(messages);
  if (!facts) {
    const shared = digestWithShares(entries, previous, budget);
    if (shared !== undefined) return shared;
  }
  let text = '';
  for (const level of LEVELS) {
    text = facts
      ? renderCheckpoint(request.kind === 'branch' ? 'branch' : 'compaction', facts, {
          previousSummary: previous,
          messageCount: messages.length,
          detail: level.detail,
        })
      : digestToolResults(entries, previous, level);
    if (text.length <= budget || codePointLength(text) <= budget) return text;
  }
  // A checkpoint is cut by what a resumer needs least (the next steps and the latest request stay);
  // a digest keeps its head and tail.
  if (facts) return clipText(cutCheckpoint(text, budget), budget, 'head');
  return briefDigest(entries, previous, budget) ?? clipText(text, budget, 'head_tail');
}

/** The heuristic summary of a request, synchronously (see {@link heuristicSummarizer}). @internal */
export function summarizeHeuristically(request: SummaryRequest): string {
  const budget = budgetOf(request?.maxOutputTokens);
  try {
    const messages = Array.isArray(request.messages)
      ? request.messages.filter((message) => typeof message === 'object' && message !== null)
      : [];
    const text = render(request, messages, budget);
    return text.trim() ? text : 'Nothing to summarize.';
  } catch {
    // The fallback of last resort must answer even for malformed input (content that is not an
    // array, a tool call without a name…): say so rather than fail the caller.
    const count = Array.isArray(request?.messages) ? request.messages.length : 0;
    return clipText(`No summary could be read from ${count} malformed messages.`, budget, 'head');
  }
}

/**
 * A {@link Summarizer} that needs no model: it summarizes, deterministically and without I/O. For `tool_results`, one item per
 * tool result: the call (`bash \`npm test\``), ok / error / failed with its exit code, and the lines of
 * the output that matter (errors, failing tests, `file:line:col` locations, exit codes, result counts)
 * with the first and last lines, in order. For `compaction` and `branch`, a checkpoint with the same
 * headings as the model prompts, filled from the messages: the first requests as the goal, stated
 * constraints, commands with their outcomes, files mentioned, errors seen, the last assistant text as
 * progress; sections of `previousSummary` are carried over and merged, not dropped.
 *
 * Never throws: any input gives a non-empty summary of at most `max(64, maxOutputTokens × 4)` code
 * points (detail is reduced first, then a checkpoint is cut by what a resumer needs least — done items
 * and old progress first, the goal, next steps and critical context last — and a digest head and tail).
 *
 *
 * It rejects only when the request's signal has already fired. Use it when no model is available,
 * in tests and demos; `summarizeToolResults` falls back to it when the model fails.
 *
 * @example
 * ```ts
 * const result = await compact(messages, { summarizer: heuristicSummarizer });
 * ```
 */
export const heuristicSummarizer: Summarizer = {
  async summarize(request) {
    checkSummaryRequest(request, 'heuristicSummarizer.summarize');
    request.signal?.throwIfAborted();
    return summarizeHeuristically(request);
  },
};
