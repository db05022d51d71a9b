import { oneLine } from '../../internal/one-line.js';
import { pairToolResults } from '../../internal/tool-pairing.js';
import { archiveToolResult } from '../../messages/kept-tool-results.js';
import { createDigestMessage } from '../../messages/summary-messages.js';
import { commandOf } from '../../summarizing/anchors/tool-facts.js';
import { describeCall, outcome } from '../../summarizing/heuristic/describe-call.js';
import { contentText } from '../../summarizing/serialize-conversation.js';
import { digestToolOutput } from '../../summarizing/tool-output/summarize-tool-output.js';
import type { Message, ToolCall, ToolResultMessage } from '../../types.js';

/** Code points of one result's digest line: what its parsed output needs, within this clip. */
const DIGEST_LINE_CHARS = 600;

/**
 * One line per archived result: the call (`bash \`npx tsc\``), how it ended, and its parsed output
 * (counts, codes, `file:line` locations, failing tests), its lines joined by ` · `.
 */
function digestLine(result: ToolResultMessage, call: ToolCall | undefined): string {
  const text = contentText(result.content);
  const command = call ? commandOf(call) : undefined;
  const what = call ? describeCall(call) : String(result.toolName);
  const head = `- ${what}: ${outcome(result, text)}`;
  const budget = Math.max(0, DIGEST_LINE_CHARS - [...head].length - 3);
  // The head says how the call ended: the digest spends nothing on its exit status.
  const digest = digestToolOutput(text, { maxChars: budget, command, exit: 'never' })
    .split('\n')
    .map(oneLine)
    .filter((line) => line.length > 0)
    .join(' · ');
  return digest ? `${head} — ${digest}` : head;
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
  const calls = new Map<number, ToolCall>();
  for (const [index, site] of pairToolResults(recent)) {
    const owner = recent[site.message];
    const part = owner?.role === 'assistant' ? owner.content[site.part] : undefined;
    if (part?.type === 'toolCall') calls.set(index, part);
  }
  const messages = [...recent];
  const lines: string[] = [];
  for (let index = 0; index < messages.length && lines.length < excess; index++) {
    const message = messages[index]!;
    if (message.role !== 'toolResult' || message.meta?.agentVisible === false) continue;
    lines.push(digestLine(message, calls.get(index)));
    messages[index] = archiveToolResult(message);
  }
  const digest = createDigestMessage(lines);
  messages.push(digest);
  return { messages, archivedCount: lines.length };
}
