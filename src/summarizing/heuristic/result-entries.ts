import type { Message, ToolCall } from '../../types.js';
import { commandOf } from '../anchors/tool-facts.js';
import { contentText } from '../serialize-conversation.js';
import { type HighlightLimits, highlightOutput } from '../tool-output-highlights.js';
import { describeCall, outcome } from './describe-call.js';

/** Highlight limits that read only a result's most telling error line. */
const ERROR_ONLY: HighlightLimits = { lines: 0, head: 0, tail: 0, lineChars: 200 };

/**
 * One tool result as the digest sees it.
 *
 * @internal
 */
export interface ResultEntry {
  tool: string;
  what: string;
  outcome: string;
  output: string;
  /** The most telling error line of a result that did not end ok. */
  error: string | undefined;
  /** The shell command the call ran, which names the tool whose output this is. */
  command: string | undefined;
}

/**
 * Each visible tool result with the nearest call before it that has its id, in order.
 *
 * @internal
 */
export function resultEntries(messages: readonly Message[]): ResultEntry[] {
  const calls = new Map<string, ToolCall>();
  const entries: ResultEntry[] = [];
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const part of message.content) if (part.type === 'toolCall') calls.set(part.id, part);
      continue;
    }
    if (message.role !== 'toolResult' || message.meta?.agentVisible === false) continue;
    const output = contentText(message.content);
    const call = calls.get(message.toolCallId);
    const status = outcome(message, output);
    entries.push({
      tool: String(call?.name ?? message.toolName),
      what: call ? describeCall(call) : String(message.toolName),
      outcome: status,
      output,
      error: status === 'ok' ? undefined : highlightOutput(output, ERROR_ONLY).topError,
      command: call ? commandOf(call) : undefined,
    });
  }
  return entries;
}
