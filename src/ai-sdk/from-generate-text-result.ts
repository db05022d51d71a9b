import { expectObject, invalid } from '../internal/wire-object.js';
import type { Message } from '../types.js';
import { buildResponseResult } from './internal/build-response-result.js';
import { readMessages } from './internal/read-messages.js';
import type { AISDKResponseResult, GenerateTextResultLike } from './result-types.js';

/**
 * Converts a `generateText` result: `messages` are all its response messages (every step's
 * assistant message and tool results, converted exactly from `result.responseMessages` under `ai` 7,
 * `result.response.messages` under `ai` 6) to append
 * to the history; `message` is the last assistant message, with the last step's usage (the size of
 * the last request, which is what the context now holds) and the final stop reason.
 *
 * @param result - The result of `generateText`.
 * @returns The messages to append, the last assistant message and its metadata.
 *
 * @example
 * ```ts
 * const result = await generateText({ model, tools, messages: toModelMessages({ messages: prepared.messages }).messages });
 * const { messages, usage } = fromGenerateTextResult(result);
 * manager.recordUsage(usage);
 * history.push(...messages);
 * ```
 */
export function fromGenerateTextResult(result: GenerateTextResultLike): AISDKResponseResult & { messages: Message[] } {
  // `ai` 7 keeps every step's messages in `responseMessages` (its `response.messages` holds the last
  // step's) and sums the steps' usage in `usage`: the context is the last step's request.
  const where = 'fromGenerateTextResult';
  expectObject(expectObject(result, where, 'result')['response'], where, 'result.response');
  if (!Array.isArray(result.steps)) invalid(where, 'result.steps', 'must be an array of step results');
  const newest: unknown = result.steps[result.steps.length - 1];
  if (newest !== undefined) expectObject(newest, where, `result.steps[${result.steps.length - 1}]`);
  const read = readMessages(result.responseMessages ?? result.response.messages, 'fromGenerateTextResult');
  const lastStep = result.steps[result.steps.length - 1];
  const response = buildResponseResult(read.messages, {
    usage: lastStep?.usage ?? result.usage,
    finishReason: result.finishReason,
    provider: lastStep?.model?.provider ?? 'ai-sdk',
    model: lastStep?.model?.modelId ?? result.response.modelId,
  });
  // The last assistant message of the list carries the metadata too.
  const index = read.messages.lastIndexOf(
    read.messages.filter((message) => message.role === 'assistant').pop() as Message,
  );
  const messages =
    index < 0 ? read.messages : read.messages.map((message, at) => (at === index ? response.message : message));
  return { ...response, messages };
}
