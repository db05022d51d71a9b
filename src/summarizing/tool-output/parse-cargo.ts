/** cargo build, clippy and test output. Internal. */
import { squash } from './lines.js';
import type { ToolOutputProblem } from './parsed-tool-output.js';
import { emptyResult, type ParserResult } from './parser-result.js';

const DIAGNOSTIC = /^(error|warning)(?:\[(\w+)\])?: (.+)$/;
const ARROW = /^\s*--> (\S+:\d+:\d+)/;
const LINT_NOTE = /#\[(?:warn|deny)\(([\w:]+)\)\]/;
const TEST_LINE = /^test (\S+) \.\.\. (FAILED|ok|ignored)/;
/** `thread 'name' panicked at src/lib.rs:15:9:` (newer Rust adds the thread id: `'name' (14163) panicked`). */
const PANIC = /^thread '([^']+)'(?: \(\d+\))? panicked at (?:'(.*)', )?(\S+?:\d+:\d+):?$/;
const TEST_RESULT = /^test result: (\w+)\. (.+?)(?:; finished in .*)?$/;
const SUMMARY =
  /^(?:error|warning): (?:could not compile|build failed|aborting due to)|generated \d+ warnings?|^error: test failed/;

/** cargo: `error[E0308]` and clippy lints with their `-->` location, failing tests and their panics. @internal */
export function parseCargo(lines: readonly string[]): ParserResult {
  const result = emptyResult();
  const tests = new Map<string, ToolOutputProblem>();
  let last: ToolOutputProblem | undefined;
  let panicking: ToolOutputProblem | undefined;
  for (const line of lines) {
    if (SUMMARY.test(line)) {
      result.counts.push(squash(line.replace(/^(error|warning): /, '')));
      last = undefined;
      continue;
    }
    const diagnostic = DIAGNOSTIC.exec(line);
    if (diagnostic) {
      last = {
        severity: diagnostic[1] === 'warning' ? 'warning' : 'error',
        ...(diagnostic[2] ? { code: diagnostic[2] } : {}),
        message: squash(diagnostic[3]!),
      };
      result.problems.push(last);
      panicking = undefined;
      continue;
    }
    const arrow = ARROW.exec(line);
    if (arrow && last && !last.location) {
      last.location = arrow[1]!;
      continue;
    }
    const lint = LINT_NOTE.exec(line);
    if (lint && last && !last.code) {
      last.code = lint[1]!;
      continue;
    }
    const test = TEST_LINE.exec(line);
    if (test) {
      if (test[2] === 'FAILED' && !tests.has(test[1]!))
        tests.set(test[1]!, { severity: 'failure', test: test[1]!, message: '' });
      continue;
    }
    const panic = PANIC.exec(line);
    if (panic) {
      const problem = tests.get(panic[1]!) ?? { severity: 'failure' as const, test: panic[1]!, message: '' };
      tests.set(panic[1]!, problem);
      problem.location = panic[3]!;
      if (panic[2]) problem.message = squash(panic[2]);
      panicking = panic[2] ? undefined : problem;
      continue;
    }
    if (panicking) {
      if (!line.trim() || /^note: |^stack backtrace|^----/.test(line)) panicking = undefined;
      else if (panicking.message.length < 300) panicking.message = squash(`${panicking.message} ${line}`);
      continue;
    }
    const total = TEST_RESULT.exec(line);
    if (total) result.counts.push(`test result: ${total[1]}. ${total[2]}`);
  }
  result.problems.unshift(...tests.values());
  return result;
}
