/**
 * What a tool-output parser reads out of a command's output: the tool it recognised, the counts it
 * reported, and each problem with its code, location and message.
 */

/**
 * The outputs ctxkit recognises; `unknown` falls back to head and tail with error-looking lines first.
 *
 * @example
 * ```ts
 * const format: ToolOutputFormat = parseToolOutput(output).format; // 'tsc'
 * ```
 */
export type ToolOutputFormat =
  | 'tsc'
  | 'eslint'
  | 'biome'
  | 'node-test'
  | 'vitest'
  | 'jest'
  | 'pytest'
  | 'go-test'
  | 'cargo'
  | 'gcc'
  | 'git-status'
  | 'git-diff'
  | 'git-log'
  | 'grep'
  | 'npm'
  | 'pip'
  | 'stack-trace'
  | 'unknown';

/**
 * One error, warning or failing test read out of a tool's output.
 *
 * @example
 * ```ts
 * const problem: ToolOutputProblem = {
 *   severity: 'error',
 *   code: 'TS2345',
 *   location: 'src/a.ts:12:5',
 *   message: "Argument of type 'string' is not assignable to parameter of type 'number'.",
 * };
 * ```
 */
export interface ToolOutputProblem {
  /** `error` and `warning` for diagnostics, `failure` for a failing test. */
  severity: 'error' | 'warning' | 'failure';
  /** The diagnostic's code or rule (`TS2345`, `no-unused-vars`, `E0308`, `ERR_ASSERTION`), if any. */
  code?: string;
  /** Where: `file:line:col`, `file:line` or a file. */
  location?: string;
  /**
   * For an error of a stack trace, the project's own frames that called `location`, innermost first
   * (`Main.java:9`, `app/main.py:5`; the runtime's and dependencies' frames left out; at most four).
   */
  callers?: string[];
  /** The failing test's full name, for failures. */
  test?: string;
  /** What went wrong, on one line (empty when the output gave no message). */
  message: string;
}

/**
 * A tool output as ctxkit reads it.
 *
 * @example
 * ```ts
 * const parsed: ParsedToolOutput = parseToolOutput(output, { command: 'npx tsc --noEmit' });
 * console.log(parsed.counts); // ['16 errors in 6 files']
 * ```
 */
export interface ParsedToolOutput {
  /** The tool the output came from. */
  format: ToolOutputFormat;
  /** Non-empty lines in the output. */
  lineCount: number;
  /**
   * How the command exited: the `exitCode` option when given, else what the output reports (its
   * last mention: `Exit code: 1`, `Process exited with code 2`, cargo's `(exit status: 101)`); absent when
   * neither says.
   */
  exitCode?: number;
  /** The counts the tool reported (`# fail 10`, `2 failed, 10 passed`), as short phrases. */
  counts: string[];
  /** Errors, warnings and failing tests, in the order the output gave them. */
  problems: ToolOutputProblem[];
  /** Other lines worth keeping (a git branch, changed files, the head and tail of an unknown output). */
  notes: string[];
}
