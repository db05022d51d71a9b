import type { AssistantMessage, StopReason, Usage } from '../types.js';
import type { OpenAIChatCompletion } from './chat-types.js';
import { fromOpenAIChat } from './from-openai-chat.js';
import { fromOpenAIUsage } from './from-openai-usage.js';
import { describe, expectArray, expectObject, invalid, isObject, type WireObject } from './internal/wire-object.js';

const WHERE = 'fromOpenAIChatCompletion';

/**
 * Options of {@link fromOpenAIChatCompletion} and {@link fromOpenAIResponse}.
 *
 * @example
 * ```ts
 * fromOpenAIChatCompletion(completion, { provider: 'openrouter' });
 * ```
 */
export interface FromOpenAIResponseOptions {
  /**
   * The provider name recorded on the message (for an OpenAI-compatible server).
   * @default 'openai'
   */
  provider?: string;
}

/**
 * The assistant turn of one OpenAI response in ctxkit's terms.
 *
 * @example
 * ```ts
 * const { message, usage, stopReason }: OpenAIResponseResult = fromOpenAIChatCompletion(completion);
 * ```
 */
export interface OpenAIResponseResult {
  /** The assistant message, with `usage`, `stopReason`, `provider` and `model` set: append it to the history. */
  message: AssistantMessage;
  /** The usage mapped by {@link fromOpenAIUsage}; `undefined` when the response has none. */
  usage: Usage | undefined;
  stopReason: StopReason;
  provider: string;
  model: string;
  /** One sentence per lossy spot; empty when none. */
  warnings: string[];
}

/**
 * Maps a Chat Completions finish reason to ctxkit's stop reason: `stop` → `stop`, `length` → `length`,
 * `tool_calls` and `function_call` → `toolUse`, `content_filter` → `error` (the output was cut by
 * the provider's filter, so the turn is not sent back), anything else → `stop`.
 */
function stopReasonOf(reason: unknown): { stopReason: StopReason; errorMessage?: string } {
  switch (reason) {
    case 'length':
      return { stopReason: 'length' };
    case 'tool_calls':
    case 'function_call':
      return { stopReason: 'toolUse' };
    case 'content_filter':
      return { stopReason: 'error', errorMessage: 'The response was stopped by the content filter.' };
    default:
      return { stopReason: 'stop' };
  }
}

/**
 * Converts a Chat Completions response (the `openai` SDK's `ChatCompletion`) into the assistant message
 * to append to the history, with its usage, stop reason, provider and model.
 *
 * The message is the one {@link fromOpenAIChat} makes of the choice's message as a request would
 * carry it: `annotations` are kept in `providerData` but not sent back, the audio is referred to by
 * its id, and a `refusal: null` is dropped. Usage follows {@link fromOpenAIUsage}: `input` is
 * `prompt_tokens - cached_tokens`, `cacheRead` is `cached_tokens`. Finish reasons: `length` →
 * `length`, `tool_calls` → `toolUse`, `content_filter` → `error` (never sent back), else `stop`.
 *
 * @param completion - The response; its first choice is used.
 * @param options - The provider name to record.
 * @returns The message, usage, stop reason, provider, model and warnings.
 * @throws `ContextError` with code `INPUT_INVALID` when the response has no choice or its message
 * is malformed (the field is named).
 *
 * @example
 * ```ts
 * const completion = await client.chat.completions.create({ model, messages: toOpenAIChat({ systemPrompt, messages: prepared }).messages });
 * const { message } = fromOpenAIChatCompletion(completion);
 * history.push(message);
 * ```
 */
export function fromOpenAIChatCompletion(
  completion: OpenAIChatCompletion,
  options: FromOpenAIResponseOptions = {},
): OpenAIResponseResult {
  const response = expectObject(completion, WHERE, 'completion');
  const choices = expectArray(response.choices, WHERE, 'completion.choices');
  if (choices.length === 0) throw invalid(WHERE, 'completion.choices', 'is empty; there is no message to convert.');
  const choice = expectObject(choices[0], WHERE, 'completion.choices[0]');
  const { annotations, audio, refusal, ...wire } = expectObject(choice.message, WHERE, 'completion.choices[0].message');
  if (wire.role !== 'assistant') {
    throw invalid(WHERE, 'completion.choices[0].message.role', `must be 'assistant', received ${describe(wire.role)}.`);
  }
  const param: WireObject = { ...wire, ...(refusal == null ? {} : { refusal }) };
  const warnings: string[] = [];
  if (isObject(audio)) {
    param.audio = { id: audio.id };
    warnings.push(
      'completion.choices[0].message.audio is referred to by its id; its data and transcript are not kept.',
    );
  }
  const converted = fromOpenAIChat([param as never]);
  warnings.push(
    ...converted.warnings.map((warning) => warning.replace('messages[0]', 'completion.choices[0].message')),
  );
  const message = converted.messages[0] as AssistantMessage;
  if (Array.isArray(annotations) && annotations.length > 0) {
    const openai = (message.providerData?.openai ?? {}) as { chat?: WireObject };
    message.providerData = { ...message.providerData, openai: { ...openai, chat: { ...openai.chat, annotations } } };
  }
  const usage =
    response.usage === undefined || response.usage === null ? undefined : fromOpenAIUsage(response.usage as never);
  const { stopReason, errorMessage } = stopReasonOf(choice.finish_reason);
  const provider = options.provider ?? 'openai';
  const model = typeof response.model === 'string' ? response.model : '';
  Object.assign(message, {
    ...(usage ? { usage } : {}),
    stopReason,
    ...(errorMessage ? { errorMessage } : {}),
    provider,
    model,
  });
  return { message, usage, stopReason, provider, model, warnings };
}
