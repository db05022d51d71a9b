// The tool-results digests of the heuristic summarizer, from the most detailed to the briefest. Internal.
import { clipText, codePointLength, codePoints } from '../../internal/clip-text.js';
import { oneLine } from '../../internal/one-line.js';
import { shareBudget } from '../tool-output/share-budget.js';
import { digestToolOutput } from '../tool-output/summarize-tool-output.js';
import { type HighlightLimits, highlightOutput } from '../tool-output-highlights.js';
import type { Detail } from './render-checkpoint.js';
import type { ResultEntry } from './result-entries.js';

/** The earlier summary on one line, clipped to `chars`; nothing when there is none. */
function earlierLine(previous: string | undefined, chars: number): string[] {
  return previous?.trim() ? [`- Earlier: ${clipText(oneLine(previous), chars, 'head')}`] : [];
}

/**
 * One item per tool result: what ran, how it ended, and the lines of its output that matter.
 *
 * @internal
 */
export function digestToolResults(
  entries: readonly ResultEntry[],
  previous: string | undefined,
  level: { detail: Detail; highlight: HighlightLimits },
) {
  const lines = earlierLine(previous, level.detail.itemChars * 2);
  for (const entry of entries) {
    const { excerpt, lineCount } = highlightOutput(entry.output, level.highlight);
    lines.push(`- ${entry.what}: ${entry.outcome}, ${lineCount} line${lineCount === 1 ? '' : 's'}`);
    for (const line of excerpt) lines.push(`  ${line}`);
  }
  return lines.length > 0 ? lines.join('\n') : 'No tool results to summarize.';
}

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
 *
 * @internal
 */
export function briefDigest(
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
    if (text.length <= budget || codePointLength(text) <= budget) return text;
  }
  return undefined;
}

/** Code points a result's share must hold for its parsed digest to be worth writing. */
const MIN_SHARE = 80;

/** One result: its call and outcome, then its parsed output within `maxChars`, indented. */
function digestEntry(entry: ResultEntry, maxChars: number): string {
  const head = `- ${squeeze(entry.what, 160)}: ${entry.outcome}`;
  let room = maxChars - codePointLength(head) - 1;
  let text = head;
  // The indent takes two code points a line, which the digest does not know of: it is asked again
  // for less until it fits, and at worst cut after its last whole line that does.
  for (let attempt = 0; attempt < 4 && room > 0; attempt++) {
    // The head says how the call ended: the body spends nothing on its exit status.
    const body = digestToolOutput(entry.output, { maxChars: room, command: entry.command, exit: 'never' });
    text = `${head}\n${body
      .split('\n')
      .map((line) => `  ${line}`)
      .join('\n')}`;
    if (codePointLength(text) <= maxChars) return text;
    room -= codePointLength(text) - maxChars;
  }
  const cut = clipText(text, maxChars, 'head');
  const lineEnd = cut.lastIndexOf('\n');
  return lineEnd > 0 ? cut.slice(0, lineEnd) : clipText(head, maxChars, 'head');
}

/** A result whose call and output an earlier one of the batch had: its call and outcome, and no digest. */
function repeatLine(entry: ResultEntry): string {
  return `- ${squeeze(entry.what, 160)}: ${entry.outcome} — same output as above`;
}

/** A failed result's weight in the digest's shares, against 1 for the others. */
const FAILED_WEIGHT = 4;

/** Whether an entry did not end ok. */
function isFailure(entry: ResultEntry): boolean {
  return entry.outcome !== 'ok' && !entry.outcome.startsWith('ok ');
}

/**
 * The digest of a batch of tool results through the tool-output parsers: the results that failed
 * first (in their order), then the others, each named by its whole command (up to 160 code points)
 * and how it ended, with its output's counts, codes, locations and failing tests within its share of
 * the budget (a failed result weighs four times another; what a short result leaves goes to the
 * longer ones). `undefined` when the shares are too small for that (the brief digests take over).
 *
 * @internal
 */
export function digestWithShares(
  entries: readonly ResultEntry[],
  previous: string | undefined,
  budget: number,
): string | undefined {
  if (entries.length === 0) return undefined;
  const ordered = [...entries.filter(isFailure), ...entries.filter((entry) => !isFailure(entry))];
  const earlier = earlierLine(previous, Math.min(300, Math.floor(budget / 5)));
  const room = budget - (earlier.length > 0 ? codePointLength(earlier[0]!) + 1 : 0) - (ordered.length - 1);
  // A run repeated with the same output (an agent running the suite again) is named, not digested again.
  const seen = new Set<string>();
  const repeats = ordered.map((entry) => {
    const key = `${entry.what}\u0000${entry.outcome}\u0000${entry.output}`;
    if (seen.has(key)) return repeatLine(entry);
    seen.add(key);
    return undefined;
  });
  const needs = ordered.map((entry, index) => codePointLength(repeats[index] ?? digestEntry(entry, 4_000)));
  const shares = shareBudget(
    needs,
    room,
    ordered.map((entry) => (isFailure(entry) ? FAILED_WEIGHT : 1)),
  );
  if (shares.some((share, index) => share < Math.min(MIN_SHARE, needs[index]!))) return undefined;
  const text = [
    ...earlier,
    ...ordered.map((entry, index) => repeats[index] ?? digestEntry(entry, shares[index]!)),
  ].join('\n');
  return codePointLength(text) <= budget ? text : undefined;
}
