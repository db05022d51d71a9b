/** Whether a run's output says the run failed, when its host did not say how it ended. Internal. */
import type { ParsedToolOutput, ToolOutputFormat } from './parsed-tool-output.js';

/**
 * Outputs whose diagnostics are facts even when the command exited 0 (a linter's warnings are not),
 * and whose errors or failing tests mean the run failed: compilers, test runners and package
 * managers exit non-zero then, and a printed traceback is an error that happened.
 *
 * @internal
 */
export const DIAGNOSTIC_FORMATS: ReadonlySet<ToolOutputFormat> = /* @__PURE__ */ new Set<ToolOutputFormat>([
  'tsc',
  'eslint',
  'biome',
  'node-test',
  'vitest',
  'jest',
  'pytest',
  'go-test',
  'cargo',
  'gcc',
  'npm',
  'pip',
  'stack-trace',
]);

/**
 * Whether a parsed output reports a failed run: an error or a failing test in the output of a tool
 * that exits non-zero on them (tsc, a test runner, gcc, npm, a traceback). An unknown output, a
 * linter's warnings or a grep's matches say nothing of how the run ended.
 *
 * @internal
 */
export function reportsFailure(parsed: ParsedToolOutput): boolean {
  return (
    DIAGNOSTIC_FORMATS.has(parsed.format) &&
    parsed.problems.some((problem) => problem.severity === 'error' || problem.severity === 'failure')
  );
}
