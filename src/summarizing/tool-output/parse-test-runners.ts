/** Test runners other than node:test: vitest, jest, pytest, go test. Internal. */
import { cleanLocation, indentOf, squash } from './lines.js';
import type { ToolOutputProblem } from './parsed-tool-output.js';
import { emptyResult, type ParserResult } from './parser-result.js';

const MESSAGE_CHARS = 400;
const STACK_LOCATION = /\(?((?:file:\/\/)?[^\s()]+:\d+:\d+)\)?$/;
const ERROR_LINE = /^(?:\w+\.)*\w*(?:Error|Exception)\b[^:]*:\s*(.+)$|^(?:expect|assert)\w*\(.*$/;

/** The failures of a runner, one per test name, in first-mention order. */
class Failures {
  readonly byName = new Map<string, ToolOutputProblem>();
  /** Failures by the last part of their name, to match a short name to a full one in constant time. */
  private readonly byLeaf = new Map<string, ToolOutputProblem>();
  get(test: string): ToolOutputProblem {
    let problem = this.byName.get(test) ?? this.byLeaf.get(leafOf(test));
    if (problem && problem.test !== test && test.length > (problem.test ?? '').length) {
      // A full name (`math > adds`) seen after a short one (`adds`): keep the full one.
      this.byName.delete(problem.test ?? '');
      problem.test = test;
      this.byName.set(test, problem);
    }
    if (!problem) {
      problem = { severity: 'failure', test, message: '' };
      this.byName.set(test, problem);
      this.byLeaf.set(leafOf(test), problem);
    }
    return problem;
  }
}

function leafOf(test: string): string {
  const parts = test.split(/ > |::|\//);
  return parts[parts.length - 1]!.trim();
}

function appendMessage(problem: ToolOutputProblem, text: string): void {
  const line = squash(text);
  const bare = line.replace(/^(?:\w+\.)*\w*(?:Error|Exception)\w*: /, '');
  if (!line || problem.message.length >= MESSAGE_CHARS || problem.message.includes(bare)) return;
  problem.message = problem.message ? `${problem.message} ${line}` : line;
}

const VITEST_FAIL = /^\s*FAIL\s+(\S+?)\s+>\s+(.+?)(?:\s+\[[^\]]*\])?$/;
const VITEST_CROSS = /^\s+[×✗]\s+(.+?)(?:\s+\d+m?s)?$/;
const VITEST_ARROW = /^\s+→\s+(.+)$/;
const VITEST_AT = /^\s*❯\s+(\S+:\d+:\d+)/;
const VITEST_COUNT = /^\s*(Test Files|Tests)\s{2,}(.+?)\s*$/;
const JEST_BULLET = /^\s*●\s+(.+)$/;
const JEST_CROSS = /^\s+✕\s+(.+?)(?:\s+\(\d+ m?s\))?$/;
const JEST_COUNT = /^(Test Suites|Tests):\s+(.+)$/;

/** vitest and jest: failing test names, the assertion under them, their location and the totals. @internal */
export function parseVitestOrJest(lines: readonly string[]): ParserResult {
  const result = emptyResult();
  const failures = new Failures();
  let current: ToolOutputProblem | undefined;
  let currentFile: string | undefined;
  let messageLines = 0;
  for (const line of lines) {
    const count = VITEST_COUNT.exec(line) ?? JEST_COUNT.exec(line.trim());
    if (count) {
      result.counts.push(`${count[1]}: ${squash(count[2]!)}`);
      current = undefined;
      continue;
    }
    const fail = VITEST_FAIL.exec(line);
    if (fail) {
      currentFile = fail[1]!;
      current = failures.get(fail[2]!.replace(/\s+>\s+/g, ' > '));
      messageLines = 0;
      continue;
    }
    const bullet = JEST_BULLET.exec(line);
    if (bullet && !/^Console\b/.test(bullet[1]!)) {
      current = failures.get(bullet[1]!.replace(/\s+›\s+/g, ' > '));
      messageLines = 0;
      continue;
    }
    const cross = VITEST_CROSS.exec(line) ?? JEST_CROSS.exec(line);
    if (cross) {
      current = failures.get(cross[1]!.replace(/\s+[>›]\s+/g, ' > '));
      messageLines = 0;
      continue;
    }
    if (/^\s*(✓|✔|√|PASS\b|↓)/.test(line)) {
      current = undefined;
      continue;
    }
    if (!current) {
      const file = /^\s*(?:FAIL|❯)\s+(\S+\.\w+)(?:\s|$)/.exec(line);
      if (file) currentFile = file[1]!;
      continue;
    }
    const arrow = VITEST_ARROW.exec(line);
    if (arrow) {
      appendMessage(current, arrow[1]!);
      continue;
    }
    const at = VITEST_AT.exec(line) ?? (/^\s+at /.test(line) ? STACK_LOCATION.exec(line.trim()) : null);
    if (at) {
      const location = cleanLocation(at[1]!);
      if (!current.location && !/node_modules|node:internal/.test(location)) current.location = location;
      continue;
    }
    const trimmed = line.trim();
    if (!trimmed || /^[⎯─-]{3,}/.test(trimmed) || /^\d+\s*\||^>\s*\d+\s*\||^\|/.test(trimmed)) continue;
    if (/^[-+] (Expected|Received)$/.test(trimmed)) continue;
    // The assertion: the error line, then up to three short lines of its detail (Expected / Received).
    if (messageLines === 0 ? ERROR_LINE.test(trimmed) || indentOf(line) >= 2 : messageLines < 4) {
      appendMessage(current, trimmed);
      messageLines++;
    }
  }
  for (const problem of failures.byName.values()) {
    if (!problem.location && currentFile) problem.location = currentFile;
    result.problems.push(problem);
  }
  return result;
}

const PYTEST_SUMMARY = /^(FAILED|ERROR) (\S+?)(?: - (.*))?$/;
const PYTEST_SECTION = /^_{3,} (.+?) _{3,}$/;
/** `test_x.py:11: AssertionError` (long tracebacks) or `test_x.py:11: in test_name` (`--tb=short`). */
const PYTEST_WHERE = /^(\S+\.py):(\d+): (?:\w+|in \S+)$/;
const PYTEST_TOTAL = /^=+ (.*?\d+ (?:passed|failed|errors?|skipped).*?) =+$/;

/**
 * pytest: `FAILED path::test - message` and `ERROR path::test` (setup and teardown errors), the `E`
 * lines and the innermost `file:line` of each, in long and `--tb=short` tracebacks, and the totals.
 * @internal
 */
export function parsePytest(lines: readonly string[]): ParserResult {
  const result = emptyResult();
  const failures = new Failures();
  const details = new Map<string, { location?: string; lines: string[] }>();
  let section: { location?: string; lines: string[] } | undefined;
  for (const line of lines) {
    const summary = PYTEST_SUMMARY.exec(line);
    if (summary) {
      const problem = failures.get(summary[2]!);
      if (summary[1] === 'ERROR') problem.severity = 'error';
      if (summary[3]) appendMessage(problem, summary[3]);
      continue;
    }
    const heading = PYTEST_SECTION.exec(line);
    if (heading) {
      section = { lines: [] };
      details.set(heading[1]!.replace(/^(?:ERROR|FAILURE) (?:at (?:setup|teardown) of |at |collecting )/, ''), section);
      continue;
    }
    if (/^=+ .* =+$/.test(line)) section = undefined;
    const total = PYTEST_TOTAL.exec(line);
    if (total) {
      result.counts.push(total[1]!);
      continue;
    }
    if (!section) continue;
    if (/^E\s+/.test(line) && section.lines.length < 6) section.lines.push(line.slice(1));
    const where = PYTEST_WHERE.exec(line);
    if (where) section.location = `${where[1]}:${where[2]}`;
  }
  for (const [name, detail] of details) {
    const problem = failures.get(name.replace(/\./g, '::'));
    if (detail.location && !problem.location) problem.location = detail.location;
    for (const line of detail.lines) appendMessage(problem, line);
  }
  result.problems.push(...failures.byName.values());
  return result;
}

const GO_RUN = /^=== (RUN|CONT|PAUSE|NAME)\s+(\S+)/;
const GO_FAIL = /^\s*--- FAIL: (\S+) \(([\d.]+s)\)$/;
const GO_LOG = /^\s+(\S+\.go):(\d+): (.*)$/;
const GO_PACKAGE = /^(FAIL|ok)\s+(\S+)\s+(?:[\d.]+s|\(cached\)|\[[^\]]+\])/;
const GO_BUILD = /^(\.?\.?\/?\S+\.go):(\d+):(\d+): (.+)$/;

