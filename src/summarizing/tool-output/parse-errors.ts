/** npm and pip errors, stack traces, and the fallback for outputs nothing else recognises. Internal. */
import { lineRank } from '../tool-output-highlights.js';
import { cleanLocation, clipLine, squash } from './lines.js';
import type { ToolOutputProblem } from './parsed-tool-output.js';
import { emptyResult, type ParserResult } from './parser-result.js';

const NPM_LINE = /^npm (?:ERR!|error)\s?(.*)$/;
const NPM_WARN = /^npm (?:WARN|warn)\s+(\S+)\s+(.*)$/;

/** npm: `npm ERR! code E404` (or npm 10's `npm error code …`) with the lines that explain it. @internal */
export function parseNpm(lines: readonly string[]): ParserResult {
  const result = emptyResult();
  let problem: ToolOutputProblem | undefined;
  let warnings = 0;
  for (const line of lines) {
    const warn = NPM_WARN.exec(line);
    if (warn) {
      warnings++;
      continue;
    }
    const match = NPM_LINE.exec(line);
    if (!match) continue;
    const text = match[1]!.trim();
    const code = /^code (\S+)$/.exec(text);
    if (code) {
      problem = { severity: 'error', code: code[1]!, message: '' };
      result.problems.push(problem);
      continue;
    }
    if (!text || /complete log of this run|A complete log|^Log files were not written|_logs\//i.test(text)) continue;
    if (!problem) {
      problem = { severity: 'error', message: '' };
      result.problems.push(problem);
    }
    if (/^errno /.test(text)) continue;
    // npm repeats the code at the start of each line of its explanation (`404 Not Found`, `404 …`).
    const said = problem.code ? text.replace(new RegExp(`^${problem.code.replace(/^E(?=\d)/, '')}\\s*`), '') : text;
    if (said && problem.message.length < 400) problem.message = squash(`${problem.message} ${said}`);
  }
  if (warnings > 0) result.counts.push(`${warnings} warning${warnings === 1 ? '' : 's'}`);
  return result;
}

const PIP_ERROR = /^(?:ERROR|error): (.+)$/;

/** pip: `ERROR: …` lines (no matching distribution, build failures, conflicts) with their packages. @internal */
export function parsePip(lines: readonly string[]): ParserResult {
  const result = emptyResult();
  for (const line of lines) {
    const match = PIP_ERROR.exec(line.trim());
    if (!match) {
      if (/^Successfully installed /.test(line)) result.notes.push(squash(line));
      continue;
    }
    const code = /^([\w-]+-error|subprocess-exited-with-error|metadata-generation-failed)\b/.exec(match[1]!)?.[1];
    result.problems.push({ severity: 'error', ...(code ? { code } : {}), message: squash(match[1]!) });
  }
  return result;
}

const JS_ERROR = /^(?:Uncaught )?((?:\w+\.)*\w*(?:Error|Exception)|Error)(?: \[(\w+)\])?: (.*)$/;
const JS_FRAME = /^\s+at (?:.+? \()?((?:file:\/\/)?[^\s()]+:\d+:\d+)\)?$/;
const PY_FRAME = /^\s+File "([^"]+)", line (\d+)(?:, in (.+))?$/;
const PY_ERROR = /^((?:\w+\.)*\w+(?:Error|Exception|Exit|Interrupt|Warning)\w*)(?:: (.*))?$/;
const JAVA_HEAD = /^Exception in thread "[^"]+" ([\w.$]+)(?:: (.*))?$/;
/** A link of a Java exception chain (`Caused by: …`, `Suppressed: …`) or a JavaScript `[cause]: …`. */
const CAUSE = /^\s*(?:Caused by|Suppressed|\[cause\]):\s+((?:[\w$]+\.)*[\w$]+)(?: \[(\w+)\])?(?::\s?(.*?))?\s*\{?$/;
const JAVA_FRAME = /^\s+at ([\w.$<>]+)\(([\w.$]+:\d+)\)$/;

/** A test `python -m unittest` reports before its traceback: `FAIL: test_add (calc.CalcTest.test_add)`; before 3.11 `(calc.CalcTest)`. */
const UNITTEST_HEAD = /^(FAIL|ERROR): (\w+) \(([\w.]+)\)$/;
/** unittest's totals: `Ran 4 tests in 0.001s`, then `FAILED (failures=2, errors=1)` or `OK`. */
const UNITTEST_RAN = /^(Ran \d+ tests?) in [\d.]+m?s$/;
const UNITTEST_VERDICT = /^(FAILED \(.+\)|OK(?: \(.+\))?)$/;

/** Frames of a runtime or a dependency, which are not where a project's bug is. */
const FOREIGN_FRAME = /node:internal|node_modules|site-packages|dist-packages|\/lib\/python\d|^<frozen /;
/** Java methods of the platform (`java.util.…`, `jdk.…`); module-qualified frames do not match JAVA_FRAME. */
const JAVA_PLATFORM = /^(?:java|javax|jdk|sun|com\.sun)\./;
/** The most callers an error lists beside its innermost frame. */
const MAX_CALLERS = 4;

/** Records `frame` as a caller of `problem` (after its location), within {@link MAX_CALLERS}. */
function addCaller(problem: ToolOutputProblem, frame: string): void {
  if (frame === problem.location) return;
  const callers = problem.callers ?? [];
  if (callers.length >= MAX_CALLERS || callers.includes(frame)) return;
  callers.push(frame);
  problem.callers = callers;
}

/**
 * Stack traces of JavaScript, Python and Java: each error of the chain (Java's `Caused by:`, Python's
 * chained tracebacks, JavaScript's `[cause]:`), its message, its innermost own frame and the own
 * frames that called it (at most four). A traceback `python -m unittest` heads with `FAIL: test (…)`
 * or `ERROR: test (…)` is that test's failure or error, and the run's totals are its counts. @internal
 */
export function parseStackTrace(lines: readonly string[]): ParserResult {
  const result = emptyResult();
  let current: ToolOutputProblem | undefined;
  // Python prints a traceback's frames outermost first, before its error.
  let pythonFrames: string[] = [];
  // The unittest test whose traceback follows, until its error line.
  let test: { name: string; failed: boolean } | undefined;
  let ran = false;
  for (const line of lines) {
    const head = UNITTEST_HEAD.exec(line);
    if (head) {
      const [, verdict, method, where] = head;
      test = { name: where!.endsWith(`.${method}`) ? where! : `${where}.${method}`, failed: verdict === 'FAIL' };
      current = undefined;
      pythonFrames = [];
      continue;
    }
    const total = UNITTEST_RAN.exec(line) ?? (ran ? UNITTEST_VERDICT.exec(line) : null);
    if (total) {
      ran = true;
      result.counts.push(total[1]!);
      continue;
    }
    const pyFrame = PY_FRAME.exec(line);
    if (pyFrame) {
      pythonFrames.push(`${pyFrame[1]}:${pyFrame[2]}`);
      continue;
    }
    const cause = CAUSE.exec(line);
    if (cause) {
      current = { severity: 'error', code: cause[2] ?? cause[1]!, message: squash(cause[3] ?? '') };
      result.problems.push(current);
      pythonFrames = [];
      continue;
    }
    const js = JS_ERROR.exec(line.trim());
    const java = js ? null : JAVA_HEAD.exec(line);
    const py = js || java || /^\s/.test(line) ? null : PY_ERROR.exec(line);
    if (js || java || (py && pythonFrames.length > 0)) {
      const [name, code, message] = js
        ? [js[1]!, js[2], js[3]!]
        : java
          ? [java[1]!, undefined, java[2] ?? '']
          : [py![1]!, undefined, py![2] ?? ''];
      current = { severity: 'error', code: code ?? name, message: squash(message) };
      if (test && !java) {
        current.test = test.name;
        if (test.failed) current.severity = 'failure';
        test = undefined;
      }
      const innermost = pythonFrames[pythonFrames.length - 1];
      if (innermost !== undefined) current.location = innermost;
      for (let index = pythonFrames.length - 2; index >= 0; index--)
        if (!FOREIGN_FRAME.test(pythonFrames[index]!)) addCaller(current, pythonFrames[index]!);
      result.problems.push(current);
      pythonFrames = [];
      continue;
    }
    if (!current) continue;
    const jsFrame = JS_FRAME.exec(line);
    const javaFrame = jsFrame ? null : JAVA_FRAME.exec(line);
    const frame = jsFrame ? jsFrame[1]! : javaFrame && !JAVA_PLATFORM.test(javaFrame[1]!) ? javaFrame[2]! : undefined;
    if (frame === undefined || FOREIGN_FRAME.test(frame)) continue;
    const place = cleanLocation(frame);
    if (!current.location) current.location = place;
    else addCaller(current, place);
  }
  return result;
}

/** A log level with nothing after it: `[ERROR]`, `error:`. */
const LEVEL_ALONE = /^\[?(error|warn(ing)?|fatal)\]?:?$/i;

/** Error-looking lines first, then the head and the tail: for outputs no parser recognises. @internal */
export function parseUnknown(lines: readonly string[]): ParserResult {
  const result = emptyResult();
  const nonEmpty: string[] = [];
  const ranked: { line: string; rank: number; index: number }[] = [];
  for (const line of lines) {
    if (!line.trim()) continue;
    const rank = lineRank(line);
    // A level alone (`[ERROR]`, maven's spacer line) says nothing.
    if (rank >= 4 && !LEVEL_ALONE.test(line.trim()))
      ranked.push({ line: clipLine(line.trim(), 600), rank, index: nonEmpty.length });
    nonEmpty.push(line);
  }
  ranked.sort((left, right) => right.rank - left.rank || left.index - right.index);
  const seen = new Set<string>();
  for (const entry of ranked) {
    if (seen.has(entry.line) || seen.size >= 20) continue;
    seen.add(entry.line);
    result.problems.push({ severity: 'error', message: entry.line });
  }
  const head = nonEmpty.slice(0, 3);
  const tail = nonEmpty.length > 3 ? nonEmpty.slice(Math.max(3, nonEmpty.length - 3)) : [];
  const note = (line: string) => {
    if (LEVEL_ALONE.test(line.trim())) return;
    const clipped = clipLine(line.trim(), 600);
    if (!seen.has(clipped)) result.notes.push(clipped);
  };
  for (const line of head) note(line);
  if (nonEmpty.length > 6) result.notes.push('…');
  for (const line of tail) note(line);
  if (result.notes[result.notes.length - 1] === '…') result.notes.pop();
  return result;
}
