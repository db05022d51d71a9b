import type { Message } from '../types.js';
import type { ChatMessageData, OpenAIChatConversation } from './chat-data.js';
import type { OpenAIChatMessageInput } from './chat-types.js';
import { instructionText } from './internal/instruction-text.js';
import { otherFields, withData } from './internal/provider-data.js';
import {
  assistantMessage,
  instructionMessage,
  instructionParts,
  textParts,
  userMessage,
} from './internal/read-chat-messages.js';
import { describe, expectArray, expectObject, expectString, invalid, type WireObject } from './internal/wire-object.js';

const WHERE = 'fromOpenAIChat';
const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];

/**
 * What {@link fromOpenAIChat} returns: the conversation, and a sentence for each thing ctxkit could
 * not see as the wire said it (the round trip stays exact regardless).
 */
export interface FromOpenAIChatResult extends OpenAIChatConversation {
  /** One sentence per lossy spot, naming the message index and field; empty when none. */
  warnings: string[];
}

/**
 * Converts a Chat Completions message list (an `openai` SDK `ChatCompletionMessageParam[]`) into
 * ctxkit messages and the system prompt.
 *
 * - Leading `system` and `developer` messages become `systemPrompt` (their text joined by a blank
 *   line); one later in the list becomes a user message that is sent back with its own role.
 * - Assistant `tool_calls` become tool calls with parsed arguments; arguments that are not a JSON
 *   object are kept verbatim for the way back (ctxkit sees `{}`) and warned about. `tool` messages
 *   become tool results named after their call.
 * - Base64 `data:` image URLs become image data with its MIME type; other URLs stay URLs.
 * - Whatever ctxkit does not model (names, refusals, audio, files, `detail`, the exact spelling of
 *   content and arguments, unknown future fields) goes to `providerData.openai.chat` on the message
 *   or part, so {@link toOpenAIChat} rebuilds the input exactly: `toOpenAIChat(fromOpenAIChat(x))`
 *   deep-equals `x`.
 *
 * @param messages - The request's messages, as `openai` 6 or 7 types them.
 * @returns The system prompt, the messages and the warnings.
 * @throws `ContextError` with code `INPUT_INVALID` when the input is not a list of Chat
 * Completions messages (the index and field are named).
 *
 * @example
 * ```ts
 * const { systemPrompt, messages } = fromOpenAIChat(history);
 * const { messages: prepared } = await manager.prepare(messages);
 * const request = toOpenAIChat({ systemPrompt, messages: prepared });
 * await client.chat.completions.create({ model, messages: request.messages });
 * ```
 */
export function fromOpenAIChat(messages: readonly OpenAIChatMessageInput[]): FromOpenAIChatResult {
  const list = expectArray(messages, WHERE, 'messages');
  const warnings: string[] = [];
  const output: Message[] = [];
  const toolNames = new Map<string, string>();
  let index = 0;
  const system: WireObject[] = [];
  for (; index < list.length; index++) {
    const message = expectMessage(list[index], index);
    if (message.role !== 'system' && message.role !== 'developer') break;
    system.push(message);
  }
  for (; index < list.length; index++) {
    const message = expectMessage(list[index], index);
    const path = `messages[${index}]`;
    switch (message.role) {
      case 'system':
      case 'developer':
        output.push(instructionMessage(message, path));
        break;
      case 'user':
        output.push(userMessage(message, path, warnings));
        break;
      case 'assistant': {
        const assistant = assistantMessage(message, path, warnings);
        for (const part of assistant.content) if (part.type === 'toolCall') toolNames.set(part.id, part.name);
        output.push(assistant);
        break;
      }
      case 'tool': {
        const toolCallId = expectString(message.tool_call_id, WHERE, `${path}.tool_call_id`);
        const toolName = toolNames.get(toolCallId);
        if (toolName === undefined)
          warnings.push(`${path} answers tool call '${toolCallId}', which no earlier message made.`);
        const { parts, spelledAsParts } = textParts(message.content, `${path}.content`);
        const data: ChatMessageData = {
          fields: otherFields(message, ['role', 'content', 'tool_call_id']),
          content: spelledAsParts ? 'parts' : undefined,
        };
        output.push({
          role: 'toolResult',
          toolCallId,
          toolName: toolName ?? 'unknown',
          content: parts,
          ...withData('chat', data),
        });
        break;
      }
      case 'function': {
        warnings.push(`${path} is a legacy function message; it is kept as a user message and not paired with a call.`);
        const content = message.content;
        if (content !== null && typeof content !== 'string') {
          throw invalid(WHERE, `${path}.content`, `must be a string or null, received ${describe(content)}.`);
        }
        const data: ChatMessageData = {
          role: 'function',
          fields: otherFields(message, ['role', 'content']),
          content: content === null ? 'null' : undefined,
        };
        output.push({ role: 'user', content: content ?? '', ...withData('chat', data) });
        break;
      }
    }
  }
  return { ...systemPrompt(system), messages: output, warnings };
}

function expectMessage(value: unknown, index: number): WireObject & { role: string } {
  const message = expectObject(value, WHERE, `messages[${index}]`, ' Each message needs a role and content.');
  if (typeof message.role !== 'string' || !ROLES.includes(message.role)) {
    throw invalid(
      WHERE,
      `messages[${index}].role`,
      `must be one of ${ROLES.join(', ')}; received ${describe(message.role)}.`,
    );
  }
  return message as WireObject & { role: string };
}

function systemPrompt(system: WireObject[]): Pick<OpenAIChatConversation, 'systemPrompt' | 'providerData'> {
  if (system.length === 0) return {};
  for (const [index, message] of system.entries()) instructionParts(message.content, `messages[${index}].content`);
  const text = system.map((message) => instructionText(message.content)).join('\n\n');
  const [first] = system;
  const plain =
    system.length === 1 &&
    first!.role === 'system' &&
    typeof first!.content === 'string' &&
    first!.content !== '' &&
    Object.keys(first!).length === 2;
  return { systemPrompt: text, ...(plain ? {} : withData('chat', { system })) };
}
