import { clipText, codePoints } from '../pipeline/internal/clip-text.js';
import type { Message, ToolCall } from '../types.js';
import { commandOf } from './anchors/tool-facts.js';
import { type Detail, describeCall, gatherFacts, oneLine, outcome, renderCheckpoint } from './heuristic-checkpoint.js';
import { contentText } from './serialize-conversation.js';
import type { Summarizer, SummaryRequest } from './summarizer-types.js';
import { shareBudget } from './tool-output/share-budget.js';
import { summarizeToolOutput } from './tool-output/summarize-tool-output.js';
import { type HighlightLimits, highlightOutput } from './tool-output-highlights.js';

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

function budgetOf(maxOutputTokens: unknown): number {
  const tokens =
    typeof maxOutputTokens === 'number' && Number.isFinite(maxOutputTokens) && maxOutputTokens > 0
      ? maxOutputTokens
      : DEFAULT_OUTPUT_TOKENS;
  return Math.max(MIN_OUTPUT_CHARS, Math.floor(tokens * 4));
}

/** One tool result as the digest sees it. */
interface ResultEntry {
  tool: string;
  what: string;
  outcome: string;
  output: string;
  /** The most telling error line of a result that did not end ok. */
  error: string | undefined;
  /** The shell command the call ran, which names the tool whose output this is. */
  command: string | undefined;
}

/** Each visible tool result with the nearest call before it that has its id, in order. */
function resultEntries(messages: readonly Message[]): ResultEntry[] {
  const calls = new Map<string, ToolCall>();
  const entries: ResultEntry[] = [];
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const part of message.content) if (part.type === 'toolCall') calls.set(part.id, part);
      continue;
    }
    if (message.role !== 'toolResult' || message.meta?.agentVisible === false) continue;
    const output = contentText(message.content);
    const call = calls.get(message.toolCallId);
    const status = outcome(message, output);
    entries.push({
      tool: String(call?.name ?? message.toolName),
      what: call ? describeCall(call) : String(message.toolName),
      outcome: status,
      output,
      error: status === 'ok' ? undefined : highlightOutput(output, ERROR_ONLY).topError,
      command: call ? commandOf(call) : undefined,
    });
  }
  return entries;
}

function earlierLine(previous: string | undefined, chars: number): string[] {
  return previous?.trim() ? [`- Earlier: ${clipText(oneLine(previous), chars, 'head')}`] : [];
}

/** One item per tool result: what ran, how it ended, and the lines of its output that matter. */
function digestToolResults(
  entries: readonly ResultEntry[],
  previous: string | undefined,
  level: (typeof LEVELS)[number],
) {
  const lines = earlierLine(previous, level.detail.itemChars * 2);
  for (const entry of entries) {
    const { excerpt, lineCount } = highlightOutput(entry.output, level.highlight);
    lines.push(`- ${entry.what}: ${entry.outcome}, ${lineCount} line${lineCount === 1 ? '' : 's'}`);
    for (const line of excerpt) lines.push(`  ${line}`);
  }
  return lines.length > 0 ? lines.join('\n') : 'No tool results to summarize.';
}

const ERROR_ONLY: HighlightLimits = { lines: 0, head: 0, tail: 0, lineChars: 200 };

/** Code points of a call's description in the brief digests, from most to fewest. */
const BRIEF_WIDTHS = [60, 40, 28, 20, 14];

/** At most `width` code points on one line: the head and the tail around `…`. */
function squeeze(text: string, width: number): string {
  const points = codePoints(oneLine(text));
  if (points.length <= width) return points.join('');
  const head = Math.ceil((width - 1) / 2);
  return `${points.slice(0, head).join('')}…${points.slice(points.length - (width - 1 - head)).join('')}`;
}

/** One short line: the call, how it ended, and for a failure its most telling line. */
function briefLine(entry: ResultEntry, width: number): string {
  const error = entry.error === undefined ? '' : ` — ${squeeze(entry.error, width)}`;
  return `- ${squeeze(entry.what, width)}: ${entry.outcome}${error}`;
}

