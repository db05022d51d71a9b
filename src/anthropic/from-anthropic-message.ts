import type { AssistantMessage, StopReason, Usage } from '../types.js';
import { expectObject, expectString, invalid } from './blocks.js';
import { readAssistantBlock } from './read-blocks.js';
import type { AnthropicResponse, AnthropicUsage, ConversionWarning } from './types.js';

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

/**
 * Anthropic's usage as ctxkit's {@link Usage}. Anthropic reports `input_tokens` without the cache,
 * so nothing is subtracted: `input = input_tokens`, `cacheRead = cache_read_input_tokens`,
 * `cacheWrite = cache_creation_input_tokens`, `output = output_tokens`, and the prompt the request
 * took is `input + cacheRead + cacheWrite` (`total` adds the output).
 *
 * @param usage - The response's `usage`.
 * @returns The usage with cache reads and writes split out, each token counted once.
 *
 * @example
 * ```ts
 * fromAnthropicUsage({ input_tokens: 12, output_tokens: 80, cache_read_input_tokens: 30_000, cache_creation_input_tokens: 500 });
 * // { input: 12, output: 80, cacheRead: 30000, cacheWrite: 500, total: 30592 }
 * ```
 */
export function fromAnthropicUsage(usage: AnthropicUsage): Usage {
  const count = (value: unknown, field: string): number => {
    if (value === undefined || value === null) return 0;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      invalid('fromAnthropicUsage', `usage.${field}`, 'must be a non-negative number');
    }
    return value;
  };
  const input = count(usage.input_tokens, 'input_tokens');
  const output = count(usage.output_tokens, 'output_tokens');
  const cacheRead = count(usage.cache_read_input_tokens, 'cache_read_input_tokens');
  const cacheWrite = count(usage.cache_creation_input_tokens, 'cache_creation_input_tokens');
  return {
    input,
    output,
    ...(usage.cache_read_input_tokens == null ? {} : { cacheRead }),
    ...(usage.cache_creation_input_tokens == null ? {} : { cacheWrite }),
    total: input + cacheRead + cacheWrite + output,
  };
}

/**
 * Anthropic's `stop_reason` as ctxkit's {@link StopReason}: `end_turn`, `stop_sequence` and
 * `pause_turn` (a server-tool loop to continue by sending the turn back) → `stop`; `max_tokens` and
 * `model_context_window_exceeded` → `length`; `tool_use` → `toolUse`; `refusal` → `error` (the turn
 * is not sent back to the model). The raw value stays in the message's `providerData.anthropic`.
 *
 * @param reason - The response's `stop_reason`.
 * @returns The ctxkit stop reason, `stop` for an unknown or missing one.
 *
 * @example
 * ```ts
 * fromAnthropicStopReason('max_tokens'); // 'length'
 * ```
 */
export function fromAnthropicStopReason(reason: string | null | undefined): StopReason {
  switch (reason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'toolUse';
    case 'refusal':
      return 'error';
    default:
      return 'stop';
  }
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
