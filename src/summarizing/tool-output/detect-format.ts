/** Which tool an output came from, by its command when known, else by its lines. Internal. */
import type { ToolOutputFormat } from './parsed-tool-output.js';

/** Commands that name their tool; `npm test` and the like are read by their output instead. */
const BY_COMMAND: readonly (readonly [RegExp, ToolOutputFormat])[] = [
  [/(^|[\s/])tsc(\s|$)|vue-tsc|tsc\s+-[-\w]/, 'tsc'],
  [/(^|[\s/])eslint(\s|$)/, 'eslint'],
  [/(^|[\s/])biome\s+(check|lint|format|ci)\b/, 'biome'],
  [/node\s+(?:[-\w=]+\s+)*--test\b/, 'node-test'],
  [/(^|[\s/])vitest(\s|$)/, 'vitest'],
  [/(^|[\s/])jest(\s|$)/, 'jest'],
  [/(^|[\s/])(py\.?test|python3? -m pytest)(\s|$)/, 'pytest'],
  [/(^|\s)go\s+(test|vet|build)\b/, 'go-test'],
  [/(^|\s)cargo\s+(test|build|check|clippy|run)\b/, 'cargo'],
  [/(^|[\s/])(g?cc|[gc]\+\+|clang(\+\+)?|javac)(-\d+)?(\s|$)/, 'gcc'],
  [/(^|\s)git\s+status\b/, 'git-status'],
  [/(^|\s)git\s+(diff|show)\b/, 'git-diff'],
  [/(^|\s)git\s+log\b/, 'git-log'],
  [/(^|[\s/])(grep|rg|ag|ack)\s/, 'grep'],
  [/(^|\s)(npm|pnpm|yarn)\s+(i|install|ci|add|update|uninstall|publish|audit)\b/, 'npm'],
  [/(^|\s)(pip3?|python3? -m pip|uv pip)\s+install\b/, 'pip'],
];

/** Lines that give a tool away, strongest first; the strongest one seen decides. */
const SIGNATURES: readonly (readonly [RegExp, ToolOutputFormat])[] = [
  [/^TAP version \d+|^# Subtest: |^\s*not ok \d+ - |^# (pass|fail) \d+$/, 'node-test'],
  [/^ℹ (tests|pass|fail) \d+$|^✖ failing tests:$|^▶ \S/, 'node-test'],
  [/^\s*(RUN|DEV)\s+v\d+\.\d+\.\d+ |^\s*Test Files\s{2,}\d|^\s*FAIL\s+\S+\s+>\s/, 'vitest'],
  [/^(Test Suites|Tests):\s+\d|^\s*●\s+\S.*›/, 'jest'],
  [/^=+ test session starts =+$|^(FAILED|ERROR) \S+::\S+|^=+ .*\d+ (passed|failed).* in [\d.]+s/, 'pytest'],
  [/^=== RUN\s+\w|^--- (FAIL|PASS): \w|^(FAIL|ok)\s+\S+\s+[\d.]+s$/, 'go-test'],
  [/^error\[E\d{4}\]: |^\s+--> \S+\.rs:\d+:\d+|^test result: (ok|FAILED)\.|^\s+Compiling \S+ v\d/, 'cargo'],
  [/\berror TS\d+: /, 'tsc'],
  [/^✖ \d+ problems? \(|^\s+\d+:\d+\s+(error|warning)\s+\S/, 'eslint'],
  [/^\S+:\d+:\d+\s+(lint|format|parse|assist)\/|^Checked \d+ files? in /, 'biome'],
  [/^\S.*?:\d+(:\d+)?: (fatal error|error|warning): /, 'gcc'],
  [/^npm (ERR!|error) /, 'npm'],
  [
    /^ERROR: (Could not|No matching distribution|Cannot install|Failed building)|^\s*error: subprocess-exited-with-error/,
    'pip',
  ],
  [/^diff --git a\//, 'git-diff'],
  [/^On branch |^Changes (not staged|to be committed)|^Untracked files:|^nothing to commit/, 'git-status'],
  [/^commit [0-9a-f]{40}\b/, 'git-log'],
  [/^Traceback \(most recent call last\):|^Exception in thread "|^\s+at .+\(\S+:\d+:\d+\)$/, 'stack-trace'],
];

/**
 * A grep match (`path:12:`), a ripgrep heading or line, a `-C` context line (`path.py-12-`) or group
 * separator. A line number is not followed by a digit: a log line's date or time (`2026-11-26`,
 * `15:52:40`) is not one.
 */
const GREP_LINE = /^[^\s:]+:\d+[:-]|^\d+[:-](?!\d)|^[\w./@-]+\.\w+$|^[\w./@-]+\.\w+-\d+-|^--$/;

/**
 * The format of an output: the command's tool when it names one, else the strongest signature among
 * its lines (one pass, stopping at the strongest), else grep when most lines are `path:line:` matches.
 *
 * @internal
 */
export function detectFormat(lines: readonly string[], command: string | undefined): ToolOutputFormat {
  if (command) for (const [pattern, format] of BY_COMMAND) if (pattern.test(command)) return format;
  let best = SIGNATURES.length;
  let grepLike = 0;
  let nonEmpty = 0;
  for (const line of lines) {
    if (!line) continue;
    nonEmpty++;
    if (GREP_LINE.test(line)) grepLike++;
    for (let index = 0; index < best; index++) {
      if (SIGNATURES[index]![0].test(line)) {
        best = index;
        break;
      }
    }
    if (best === 0) break;
  }
  if (best < SIGNATURES.length) return SIGNATURES[best]![1];
  if (nonEmpty > 0 && grepLike * 2 > nonEmpty) return 'grep';
  return 'unknown';
}
