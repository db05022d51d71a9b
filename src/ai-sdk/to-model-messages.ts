import type { WireObject } from '../internal/wire-object.js';
import type { Message, ProviderData } from '../types.js';
import { NAMESPACE } from './internal/provider-data.js';
import { writeMessages } from './internal/write-messages.js';
import type { AISDKMessage, ConversionWarning } from './message-types.js';

/**
 * What {@link toModelMessages} converts.
 *
 * @example
 * ```ts
 * const input: ToModelMessagesInput = { messages: prepared.messages };
 * ```
 */
export interface ToModelMessagesInput {
  /** Written as a leading system message; leave it out when you pass `system` to the SDK yourself. */
  systemPrompt?: string | undefined;
  /** The messages to send: the projection `prepare` returns. */
  messages: readonly Message[];
  /** What `fromModelMessages` returned beside the messages. */
  providerData?: ProviderData | undefined;
}

/**
 * Converts ctxkit messages to the AI SDK's `ModelMessage[]`, ready for `generateText({ messages })`.
 * Consecutive tool results share one `tool` message; empty or blank text parts and messages left
 * empty are dropped with a warning (providers reject them), and so is an assistant turn of unsigned
 * thinking only (`@ai-sdk/anthropic` drops unsigned reasoning and would send the turn empty). A
 * thinking part's `signature` is written as `providerOptions.anthropic.signature` (`redactedData`
 * when redacted). An image goes out as a `file` part with its image/* `mediaType` (`ai` 7 deprecates
 * the `image` part; `ai` 6 sends the file part as an image too), unless it was read from the host's
 * own `image` part. Everything `fromModelMessages` carried is restored.
 *
 * @param input - The messages, and optionally the system prompt and what `fromModelMessages` returned.
 * @returns `ModelMessage[]` and warnings.
 * @throws `ContextError` `INPUT_INVALID` naming the index and field of a malformed message.
 *
 * @example
 * ```ts
 * const { messages } = toModelMessages({ messages: (await manager.prepare(history)).messages });
 * const result = await generateText({ model, system, tools, messages });
 * ```
 */
export function toModelMessages(input: ToModelMessagesInput): {
  messages: AISDKMessage[];
  warnings: ConversionWarning[];
} {
  const written = writeMessages(input?.messages, 'model', 'toModelMessages');
  const system = writeSystem(input.systemPrompt, input.providerData);
  return { messages: [...system, ...written.messages] as AISDKMessage[], warnings: written.warnings };
}

function writeSystem(systemPrompt: string | undefined, providerData: ProviderData | undefined): WireObject[] {
  if (systemPrompt === undefined) return [];
  const carried = (providerData?.[NAMESPACE] as { system?: unknown } | undefined)?.system;
  if (
    Array.isArray(carried) &&
    carried.map((message) => (message as WireObject)['content']).join('\n\n') === systemPrompt
  ) {
    return carried as WireObject[];
  }
  return [{ role: 'system', content: systemPrompt }];
}
