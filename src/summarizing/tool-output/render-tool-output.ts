import { clipText, codePointLength } from '../../internal/clip-text.js';
import * as v from '../../validation/light-schema.js';
import { option, parseOptions } from '../../validation/parse-options.js';
import { clipItem } from '../heuristic/clip-item.js';
import { clipLine } from './lines.js';
import type { ParsedToolOutput, ToolOutputProblem } from './parsed-tool-output.js';

/** What {@link renderToolOutput} reads of a parse: enough to refuse what is not one. */
const parsedSchema = /* @__PURE__ */ (() =>
  v.looseObject(
    {
      format: v.string(),
      lineCount: v.number(),
      exitCode: v.number().optional(),
      counts: v.array(v.string()),
      problems: v.array(v.looseObject({})),
      notes: v.array(v.string()),
    },
    { error: 'must be what parseToolOutput returns' },
  ))();

/** `maxChars` of {@link renderToolOutput}, built once. */
const maxCharsSchema = /* @__PURE__ */ option.tokens();

/**
 * Renderings tried, from the most to the least detail: problems grouped by code and message, then by
 * code alone (one message per code), each message shortened to `width` (0 keeps codes and places only).
 * With `notesThatFit`, an output with problems keeps the notes that fit and counts the rest: a
 * problem's message at 100 characters tells more than the output's first and last lines beside it
 * (a `find` listing with two `No such file or directory` lines in the middle).
 */
const ATTEMPTS: readonly { byCode: boolean; width: number; notesThatFit?: true }[] = [
  { byCode: false, width: 300 },
  { byCode: false, width: 160 },
  { byCode: false, width: 100 },
  { byCode: true, width: 100 },
  { byCode: false, width: 100, notesThatFit: true },
  { byCode: true, width: 100, notesThatFit: true },
  { byCode: true, width: 60 },
  { byCode: false, width: 60 },
  { byCode: true, width: 32 },
  { byCode: false, width: 32 },
  { byCode: true, width: 0 },
];

/** Problems of one code and message together, so sixteen errors of six codes read as six lines. */
interface Group {
  problem: ToolOutputProblem;
  locations: string[];
}

function groupProblems(problems: readonly ToolOutputProblem[], byCode: boolean): Group[] {
  const groups = new Map<string, Group>();
  const located = new Map<string, Set<string>>();
  const ordered = [
    ...problems.filter((problem) => problem.severity !== 'warning'),
    ...problems.filter((problem) => problem.severity === 'warning'),
  ];
  for (const problem of ordered) {
    // Failing tests (and tests that errored in setup) stay one per test: their names are what a reader looks for.
    const key =
      problem.severity === 'failure' || problem.test !== undefined
        ? `failure\u0000${problem.test ?? ''}\u0000${problem.location ?? ''}`
        : byCode && problem.code
          ? `${problem.severity}\u0000${problem.code}`
          : `${problem.severity}\u0000${problem.code ?? ''}\u0000${problem.message}`;
    const group = groups.get(key);
    // A set beside each group's list: a log of thousands of one error checks each place once.
    const places = located.get(key);
    if (group && places) {
      if (problem.location && !places.has(problem.location)) {
        places.add(problem.location);
        group.locations.push(problem.location);
      }
    } else {
      groups.set(key, { problem, locations: problem.location ? [problem.location] : [] });
      located.set(key, new Set(problem.location ? [problem.location] : []));
    }
  }
  return [...groups.values()];
}

function renderGroup(group: Group, width: number): string {
  const { problem, locations } = group;
  const unread = problem.code === undefined && locations.length === 0;
  const message =
    width === 0 || !problem.message ? '' : unread ? clipLine(problem.message, width) : clipItem(problem.message, width);
  if (problem.severity === 'failure' || problem.test !== undefined) {
    const name = clipText(problem.test ?? '(unnamed test)', Math.max(width, 120), 'head');
    const where = locations.length ? ` (${locations.join(', ')})` : '';
    const code = problem.code && width > 0 ? ` [${problem.code}]` : '';
    const error = problem.severity === 'error' ? ' error' : '';
    return `✗ ${name}${where}${code}${error}${message ? ` — ${message}` : ''}`;
  }
  const label = problem.severity === 'warning' ? 'warning ' : '';
  const code = problem.code ? `${problem.code}` : '';
  const head = `${label}${code}`.trim();
  if (locations.length <= 1) {
    // A stack trace's error names the frames that called it too, while messages are not cut short.
    const callers = width >= 60 && problem.callers?.length ? ` ← ${problem.callers.join(' ← ')}` : '';
    const where = locations[0] === undefined ? undefined : `${locations[0]}${callers}`;
    const parts = [where, head ? `${head}:` : '', message].filter((part) => part);
    const line = parts.join(' ').replace(/:$/, '');
    return line || (unread ? clipLine : clipItem)(problem.message, Math.max(width, 60));
  }
  const what = [head, message].filter((part) => part).join(': ');
  return `${what || 'at'}${locations.length > 1 ? ` ×${locations.length}` : ''} @ ${locations.join(', ')}`;
}

