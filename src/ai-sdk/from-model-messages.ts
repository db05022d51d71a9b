import type { Message, ProviderData } from '../types.js';
import { NAMESPACE } from './internal/provider-data.js';
import { readMessages } from './internal/read-messages.js';
import type { AISDKMessageInput, ConversionWarning } from './message-types.js';

/**
 * What {@link fromModelMessages} returns.
 *
 * @example
 * ```ts
 * const { systemPrompt, messages, warnings } = fromModelMessages(modelMessages);
 * ```
 */
export interface FromModelMessagesResult {
  /** The leading system messages' text, joined by a blank line. */
  systemPrompt?: string;
  /** ctxkit messages: a `tool` message becomes one `toolResult` message per result. */
  messages: Message[];
  warnings: ConversionWarning[];
  /** The system messages themselves, when they carry more than their text; pass it back to `toModelMessages`. */
  providerData?: ProviderData;
}

/**
 * Converts the AI SDK's `ModelMessage[]` (the prompt of `generateText` and `streamText`, or
 * `result.response.messages`) to ctxkit messages.
 *
 * - Leading system messages come out as `systemPrompt`; a later system message becomes a user
 *   message that `toModelMessages` writes back as a system message.
 * - A `tool` message becomes one `toolResult` message per `tool-result` part: `text` and `json`
 *   output as text (`error-text`, `error-json` with `isError`), `content` output as text and images.
 * - `reasoning` becomes thinking; `tool-call` a tool call; images keep base64, URL text, bytes or a
 *   `URL` (bytes travel as base64).
 * - `providerOptions` at every level, `providerExecuted`, and parts ctxkit does not model (files
 *   other than images, approvals, provider-executed tool results, future parts) ride in
 *   `providerData['ai-sdk']`, so `toModelMessages(fromModelMessages(x))` deep-equals `x`.
 *
 * @param messages - `ModelMessage[]`.
 * @returns The system prompt, the messages and warnings.
 * @throws `ContextError` `INPUT_INVALID` naming the index and field of a malformed message.
 *
 * @example
 * ```ts
 * const { messages } = fromModelMessages(result.response.messages);
 * history.push(...messages);
 * ```
 */
export function fromModelMessages(messages: readonly AISDKMessageInput[]): FromModelMessagesResult {
  const read = readMessages(messages, 'fromModelMessages');
  if (read.system.length === 0) return { messages: read.messages, warnings: read.warnings };
  const systemPrompt = read.system.map((message) => message['content'] as string).join('\n\n');
  const plain = read.system.length === 1 && Object.keys(read.system[0]!).length === 2;
  return {
    systemPrompt,
    messages: read.messages,
    warnings: read.warnings,
    ...(plain ? {} : { providerData: { [NAMESPACE]: { system: read.system } } }),
  };
}
