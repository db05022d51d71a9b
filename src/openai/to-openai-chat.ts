import { assertMessages } from '../validation/assert-messages.js';
import type { ChatConversationData, OpenAIChatConversation } from './chat-data.js';
import type { OpenAIChatMessage } from './chat-types.js';
import { instructionText } from './internal/instruction-text.js';
import { readData } from './internal/provider-data.js';
import { expectObject } from './internal/wire-object.js';
import { assistantMessage, toolMessage, userMessage } from './internal/write-chat-messages.js';

const WHERE = 'toOpenAIChat';

/**
 * Options of {@link toOpenAIChat}.
 *
 * @example
 * ```ts
 * toOpenAIChat({ systemPrompt, messages }, { systemRole: 'developer' });
 * ```
 */
export interface ToOpenAIChatOptions {
  /**
   * The role of the message that carries a new or changed `systemPrompt` (the verbatim leading
   * messages are reused while the prompt is unchanged).
   * @default 'system'
   */
  systemRole?: 'system' | 'developer';
}

/**
 * What {@link toOpenAIChat} returns.
 *
 * @example
 * ```ts
 * const { messages, warnings }: ToOpenAIChatResult = toOpenAIChat({ messages: prepared });
 * ```
 */
export interface ToOpenAIChatResult {
  /** The request's `messages`, ready for `client.chat.completions.create`. */
  messages: OpenAIChatMessage[];
  /** One sentence per thing Chat Completions cannot carry (thinking, images in tool results); empty when none. */
  warnings: string[];
}

/**
 * Converts ctxkit messages and a system prompt into a Chat Completions message list (assignable to the
 * `openai` SDK's `ChatCompletionMessageParam[]`), the inverse of {@link fromOpenAIChat}:
 * `toOpenAIChat(fromOpenAIChat(x))` deep-equals `x`.
 *
 * Tool calls get JSON-string arguments (the wire's own text while the arguments are unchanged), tool
 * results become `tool` messages, base64 images become `data:` URLs. What Chat Completions cannot carry
 * is left out with a warning: thinking (the API returns none to send back) and images in tool results
 * (sent as a short text). Send the output of `prepareModelMessages` (or the manager's `prepare`) so
 * every tool call is answered by exactly one result right after it.
 *
 * @param conversation - The system prompt and the messages to send.
 * @param options - The role for a new system prompt.
 * @returns The wire messages and the warnings.
 * @throws `ContextError` with code `INPUT_INVALID` when a message does not fit ctxkit's message
 * model (the index and field are named).
 *
 * @example
 * ```ts
 * const { messages } = toOpenAIChat({ systemPrompt: 'Be terse.', messages: prepared });
 * const completion = await client.chat.completions.create({ model: 'gpt-4o', messages });
 * ```
 */
export function toOpenAIChat(
  conversation: OpenAIChatConversation,
  options: ToOpenAIChatOptions = {},
): ToOpenAIChatResult {
  expectObject(conversation, WHERE, 'conversation', ' Pass { systemPrompt?, messages }.');
  assertMessages(conversation.messages, WHERE);
  const warnings: string[] = [];
  const output: OpenAIChatMessage[] = system(conversation, options);
  conversation.messages.forEach((message, index) => {
    const path = `messages[${index}]`;
    switch (message.role) {
      case 'user':
        output.push(userMessage(message, path, warnings));
        return;
      case 'assistant': {
        const wire = assistantMessage(message, path, warnings);
        if (wire) output.push(wire);
        return;
      }
      case 'toolResult':
        output.push(toolMessage(message, path, warnings));
        return;
    }
  });
  return { messages: output, warnings };
}

function system(conversation: OpenAIChatConversation, options: ToOpenAIChatOptions): OpenAIChatMessage[] {
  const { systemPrompt } = conversation;
  if (systemPrompt === undefined) return [];
  const kept = readData<ChatConversationData>(conversation.providerData, 'chat')?.system;
  if (Array.isArray(kept) && kept.map((message) => instructionText(message.content)).join('\n\n') === systemPrompt) {
    return [...kept];
  }
  // An empty system message is rejected, and says nothing.
  return systemPrompt === '' ? [] : [{ role: options.systemRole ?? 'system', content: systemPrompt }];
}