/** Counts that say nothing: `# todo 0`, `ℹ cancelled 0`, durations. */
const IDLE_COUNT = /^(# )?(suites|cancelled|skipped|todo) 0$|^(# )?duration_ms\b/;

/** The counts of a parsed output that say something (`# todo 0` and `duration_ms` left out). @internal */
export function telling(counts: readonly string[]): string[] {
  return counts.filter((count) => !IDLE_COUNT.test(count));
}

/**
 * Whether a digest's first line states the exit status: `always` (`exit status unknown` when neither
 * host nor output told), `known` (only when one did), `never` (a line beside it already says how the
 * call ended, as in the batch digests).
 *
 * @internal
 */
export type ExitStatusShown = 'always' | 'known' | 'never';

/** The tool, how it exited (as `shown` asks), its counts. */
function header(parsed: ParsedToolOutput, shown: ExitStatusShown): string {
  const name = parsed.format === 'unknown' ? 'output' : parsed.format;
  const exit =
    shown === 'never' || (shown === 'known' && parsed.exitCode === undefined)
      ? ''
      : parsed.exitCode === undefined
        ? ' (exit status unknown)'
        : ` (exit ${parsed.exitCode})`;
  const counts = telling(parsed.counts);
  const said = counts.length > 0 ? counts.join('; ') : `${parsed.lineCount} line${parsed.lineCount === 1 ? '' : 's'}`;
  return `${name}${exit}: ${said}`;
}

/** The distinct codes with how often each came up: what survives when nothing else fits. */
function codeLine(problems: readonly ToolOutputProblem[]): string | undefined {
  const counts = new Map<string, number>();
  for (const problem of problems) if (problem.code) counts.set(problem.code, (counts.get(problem.code) ?? 0) + 1);
  if (counts.size === 0) return undefined;
  return `codes: ${[...counts].map(([code, count]) => (count > 1 ? `${code} ×${count}` : code)).join(', ')}`;
}

/**
 * Writes a parsed output as a digest of at most `maxChars` code points: a first line with the tool,
 * its exit status (`exit 1`, or `exit status unknown`) and its counts, one line per error (same code and message grouped, every location kept), per
 * failing test and per note. Messages are shortened first, then codes and locations are all that is
 * left of each item, then items are left out from the end with a count of how many.
 *
 * @param parsed - What {@link parseToolOutput} returned.
 * @param maxChars - Code points the digest may take.
 * @returns The digest.
 *
 * @example
 * ```ts
 * const digest = renderToolOutput(parseToolOutput(output), 400);
 * ```
 */
export function renderToolOutput(parsed: ParsedToolOutput, maxChars: number): string {
  parseOptions('renderToolOutput', parsedSchema, parsed, 'parsed');
  const budget = Math.floor(parseOptions('renderToolOutput', maxCharsSchema, maxChars, 'maxChars'));
  return renderDigest(parsed, budget, 'always');
}

/**
 * {@link renderToolOutput} on a checked parse and a whole budget, its first line stating the exit
 * status as `exit` asks.
 *
 * @internal
 */
export function renderDigest(parsed: ParsedToolOutput, budget: number, exit: ExitStatusShown): string {
  const first = header(parsed, exit);
  const hasCodes = parsed.problems.some((problem) => problem.code !== undefined && problem.severity !== 'failure');
  // The attempts differ in width; the problems group two ways only, each grouped once.
  const grouped = new Map<boolean, Group[]>();
  const groupsBy = (byCode: boolean): Group[] => {
    let groups = grouped.get(byCode);
    if (groups === undefined) {
      groups = groupProblems(parsed.problems, byCode);
      grouped.set(byCode, groups);
    }
    return groups;
  };
  attempts: for (const { byCode, width, notesThatFit } of ATTEMPTS) {
    if (byCode && !hasCodes) continue;
    if (notesThatFit && (parsed.problems.length === 0 || parsed.notes.length === 0)) continue;
    // A line no parser read says nothing in 32 characters: fewer of them at 60, the rest counted.
    if (parsed.format === 'unknown' && width > 0 && width < 60) continue;
    // Below 100 characters a message says less than the output's other lines: those go first.
    const fitNotes = notesThatFit === true || (width < 100 && parsed.problems.length > 0);
    // Lines are measured as they are made: an attempt stops at the first line past the budget.
    const lines = [first];
    let length = codePointLength(first);
    const add = (line: string): boolean => {
      length += 1 + codePointLength(line);
      lines.push(line);
      return length <= budget;
    };
    for (const group of groupsBy(byCode)) if (!add(renderGroup(group, width))) continue attempts;
    for (const [index, note] of parsed.notes.entries()) {
      const line = clipItem(note, width === 0 ? 80 : Math.max(width, 80));
      if (fitNotes) {
        const left = parsed.notes.length - index - 1;
        // Room for this note and, after it, the count of those left out.
        const after = left > 0 ? codePointLength(`\n… ${left + 1} more`) : 0;
        if (length + 1 + codePointLength(line) + after > budget) {
          add(`… ${left + 1} more`);
          break;
        }
      }
      if (!add(line)) continue attempts;
    }
    if (length <= budget) return lines.join('\n');
  }
  // Even codes and places do not all fit: keep the counts, the codes, and as many items as fit.
  const lines = [first];
  const codes = codeLine(parsed.problems);
  if (codes) lines.push(codes);
  const groups = groupsBy(true);
  const items = [...groups.map((group) => renderGroup(group, 0)), ...parsed.notes.map((note) => clipItem(note, 80))];
  let used = codePointLength(lines.join('\n'));
  let kept = 0;
  for (const item of items) {
    const remaining = items.length - kept - 1;
    const more = remaining > 0 ? `\n… ${remaining} more` : '';
    const cost = codePointLength(item) + 1;
    if (used + cost + codePointLength(more) > budget) break;
    lines.push(item);
    used += cost;
    kept++;
  }
  if (kept < items.length) lines.push(`… ${items.length - kept} more`);
  return clipText(lines.join('\n'), budget, 'head');
}
