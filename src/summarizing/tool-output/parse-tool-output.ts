import * as v from '../../validation/light-schema.js';
import { parseOptions } from '../../validation/parse-options.js';
import { checkedText } from '../fidelity-arguments.js';
import { detectFormat } from './detect-format.js';
import { splitOutputLines } from './lines.js';
import { parseCargo } from './parse-cargo.js';
import { parseBiome, parseEslint, parseGcc, parseTsc } from './parse-compiler.js';
import { parseNpm, parsePip, parseStackTrace, parseUnknown } from './parse-errors.js';
import { parseNodeSpec, parseNodeTap } from './parse-node-test.js';
import { parseGitDiff, parseGitLog, parseGitStatus, parseGrep } from './parse-search-and-vcs.js';
import { parseGoTest, parsePytest, parseVitestOrJest } from './parse-test-runners.js';
import type { ParsedToolOutput, ToolOutputFormat } from './parsed-tool-output.js';
import type { ParserResult } from './parser-result.js';
import { reportedExitCode } from './reported-exit-code.js';

/**
 * Options of {@link parseToolOutput}.
 *
 * @example
 * ```ts
 * const options: ParseToolOutputOptions = { command: 'npx tsc --noEmit' };
 * ```
 */
export interface ParseToolOutputOptions {
  /** The command that produced the output, when known: it names the tool more surely than the output does. */
  command?: string;
  /** Read the output as this format instead of detecting it. */
  format?: ToolOutputFormat;
  /** The command's exit status, when the host knows it; else it is read from the output's last lines. */
  exitCode?: number;
}

const PARSERS: Record<ToolOutputFormat, (lines: readonly string[]) => ParserResult> = {
  tsc: parseTsc,
  eslint: parseEslint,
  biome: parseBiome,
  'node-test': (lines) =>
    lines.some((line) => /^TAP version|^\s*(not )?ok \d+ - |^# Subtest:/.test(line))
      ? parseNodeTap(lines)
      : parseNodeSpec(lines),
  vitest: parseVitestOrJest,
  jest: parseVitestOrJest,
  pytest: parsePytest,
  'go-test': parseGoTest,
  cargo: parseCargo,
  gcc: parseGcc,
  'git-status': parseGitStatus,
  'git-diff': parseGitDiff,
  'git-log': parseGitLog,
  grep: parseGrep,
  npm: parseNpm,
  pip: parsePip,
  'stack-trace': parseStackTrace,
  unknown: parseUnknown,
};

/** The options of {@link parseToolOutput} as the parsers and {@link summarizeToolOutput} read them; other keys pass. */
const parseToolOutputOptionsSchema = /* @__PURE__ */ (() =>
  v.looseObject(
    {
      command: v.string({ error: 'must be a string' }).optional(),
      format: v.enumOf(Object.keys(PARSERS) as [ToolOutputFormat, ...ToolOutputFormat[]]).optional(),
      exitCode: v
        .number({ error: 'must be a whole number (the exit status)' })
        .int('must be a whole number (the exit status)')
        .optional(),
    },
    { error: 'must be an object: { command?, format?, exitCode? }' },
  ))();

/**
 * Reads a tool's output: which tool it came from (tsc, eslint, biome, node:test in TAP or spec form,
 * vitest, jest, pytest, go test, cargo build/test/clippy, gcc/g++/clang and javac (also under make), git status, git diff, git log, grep/ripgrep, npm,
 * pip, stack traces), the counts it reported, and each error, warning or failing test with its code,
 * `file:line:col` location and message, and how the command exited when the host says (`exitCode`)
 * or the output does. An output no parser recognises keeps its error-looking lines and its head and
 * tail. Pure, deterministic, linear in the output's length; never throws on a string.
 *
 * @param text - The tool's output (terminal colour codes are ignored).
 * @param options - The command that produced it, a format to force, and its exit status when known.
 * @returns The parsed output.
 *
 * @example
 * ```ts
 * const parsed = parseToolOutput("src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.");
 * parsed.format; // 'tsc'
 * parsed.problems[0]; // { severity: 'error', code: 'TS2322', location: 'src/a.ts:3:7', message: "Type 'string' …" }
 * ```
 */
export function parseToolOutput(text: string, options: ParseToolOutputOptions = {}): ParsedToolOutput {
  options = parseOptions('parseToolOutput', parseToolOutputOptionsSchema, options ?? {}) as ParseToolOutputOptions;
  const lines = splitOutputLines(checkedText('parseToolOutput', text, 'text'));
  let lineCount = 0;
  for (const line of lines) if (line) lineCount++;
  const detected = options.format ?? detectFormat(lines, options.command);
  let format = detected;
  let result = PARSERS[detected](lines);
  const empty = (parsed: ParserResult) =>
    parsed.problems.length === 0 && parsed.counts.length === 0 && parsed.notes.length === 0;
  // A format named by the command that finds nothing in the output falls back to the format its lines
  // show (`javac Main.java && java Main` printing a stack trace), else to reading it unguided.
  if (detected !== 'unknown' && empty(result)) {
    const shown =
      options.format === undefined && options.command !== undefined ? detectFormat(lines, undefined) : 'unknown';
    const reread = shown === 'unknown' || shown === detected ? undefined : PARSERS[shown](lines);
    if (reread && !empty(reread)) {
      format = shown;
      result = reread;
    } else {
      format = 'unknown';
      result = parseUnknown(lines);
    }
  }
  const exitCode = options.exitCode ?? reportedExitCode(lines);
  return {
    format,
    lineCount,
    ...(exitCode === undefined ? {} : { exitCode }),
    counts: result.counts,
    problems: result.problems,
    notes: result.notes,
  };
}
