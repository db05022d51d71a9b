/**
 * Picks the lines that matter out of noisy tool output (errors, failing tests, file locations, exit
 * codes, result counts) for the heuristic summarizer. Internal.
 */
import { clipText } from '../internal/clip-text.js';
import { ANSI_ESCAPE } from './tool-output/lines.js';

/** How far a highlighted line goes, and how much of the output around it is kept. @internal */
export interface HighlightLimits {
  /** Highlighted lines kept at most (the highest ranked, shown in their original order). */
  lines: number;
  /** Non-empty lines kept from the start of the output. */
  head: number;
  /** Non-empty lines kept from the end of the output. */
  tail: number;
  /** Code points kept of each line. */
  lineChars: number;
}

/** Picked lines of one output, in their original order, with a `…` where lines were skipped. @internal */
interface Highlights {
  /** The kept lines, `…` marking gaps. */
  excerpt: string[];
  /** Non-empty lines in the output. */
  lineCount: number;
  /** The most telling error, failure or exit-code line (the first of the highest rank), if any. */
  topError: string | undefined;
  /** The rank of `topError` (6 states an error, 5 a failure, 4 an exit code); 0 without one. */
  topRank: number;
}

/** Patterns and their rank; a line takes the highest rank it matches. */
const RANKS: readonly (readonly [RegExp, number])[] = [
  // Lines that state an error: `TypeError: …`, `error TS2345`, `error[E0308]`, `npm ERR!`, `panic:`, git's `CONFLICT (content): …`.
  [/\b\w*(error|exception)\b:|\berror\s*(\[\w+\]|[A-Z]+\d+)|\bERR!|\bpanic(ked)?\b|\bfatal\b:|^CONFLICT \(/i, 6],
  // Errors, panics and exceptions; the system's own error messages (`ls: cannot access 'x': No such file or directory`).
  // A word of a name is not one: `libgpg-error-dev`, `src/error.ts`, `error-handler`.
  [
    /\berr(or)?!|(?<![\w/-])error(?![-/]?\w|\.\w)|(?<![\w/-])exception(?![-/]?\w|\.\w)|\bpanic(ked)?\b|\bfatal\b|traceback|segmentation fault|no such file or directory|permission denied|connection refused|command not found/i,
    5,
  ],
  // An error class (`TypeError`, `IOException`), in its own case: a file named `ASSEMBLY_EXCEPTION` in a listing is not one.
  [/\w(Error|Exception)\b/, 5],
  // Failing tests in common runners (vitest/jest, pytest, go test, TAP, mocha).
  [/^\s*(FAIL|FAILED|✗|✕|×|✘|❌|●)\s|--- FAIL|^\s*not ok\b|\bfailed\b|\bfailing\b|\bfailure\b|\bAssertionError\b/i, 5],
  // Exit codes and abnormal ends.
  [
    /\bexit(ed)?\s+(with\s+)?(code|status)\b|\bexited with\b|\bnon-zero\b|\bcommand failed\b|\bkilled\b|\btimed? ?out\b/i,
    4,
  ],
  // Result counts: "3 failed, 12 passed", "Tests: 2 failed", "found 4 errors".
  [/\b\d+\s+(passed|failed|failing|passing|errors?|warnings?|skipped|pending|problems?|tests?|suites?)\b/i, 3],
  // Missing or refused things.
  [/\bnot found\b|\bno such file\b|\bcannot\b|\bcan't\b|\bdenied\b|\bundefined\b|\bunexpected\b|\binvalid\b/i, 3],
  // File locations: path:line(:col) and Python's `File "x.py", line 3`.
  [/(?:^|[\s"'(=[])[\w@~./-]*[\w-]\.[A-Za-z]\w{0,7}:\d+|\bFile "[^"]+", line \d+/, 2],
  [/\bwarn(ing)?\b/i, 1],
];

/** Characters of a line that are ranked: what matters is near its start, and long lines stay cheap. */
const RANKED_CHARS = 1000;

/** A passing test or check (`✓ test/a.test.ts (4 tests)`, `PASS`, go's `ok`): noise in a digest. */
const PASSING = /^\s*(✓|✔|√|PASS\b|ok\s)/;

/** A YAML block's key with nothing after it (`error: |-` in node:test's TAP): its message is on the next lines. */
const YAML_BLOCK_KEY = /^\s*[\w-]+:\s*[|>][-+]?\s*$/;

/** The rank of one line: 0 for noise. @internal */
export function lineRank(line: string): number {
  const head = line.length > RANKED_CHARS ? line.slice(0, RANKED_CHARS) : line;
  if (PASSING.test(head) || YAML_BLOCK_KEY.test(head)) return 0;
  for (const [pattern, rank] of RANKS) if (pattern.test(head)) return rank;
  return 0;
}

/** File paths with an extension (and `:line:col` when present), in order of first mention. @internal */
export function findPaths(text: string): string[] {
  const found = new Set<string>();
  const pattern =
    /(?:^|[\s"'`(=[])((?:\.{0,2}\/|~\/|[\w@-][\w.@-]*\/)?(?:[\w.@-]+\/)*[\w@-][\w.@-]*\.[A-Za-z][\w]{0,7}(?::\d+(?::\d+)?)?)/g;
  for (const match of text.matchAll(pattern)) {
    const path = match[1] ?? '';
    const bare = path.replace(/:\d+(:\d+)?$/, '');
    // Skip version numbers, domains and dotted identifiers that are not obviously files.
    if (/^[\d.]+$/.test(bare) || /^(https?|www)\b/.test(bare)) continue;
    if (
      !bare.includes('/') &&
      !/\.(?:[cm]?[jt]sx?|py|rs|go|java|kt|rb|php|cs|cpp|cc|c|h|hpp|swift|json|ya?ml|toml|md|txt|sql|sh|html|css|scss|vue|svelte|lock|env|cfg|ini|xml|gradle)$/i.test(
        bare,
      )
    )
      continue;
    found.add(path);
    if (found.size >= 200) break;
  }
  return [...found];
}

/** Non-empty lines of text, without terminal colour codes or trailing spaces. @internal */
export function meaningfulLines(text: string): string[] {
  return text
    .replace(ANSI_ESCAPE, '')
    .split(/\r?\n|\r/)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim().length > 0);
}

/**
 * The lines of a tool output worth keeping: the highest-ranked ones (errors, failing tests, exit codes,
 * counts, file locations), plus the first and last lines, in their original order.
 *
 * @internal
 */
export function highlightOutput(text: string, limits: HighlightLimits): Highlights {
  const lines = meaningfulLines(text);
  const ranked = lines.map((line, index) => ({ index, rank: lineRank(line) })).filter((entry) => entry.rank > 0);
  const chosen = new Set<number>();
  const seen = new Set<string>();
  const byRank = [...ranked].sort((left, right) => right.rank - left.rank || left.index - right.index);
  const top = byRank[0] !== undefined && byRank[0].rank >= 4 ? byRank[0] : undefined;
  for (const entry of byRank) {
    if (chosen.size >= limits.lines) break;
    const key = lines[entry.index]!.trim();
    if (seen.has(key)) continue;
    seen.add(key);
    chosen.add(entry.index);
  }
  for (let index = 0; index < Math.min(limits.head, lines.length); index++) chosen.add(index);
  for (let index = Math.max(0, lines.length - limits.tail); index < lines.length; index++) chosen.add(index);
  const excerpt: string[] = [];
  let previous = -1;
  for (const index of [...chosen].sort((left, right) => left - right)) {
    if (index > previous + 1) excerpt.push('…');
    excerpt.push(clipText(lines[index]!.trim(), limits.lineChars, 'head'));
    previous = index;
  }
  if (previous >= 0 && previous < lines.length - 1) excerpt.push('…');
  const topError = top === undefined ? undefined : clipText(lines[top.index]!.trim(), limits.lineChars, 'head');
  return { excerpt, lineCount: lines.length, topError, topRank: top?.rank ?? 0 };
}
