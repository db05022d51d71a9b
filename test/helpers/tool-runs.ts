// One tool call and the result answering it, as the tests that feed real tool output build them.
import type { Message } from 'ctxkit';
import { toolCallMessage, toolResultMessage } from 'ctxkit/testing';
import type { CorpusEntry } from '../../bench/tool-corpus.js';

/** A call of `name` with `args`, answered by `output`. */
export function toolRun(
  id: string,
  name: string,
  args: Record<string, unknown>,
  output: string,
  isError?: boolean,
): Message[] {
  return [toolCallMessage([{ id, name, arguments: args }]), toolResultMessage(id, output, { toolName: name, isError })];
}

/** How a command run ends, as {@link commandRun} writes it. */
export interface CommandRunOptions {
  /**
   * The exit code: other than 0, the output ends `Command exited with code N` (as a coding agent's
   * shell tool reports it) and the result is an error.
   */
  exitCode?: number;
  /** The result is an error (a run whose exit code the output does not state). */
  isError?: boolean;
  /** The tool's name. @default 'bash' */
  name?: string;
}

/** A shell command run through a tool (`{ command }`), answered by its output. */
export function commandRun(id: string, command: string, output: string, options: CommandRunOptions = {}): Message[] {
  const { exitCode, name = 'bash' } = options;
  const failed = exitCode !== undefined && exitCode !== 0;
  return toolRun(
    id,
    name,
    { command },
    failed ? `${output}\n\nCommand exited with code ${exitCode}` : output,
    failed || options.isError,
  );
}

/** A run of the recorded tool corpus (`npm run corpus`): its command, output and exit code. */
export function corpusRun(entry: CorpusEntry, id: string): Message[] {
  return commandRun(id, entry.command, entry.output, { exitCode: entry.exitCode });
}
