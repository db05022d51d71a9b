import * as v from '../../validation/light-schema.js';
import { option, parseOptions } from '../../validation/parse-options.js';
import { type ParseToolOutputOptions, parseToolOutput } from './parse-tool-output.js';
import { type ExitStatusShown, renderDigest, renderToolOutput } from './render-tool-output.js';

/**
 * Options of {@link summarizeToolOutput}.
 *
 * @example
 * ```ts
 * const options: SummarizeToolOutputOptions = { maxChars: 800, command: 'npm test' };
 * ```
 */
export interface SummarizeToolOutputOptions extends ParseToolOutputOptions {
  /** Code points the digest may take, all lines included. @default 800 */
  maxChars?: number;
}

const summarizeOptionsSchema = /* @__PURE__ */ (() =>
  v.looseObject({ maxChars: option.tokens().optional() }, { error: 'must be an object' }))();

const DEFAULT_MAX_CHARS = 800;

/**
 * Summarizes one tool output within a code-point clip: {@link parseToolOutput}, then
 * {@link renderToolOutput}. The first line always states the exit status (`exitCode` when given, else
 * what the output reports, else `exit status unknown`). A tsc run keeps its error count, every code
 * and every `file:line:col`; a test run keeps its totals, each failing test's name, location and
 * assertion message; a stack trace each error of its cause chain; a grep every match.
 *
 * @param text - The tool's output.
 * @param options - The clip (`maxChars`), and the command that produced the output when known.
 * @returns The digest, at most `maxChars` code points.
 *
 * @example
 * ```ts
 * summarizeToolOutput(tscOutput, { maxChars: 400, command: 'npx tsc --noEmit', exitCode: 2 });
 * // 'tsc (exit 2): 16 errors in 6 files\nsrc/a.ts:12:5 TS2345: Argument of type …'
 * ```
 */
export function summarizeToolOutput(text: string, options: SummarizeToolOutputOptions = {}): string {
  const { maxChars = DEFAULT_MAX_CHARS } = parseOptions('summarizeToolOutput', summarizeOptionsSchema, options ?? {});
  return renderToolOutput(parseToolOutput(text, options ?? {}), maxChars);
}

/**
 * {@link summarizeToolOutput} for ctxkit's own digests of archived results, whose options are built
 * by ctxkit (not checked again): `exit` says whether the first line states the exit status (`never`
 * where the line naming the call already says how it ended, `known` where only a reported status is
 * worth its characters), so no digest spends them on `exit status unknown`.
 *
 * @internal
 */
export function digestToolOutput(
  text: string,
  options: { maxChars: number; command?: string | undefined; exitCode?: number | undefined; exit: ExitStatusShown },
): string {
  const parsed = parseToolOutput(text, {
    ...(options.command === undefined ? {} : { command: options.command }),
    ...(options.exitCode === undefined ? {} : { exitCode: options.exitCode }),
  });
  return renderDigest(parsed, Math.max(0, Math.floor(options.maxChars)), options.exit);
}
