/** Parsers for compilers and linters: tsc, eslint, biome, and gcc-style diagnostics (gcc, g++, clang, javac). Internal. */
import { indentOf, relativePath, squash } from './lines.js';
import { emptyResult, type ParserResult } from './parser-result.js';

/** A compiler's result with its error count when the output printed none. */
function countErrors(result: ParserResult): ParserResult {
  if (result.counts.length === 0 && result.problems.length > 0) {
    const errors = result.problems.filter((problem) => problem.severity === 'error').length;
    result.counts.push(`${errors} error${errors === 1 ? '' : 's'}`);
  }
  return result;
}

const TSC_PLAIN = /^(.+?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/;
const TSC_PRETTY = /^(.+?):(\d+):(\d+) - (error|warning) (TS\d+): (.*)$/;
const TSC_GLOBAL = /^(error|warning) (TS\d+): (.*)$/;
const TSC_FOUND = /^Found (\d+ errors?(?: in \d+ files?| in [^\s]+)?)\.?/;

/** `tsc` in its plain (`file(12,5): error TS2345: …`) and pretty (`file:12:5 - error TS2345: …`) forms. @internal */
export function parseTsc(lines: readonly string[]): ParserResult {
  const result = emptyResult();
  let last: ParserResult['problems'][number] | undefined;
  for (const line of lines) {
    const match = TSC_PLAIN.exec(line) ?? TSC_PRETTY.exec(line);
    if (match) {
      last = {
        severity: match[4] === 'warning' ? 'warning' : 'error',
        code: match[5]!,
        location: `${match[1]}:${match[2]}:${match[3]}`,
        message: squash(match[6]!),
      };
      result.problems.push(last);
      continue;
    }
    const global = TSC_GLOBAL.exec(line);
    if (global) {
      last = { severity: global[1] === 'warning' ? 'warning' : 'error', code: global[2]!, message: squash(global[3]!) };
      result.problems.push(last);
      continue;
    }
    const found = TSC_FOUND.exec(line);
    if (found) {
      result.counts.push(found[1]!);
      last = undefined;
      continue;
    }
    // An indented line right under a plain diagnostic continues its message (`Type 'x' is not …`).
    if (last && indentOf(line) >= 2 && !/^\s*\d+\s/.test(line) && !/^\s*~+\s*$/.test(line) && line.trim()) {
      if (last.message.length < 400) last.message = `${last.message} ${squash(line)}`;
    } else if (!line.trim() || !/^\s/.test(line)) last = undefined;
  }
  return countErrors(result);
}

const ESLINT_FILE = /^(?:[A-Za-z]:)?[/\\.\w@~-][^\s:]*\.\w+$/;
const ESLINT_ROW = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.+?)(?:\s{2,}(\S+))?$/;
const ESLINT_COMPACT = /^(.+?): line (\d+), col (\d+), (Error|Warning) - (.+?)(?: \((\S+)\))?$/;
const ESLINT_UNIX = /^(.+?):(\d+):(\d+): (.+?) \[(Error|Warning)\/(\S+)\]$/;
const ESLINT_TOTAL = /^✖ (\d+ problems? \(\d+ errors?, \d+ warnings?\))/;

/** eslint's stylish, compact and unix formats. @internal */
export function parseEslint(lines: readonly string[]): ParserResult {
  const result = emptyResult();
  let file: string | undefined;
  for (const line of lines) {
    const row = ESLINT_ROW.exec(line);
    if (row && file !== undefined) {
      result.problems.push({
        severity: row[3] === 'warning' ? 'warning' : 'error',
        ...(row[5] ? { code: row[5] } : {}),
        location: `${file}:${row[1]}:${row[2]}`,
        message: squash(row[4]!),
      });
      continue;
    }
    const compact = ESLINT_COMPACT.exec(line);
    if (compact) {
      result.problems.push({
        severity: compact[4] === 'Warning' ? 'warning' : 'error',
        ...(compact[6] ? { code: compact[6] } : {}),
        location: `${compact[1]}:${compact[2]}:${compact[3]}`,
        message: squash(compact[5]!),
      });
      continue;
    }
    const unix = ESLINT_UNIX.exec(line);
    if (unix) {
      result.problems.push({
        severity: unix[5] === 'Warning' ? 'warning' : 'error',
        code: unix[6]!,
        location: `${unix[1]}:${unix[2]}:${unix[3]}`,
        message: squash(unix[4]!),
      });
      continue;
    }
    const total = ESLINT_TOTAL.exec(line.trim());
    if (total) result.counts.push(total[1]!);
    else if (ESLINT_FILE.test(line)) file = relativePath(line.trim());
  }
  return result;
}