/**
 * The briefest digests, for when even the least detailed one is over budget: one short line per
 * result, then runs of results of the same tool with the same outcome folded into one line (first
 * and last call shown). Every result stays represented; `undefined` when nothing fits.
 */
function briefDigest(
  entries: readonly ResultEntry[],
  previous: string | undefined,
  budget: number,
): string | undefined {
  const runs: ResultEntry[][] = [];
  for (const entry of entries) {
    const last = runs[runs.length - 1];
    const first = last?.[0];
    if (first && first.tool === entry.tool && first.outcome === entry.outcome && first.error === entry.error)
      last.push(entry);
    else runs.push([entry]);
  }
  const argument = (entry: ResultEntry, width: number) =>
    squeeze(entry.what.startsWith(`${entry.tool} `) ? entry.what.slice(entry.tool.length + 1) : entry.what, width);
  const attempts: { fold: boolean; width: number }[] = [
    ...BRIEF_WIDTHS.slice(0, 3).map((width) => ({ fold: false, width })),
    ...BRIEF_WIDTHS.map((width) => ({ fold: true, width })),
  ];
  for (const { fold, width } of attempts) {
    const lines = earlierLine(previous, width * 2);
    for (const run of fold ? runs : entries.map((entry) => [entry])) {
      const first = run[0]!;
      const last = run[run.length - 1]!;
      lines.push(
        run.length === 1
          ? briefLine(first, width)
          : `- ${first.tool} ×${run.length}, all ${first.outcome}: ${argument(first, width)} … ${argument(last, width)}`,
      );
    }
    const text = lines.join('\n');
    if (text.length <= budget || codePoints(text).length <= budget) return text;
  }
  return undefined;
}

/** Code points a result's share must hold for its parsed digest to be worth writing. */
const MIN_SHARE = 80;

function size(text: string): number {
  return codePoints(text).length;
}

/** One result: its call and outcome, then its parsed output within `maxChars`, indented. */
function digestEntry(entry: ResultEntry, maxChars: number): string {
  const head = `- ${squeeze(entry.what, 160)}: ${entry.outcome}`;
  let room = maxChars - size(head) - 1;
  for (let attempt = 0; attempt < 3 && room > 0; attempt++) {
    const body = summarizeToolOutput(entry.output, {
      maxChars: room,
      ...(entry.command === undefined ? {} : { command: entry.command }),
    });
    const text = `${head}\n${body
      .split('\n')
      .map((line) => `  ${line}`)
      .join('\n')}`;
    if (size(text) <= maxChars) return text;
    room -= size(text) - maxChars;
  }
  return clipText(head, maxChars, 'head');
}

/**
 * The digest of a batch of tool results through the tool-output parsers, each result within its fair
 * share of the budget (what a short result leaves goes to the longer ones), so every result keeps its
 * counts, codes, locations and failing tests as far as its share allows. `undefined` when the shares
 * are too small for that (the brief digests take over).
 */
function digestWithShares(
  entries: readonly ResultEntry[],
  previous: string | undefined,
  budget: number,
): string | undefined {
  if (entries.length === 0) return undefined;
  const earlier = earlierLine(previous, Math.min(300, Math.floor(budget / 5)));
  const room = budget - (earlier.length > 0 ? size(earlier[0]!) + 1 : 0) - (entries.length - 1);
  const needs = entries.map((entry) => size(digestEntry(entry, 4_000)));
  const shares = shareBudget(needs, room);
  if (shares.some((share, index) => share < Math.min(MIN_SHARE, needs[index]!))) return undefined;
  const text = [...earlier, ...entries.map((entry, index) => digestEntry(entry, shares[index]!))].join('\n');
  return size(text) <= budget ? text : undefined;
}

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
    if (text.length <= budget || codePoints(text).length <= budget) return text;
  }
  const brief = facts ? undefined : briefDigest(entries, previous, budget);
  return brief ?? clipText(text, budget, 'head_tail');
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
 * points (detail is reduced first, then the text is cut head and tail).
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
    request.signal?.throwIfAborted();
    return summarizeHeuristically(request);
  },
};
