import type { AssistantMessage, StopReason } from '../types.js';
import type { FromOpenAIResponseOptions, OpenAIResponseResult } from './from-openai-chat-completion.js';
import { fromOpenAIUsage } from './from-openai-usage.js';
import { assistantParts } from './internal/read-responses-items.js';
import { expectArray, expectObject, isObject, type WireObject } from './internal/wire-object.js';
import type { OpenAIResponse } from './responses-types.js';

const WHERE = 'fromOpenAIResponse';

/**
 * Converts a Responses API response (the `openai` SDK's `Response`) into the assistant message to
 * append to the history, with its usage, stop reason, provider and model.
 *
 * Every output item becomes a part of the one assistant message, as {@link fromOpenAIResponses} makes
 * them: `reasoning` → thinking (with `encrypted_content` as its signature, for `store: false`),
 * `message` → text, `function_call` → a tool call, other items carried verbatim. Usage follows
 * {@link fromOpenAIUsage}: `input` is `input_tokens - cached_tokens`, `cacheRead` is `cached_tokens`.
 * Stop reason: `completed` → `toolUse` when there is a function call, else `stop`; `incomplete`
 * because of `max_output_tokens` (or `max_messages`) → `length`, because of the content filter →
 * `error`, because it was `steered` (openai 7) → as if completed; `failed` →
 * `error` (with the error's message); `cancelled` → `aborted`.
 *
 * @param response - The response.
 * @param options - The provider name to record.
 * @returns The message, usage, stop reason, provider, model and warnings.
 * @throws `ContextError` with code `INPUT_INVALID` when `output` is not a list of items.
 *
 * @example
 * ```ts
 * const response = await client.responses.create({ model, input: toOpenAIResponses({ messages: prepared }).items });
 * history.push(fromOpenAIResponse(response).message);
 * ```
 */
export function fromOpenAIResponse(
  response: OpenAIResponse,
  options: FromOpenAIResponseOptions = {},
): OpenAIResponseResult {
  const wire = expectObject(response, WHERE, 'response');
  const output = expectArray(wire.output, WHERE, 'response.output');
  const warnings: string[] = [];
  const content = output.flatMap((item, index) =>
    assistantParts(expectObject(item, WHERE, `response.output[${index}]`), `response.output[${index}]`, warnings),
  );
  const message: AssistantMessage = { role: 'assistant', content };
  const usage = isObject(wire.usage) ? fromOpenAIUsage(wire.usage as never) : undefined;
  const hasToolCall = message.content.some((part) => part.type === 'toolCall');
  const { stopReason, errorMessage } = stopReasonOf(wire, hasToolCall);
  const provider = options.provider ?? 'openai';
  const model = typeof wire.model === 'string' ? wire.model : '';
  Object.assign(message, {
    ...(usage ? { usage } : {}),
    stopReason,
    ...(errorMessage ? { errorMessage } : {}),
    provider,
    model,
  });
  return { message, usage, stopReason, provider, model, warnings };
}

function stopReasonOf(response: WireObject, hasToolCall: boolean): { stopReason: StopReason; errorMessage?: string } {
  switch (response.status) {
    case 'incomplete': {
      const reason = isObject(response.incomplete_details) ? response.incomplete_details.reason : undefined;
      if (reason === 'content_filter') {
        return { stopReason: 'error', errorMessage: 'The response was stopped by the content filter.' };
      }
      // openai 7: a `response.steer` stopped it at a safe output boundary, so what it wrote is whole
      // and goes back to the model like a finished turn (an `aborted` one never would).
      if (reason === 'steered') return { stopReason: hasToolCall ? 'toolUse' : 'stop' };
      // `max_output_tokens`, and openai 7's `max_messages`: a limit cut it short.
      return { stopReason: 'length' };
    }
    case 'failed': {
      const message =
        isObject(response.error) && typeof response.error.message === 'string' ? response.error.message : undefined;
      return { stopReason: 'error', errorMessage: message ?? 'The response failed.' };
    }
    case 'cancelled':
      return { stopReason: 'aborted' };
    default:
      return { stopReason: hasToolCall ? 'toolUse' : 'stop' };
  }
}