/** go test: `--- FAIL: TestName`, the `file_test.go:12: …` lines under it, build errors and panics. @internal */
export function parseGoTest(lines: readonly string[]): ParserResult {
  const result = emptyResult();
  const failures = new Failures();
  const logs = new Map<string, { location: string; message: string }[]>();
  let running: string | undefined;
  let failedPackages = 0;
  let okPackages = 0;
  let panic: ToolOutputProblem | undefined;
  for (const line of lines) {
    const run = GO_RUN.exec(line);
    if (run) {
      running = run[2]!;
      continue;
    }
    const log = GO_LOG.exec(line);
    if (log && running) {
      const list = logs.get(running) ?? [];
      list.push({ location: `${log[1]}:${log[2]}`, message: squash(log[3]!) });
      logs.set(running, list);
      continue;
    }
    const fail = GO_FAIL.exec(line);
    if (fail) {
      const problem = failures.get(fail[1]!);
      for (const entry of logs.get(fail[1]!) ?? []) {
        if (!problem.location) problem.location = entry.location;
        appendMessage(problem, entry.message);
      }
      continue;
    }
    const build = GO_BUILD.exec(line);
    if (build) {
      result.problems.push({
        severity: 'error',
        location: `${build[1]}:${build[2]}:${build[3]}`,
        message: squash(build[4]!),
      });
      continue;
    }
    if (/^panic: /.test(line)) {
      panic = { severity: 'error', code: 'panic', message: squash(line.slice(7)) };
      result.problems.push(panic);
      continue;
    }
    if (panic && !panic.location && /^\s+\S+\.go:\d+/.test(line)) {
      panic.location = line.trim().replace(/ \+0x[0-9a-f]+$/, '');
      continue;
    }
    const pkg = GO_PACKAGE.exec(line);
    if (pkg) {
      if (pkg[1] === 'FAIL') {
        failedPackages++;
        result.notes.push(`FAIL ${pkg[2]}`);
      } else okPackages++;
    }
  }
  const failed = failures.byName.size;
  if (failed > 0 || failedPackages > 0 || okPackages > 0)
    result.counts.push(
      `${failed} failed test${failed === 1 ? '' : 's'}, ${failedPackages} failed package${failedPackages === 1 ? '' : 's'}, ${okPackages} ok`,
    );
  result.problems.unshift(...failures.byName.values());
  return result;
}
