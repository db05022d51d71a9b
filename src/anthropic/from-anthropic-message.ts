import type { AssistantMessage, StopReason, Usage } from '../types.js';
import { fromAnthropicStopReason } from './from-anthropic-stop-reason.js';
import { fromAnthropicUsage } from './from-anthropic-usage.js';
import { readAssistantBlock } from './internal/read-blocks.js';
import { expectObject, expectString, invalid } from './internal/wire-object.js';
import type { AnthropicResponse, ConversionWarning } from './types.js';

/**
 * What {@link fromAnthropicMessage} returns: the assistant message to append to the history, and its
 * usage, stop reason, provider and model (also set on the message).
 *
 * @example
 * ```ts
 * const { message, usage } = fromAnthropicMessage(response);
 * manager.recordUsage(usage);
 * history.push(message);
 * ```
 */
export interface AnthropicResponseResult {
  message: AssistantMessage;
  usage: Usage;
  stopReason: StopReason;
  provider: string;
  model: string;
  warnings: ConversionWarning[];
}

/**
 * Options of {@link fromAnthropicMessage}.
 *
 * @example
 * ```ts
 * const options: FromAnthropicMessageOptions = { provider: 'bedrock' };
 * ```
 */
export interface FromAnthropicMessageOptions {
  /** The provider name set on the message. @default 'anthropic' */
  provider?: string;
}

const KNOWN_STOP_REASONS = new Set([
  'end_turn',
  'stop_sequence',
  'pause_turn',
  'max_tokens',
  'model_context_window_exceeded',
  'tool_use',
  'refusal',
]);

/**
 * Converts a Messages API response (`client.messages.create(...)` or a stream's `finalMessage()`) to
 * the assistant message to append to the history, with usage, stop reason, provider and model.
 *
 * @param response - The response.
 * @param options - The provider name to record.
 * @returns The message and its metadata; `warnings` names an unknown stop reason.
 * @throws `ContextError` `INPUT_INVALID` naming the field of a malformed response.
 *
 * @example
 * ```ts
 * const response = await client.messages.create({ model, max_tokens: 4096, system, messages });
 * const { message, usage } = fromAnthropicMessage(response);
 * manager.recordUsage(usage);
 * history.push(message);
 * ```
 */
export function fromAnthropicMessage(
  response: AnthropicResponse,
  options: FromAnthropicMessageOptions = {},
): AnthropicResponseResult {
  const where = 'fromAnthropicMessage';
  const object = expectObject(response, where, 'response');
  const model = expectString(object, 'model', where, 'response');
  if (!Array.isArray(object['content'])) invalid(where, 'response.content', 'must be an array of content blocks');
  expectObject(object['usage'], where, 'response.usage');
  const warnings: ConversionWarning[] = [];
  const raw = response.stop_reason;
  if (raw !== null && raw !== undefined && !KNOWN_STOP_REASONS.has(raw)) {
    warnings.push({ index: 0, message: `unknown stop_reason ${JSON.stringify(raw)}, recorded as 'stop'` });
  }
  const content = response.content.map((block, index) =>
    readAssistantBlock(block, { where, path: `response.content[${index}]` }),
  );
  const usage = fromAnthropicUsage(response.usage);
  const stopReason = fromAnthropicStopReason(raw);
  const provider = options.provider ?? 'anthropic';
  const message: AssistantMessage = {
    role: 'assistant',
    content,
    usage,
    stopReason,
    ...(raw === 'refusal' ? { errorMessage: 'The model declined to answer (stop_reason: refusal).' } : {}),
    provider,
    model,
    providerData: {
      anthropic: {
        ...(response.id === undefined ? {} : { id: response.id }),
        stop_reason: raw ?? null,
        ...(response.stop_sequence == null ? {} : { stop_sequence: response.stop_sequence }),
      },
    },
  };
  return { message, usage, stopReason, provider, model, warnings };
}
