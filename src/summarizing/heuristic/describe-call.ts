// How the heuristic summarizer names a tool call and its outcome (bash `npm test` → failed (exit code 1));
// the compaction's tool digest writes them the same way. Internal.
import { clipText } from '../../internal/clip-text.js';
import { oneLine } from '../../internal/one-line.js';
import type { ToolCall, ToolResultMessage } from '../../types.js';
import { argumentsText } from '../serialize-conversation.js';
import { splitOutputLines } from '../tool-output/lines.js';
import { parseToolOutput } from '../tool-output/parse-tool-output.js';
import { reportedExitCode } from '../tool-output/reported-exit-code.js';
import { reportsFailure } from '../tool-output/reports-failure.js';

const ARGUMENT_KEYS = ['command', 'cmd', 'path', 'file_path', 'filePath', 'file', 'pattern', 'query', 'url', 'name'];

/** A tool call in a few words: the tool and its main argument (`bash npm test`). @internal */
export function describeCall(call: ToolCall): string {
  const args = typeof call.arguments === 'object' && call.arguments !== null ? call.arguments : {};
  for (const key of ARGUMENT_KEYS) {
    const value = (args as Record<string, unknown>)[key];
    if (typeof value === 'string' && value.trim()) return `${call.name} \`${clipText(oneLine(value), 160, 'head')}\``;
  }
  const json = argumentsText(call);
  return json === '{}' ? String(call.name) : `${call.name} ${clipText(oneLine(json), 160, 'head')}`;
}

/** The exit code the host or the shell reported on the output's first or last lines, if any. @internal */
function exitCode(text: string): string | undefined {
  const code = reportedExitCode(splitOutputLines(text));
  return code === undefined ? undefined : String(code);
}

/**
 * `ok`, `error` or `failed (exit code N)` for one tool result; `failed` too when the host said nothing
 * of how it ended and the output reports errors of a tool that fails on them (g++, a test runner).
 * @internal
 */
export function outcome(result: ToolResultMessage | undefined, text: string): string {
  if (result === undefined) return 'no result';
  const code = exitCode(text);
  const status = result.isError
    ? 'error'
    : (code !== undefined && code !== '0') || (code === undefined && reportsFailure(parseToolOutput(text)))
      ? 'failed'
      : 'ok';
  return code === undefined ? status : `${status} (exit code ${code})`;
}
