import { archiveToolResult, createDigestMessage } from '../../messages/ctxkit-messages.js';
import type { Message, ToolResultMessage } from '../../types.js';
import { clipText } from './clip-text.js';

const IMPORTANT_LINE = /error|fail|panic|exception|traceback|exit code|exited with|✗|not found|denied/i;

/** One line per archived result: the tool, whether it failed, and its most telling line. */
function digestLine(result: ToolResultMessage): string {
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '[image]')).join('\n');
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const telling = lines.find((line) => IMPORTANT_LINE.test(line)) ?? lines[lines.length - 1] ?? '(no output)';
  const status = result.isError ? ' (error)' : '';
  const count = `${lines.length} line${lines.length === 1 ? '' : 's'}`;
  return `- ${result.toolName}${status}: ${clipText(telling, 200, 'head')} [${count}]`;
}

/**
 * Archives the oldest visible tool results of the kept tail beyond `cutoff`, and appends one
 * `[Compaction tool digest]` message (role `user`, visible to the agent, hidden from the user, kind
 * `tool_summary`) that lists them.
 *
 * @internal
 */
export function compactToolResultsInRecent(
  recent: readonly Message[],
  options: { cutoff: number },
): { messages: Message[]; archivedCount: number } {
  let excess = -options.cutoff;
  for (const message of recent) if (message.role === 'toolResult' && message.meta?.agentVisible !== false) excess++;
  if (excess <= 0) return { messages: [...recent], archivedCount: 0 };
  const messages = [...recent];
  const lines: string[] = [];
  for (let index = 0; index < messages.length && lines.length < excess; index++) {
    const message = messages[index]!;
    if (message.role !== 'toolResult' || message.meta?.agentVisible === false) continue;
    lines.push(digestLine(message));
    messages[index] = archiveToolResult(message);
  }
  const digest = createDigestMessage(lines);
  messages.push(digest);
  return { messages, archivedCount: lines.length };
}
