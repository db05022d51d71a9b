import { isAgentVisible } from '../token-counter.js';
import type { AssistantMessage, Message, ToolCall, ToolResultMessage } from '../types.js';

/** The content sent in place of a tool result that was archived (hidden) after summarization. */
export const ARCHIVED_RESULT_PLACEHOLDER =
  '[Tool result archived: its output was summarized earlier in the conversation]';

/** The content of the error result ctxkit adds for a tool call that has none. */
export const MISSING_RESULT_TEXT = '[No result: this tool call did not complete, so no output is available]';

const placeholders = new WeakMap<ToolResultMessage, ToolResultMessage>();
const synthetic = new WeakMap<AssistantMessage, Map<string, ToolResultMessage>>();

function placeholderFor(result: ToolResultMessage): ToolResultMessage {
  let placeholder = placeholders.get(result);
  if (placeholder === undefined) {
    placeholder = {
      role: 'toolResult',
      toolCallId: result.toolCallId,
      toolName: result.toolName,
      content: [{ type: 'text', text: ARCHIVED_RESULT_PLACEHOLDER }],
      ...(result.isError === undefined ? {} : { isError: result.isError }),
      meta: { ...result.meta, agentVisible: true, kind: 'tool_result_archived' },
    };
    placeholders.set(result, placeholder);
  }
  return placeholder;
}

function missingResultFor(assistant: AssistantMessage, call: ToolCall): ToolResultMessage {
  let perMessage = synthetic.get(assistant);
  if (perMessage === undefined) {
    perMessage = new Map();
    synthetic.set(assistant, perMessage);
  }
  let result = perMessage.get(call.id);
  if (result === undefined) {
    result = {
      role: 'toolResult',
      toolCallId: call.id,
      toolName: call.name,
      content: [{ type: 'text', text: MISSING_RESULT_TEXT }],
      isError: true,
      meta: { kind: 'tool_result', userVisible: false },
    };
    perMessage.set(call.id, result);
  }
  return result;
}

function isSendableAssistant(message: AssistantMessage): boolean {
  return isAgentVisible(message) && message.stopReason !== 'aborted' && message.stopReason !== 'error';
}

/**
 * The projection a provider receives, repaired so the request is never rejected:
 * - messages with `agentVisible: false` are dropped, except that a hidden (archived) tool result
 *   whose call is sent goes out with a short placeholder, so the call stays paired;
 * - aborted or errored assistant turns are dropped (and with them their tool calls);
 * - every tool call is followed, right after its assistant message and in call order, by exactly
 *   one result: a result found later in the list is moved up, and a call with none gets a synthetic
 *   error result;
 * - results whose call is missing, and second results for the same call, are dropped.
 *
 * Messages that need no change are returned as the same objects, and the placeholders and synthetic
 * results are memoized per source message, so repeated calls stay cheap and token counts stay cached.
 *
 * @param messages - The conversation as stored.
 * @returns A new array, safe to send.
 *
 * @example
 * ```ts
 * const response = await client.chat({ messages: toProvider(prepareModelMessages(messages)) });
 * ```
 */
export function prepareModelMessages(messages: readonly Message[]): Message[] {
  const resultIndexes = new Map<string, number[]>();
  messages.forEach((message, index) => {
    if (message.role !== 'toolResult') return;
    const list = resultIndexes.get(message.toolCallId);
    if (list === undefined) resultIndexes.set(message.toolCallId, [index]);
    else list.push(index);
  });
  const used = new Set<number>();
  const output: Message[] = [];
  messages.forEach((message, index) => {
    switch (message.role) {
      case 'user':
        if (isAgentVisible(message)) output.push(message);
        return;
      case 'toolResult':
        return; // emitted right after its call, or dropped as an orphan or duplicate
      case 'assistant': {
        if (!isSendableAssistant(message)) return;
        output.push(message);
        for (const part of message.content) {
          if (part.type !== 'toolCall') continue;
          const resultIndex = takeResultAfter(resultIndexes.get(part.id), index, used);
          if (resultIndex === undefined) {
            output.push(missingResultFor(message, part));
            continue;
          }
          const result = messages[resultIndex] as ToolResultMessage;
          output.push(isAgentVisible(result) ? result : placeholderFor(result));
        }
        return;
      }
    }
  });
  return output;
}

function takeResultAfter(indexes: number[] | undefined, after: number, used: Set<number>): number | undefined {
  if (indexes === undefined) return undefined;
  for (const index of indexes) {
    if (index > after && !used.has(index)) {
      used.add(index);
      return index;
    }
  }
  return undefined;
}