const BIOME_HEAD = /^(\S+?):(\d+):(\d+)\s+((?:lint|format|parse|assist|organizeImports)[\w/]*)\s*(FIXABLE)?/;
const BIOME_FILE_ONLY = /^(\S+\.\w+)\s+((?:lint|format|parse|assist|organizeImports)[\w/]*)/;
const BIOME_MESSAGE = /^\s+[×✖!ℹ]\s+(.+)$/;
const BIOME_COUNT = /^(?:Found (\d+ (?:errors?|warnings?))|(Checked \d+ files? in [\d.]+\w*))/;

/** biome's `check`, `lint` and `format` output. @internal */
export function parseBiome(lines: readonly string[]): ParserResult {
  const result = emptyResult();
  let pending: ParserResult['problems'][number] | undefined;
  for (const line of lines) {
    const head = BIOME_HEAD.exec(line) ?? BIOME_FILE_ONLY.exec(line);
    if (head) {
      const withLine = head.length > 4 && /^\d+$/.test(head[2] ?? '');
      pending = {
        severity: 'error',
        code: withLine ? head[4]! : head[2]!,
        location: withLine ? `${head[1]}:${head[2]}:${head[3]}` : head[1]!,
        message: '',
      };
      result.problems.push(pending);
      continue;
    }
    const message = BIOME_MESSAGE.exec(line);
    if (message && pending && !pending.message) {
      pending.message = squash(message[1]!);
      if (/^\s+!/.test(line)) pending.severity = 'warning';
      continue;
    }
    const count = BIOME_COUNT.exec(line.trim());
    if (count) result.counts.push((count[1] ?? count[2])!);
  }
  return result;
}

/** `file:line:col: error: message [-Wflag]`; javac leaves out the column; a checker's `[code]` at the end is its code. */
const GCC_DIAGNOSTIC = /^(.+?):(\d+)(?::(\d+))?: (fatal error|error|warning): (.*?)(?: \[([-\w=]+)\])?$/;
/** The line of the user's code a template instantiation came from: `tmpl.cpp:8:12:   required from here`. */
const GCC_REQUIRED_HERE = /^(.+?:\d+:\d+):\s+required from here$/;
/** A new context of diagnostics (`file: In function …`, `In file included from …`): an older `required from here` no longer applies. */
const GCC_CONTEXT =
  /^(?:\S+: In (?:function|member function|instantiation|constructor|destructor|static member)|In file included from)/;
/** javac's explanation under its error: `  symbol:   method missing(int)`, `  location: class Main`. */
const JAVAC_DETAIL = /^\s+(symbol|location|required|found|reason):\s+(.+)$/;
/** The counts compilers print: javac's `2 errors`, a checker's `Found 2 errors in 1 file`. */
const COMPILER_COUNT = /^(?:Found )?(\d+ (?:errors?|warnings?)(?: in \d+ files?)?)\b/;
/** make giving up on a target: `make: *** [Makefile:7: main.o] Error 1`. */
const MAKE_FAILED = /^make(?:\[\d+\])?: \*\*\* /;
/** A header of the system or of the compiler's own library (`/usr/include/c++/12/…`), not where a project's bug is. */
const SYSTEM_HEADER = /^\/(?:usr|opt|Library)\//;

/**
 * gcc, g++ and clang (`file:line:col: error: message [-Wflag]`), alone or under make, and the
 * compilers that share the form (javac's `file:line: error:` with its `symbol:` lines). An
 * error inside a system header that a template instantiation led to is placed where the project's
 * code asked for it (the chain's `required from here`); make's `*** … Error 1` lines are kept. @internal
 */
export function parseGcc(lines: readonly string[]): ParserResult {
  const result = emptyResult();
  let last: ParserResult['problems'][number] | undefined;
  let requiredHere: string | undefined;
  for (const line of lines) {
    const diagnostic = GCC_DIAGNOSTIC.exec(line);
    if (diagnostic) {
      const [, file, row, column, severity, message, code] = diagnostic;
      const place = `${file}:${row}${column ? `:${column}` : ''}`;
      last = {
        severity: severity === 'warning' ? 'warning' : 'error',
        ...(code ? { code } : {}),
        location: SYSTEM_HEADER.test(file!) && requiredHere ? requiredHere : relativePath(place),
        message: squash(message!),
      };
      result.problems.push(last);
      requiredHere = undefined;
      continue;
    }
    const here = GCC_REQUIRED_HERE.exec(line);
    if (here) {
      if (!SYSTEM_HEADER.test(here[1]!)) requiredHere = relativePath(here[1]!);
      continue;
    }
    if (GCC_CONTEXT.test(line)) requiredHere = undefined;
    const detail = JAVAC_DETAIL.exec(line);
    if (detail && last && last.message.length < 400) {
      last.message = `${last.message} (${detail[1]}: ${squash(detail[2]!)})`;
      continue;
    }
    const count = COMPILER_COUNT.exec(line);
    if (count) result.counts.push(count[1]!);
    else if (MAKE_FAILED.test(line)) result.notes.push(squash(line));
    if (!/^\s/.test(line)) last = undefined;
  }
  return countErrors(result);
}
