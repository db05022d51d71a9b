import { expectObject } from '../internal/wire-object.js';
import type { Message } from '../types.js';
import { fromGenerateTextResult } from './from-generate-text-result.js';
import type { AISDKResponseResult, StreamTextResultLike } from './result-types.js';

/**
 * {@link fromGenerateTextResult} for a `streamText` result, once the stream has finished.
 *
 * @param result - The result of `streamText`.
 * @returns The same as {@link fromGenerateTextResult}.
 *
 * @example
 * ```ts
 * const stream = streamText({ model, messages: history });
 * for await (const text of stream.textStream) process.stdout.write(text);
 * const { messages, usage } = await fromStreamTextResult(stream);
 * ```
 */
export async function fromStreamTextResult(
  result: StreamTextResultLike,
): Promise<AISDKResponseResult & { messages: Message[] }> {
  expectObject(result, 'fromStreamTextResult', 'result');
  const [steps, finishReason, usage, response, responseMessages] = await Promise.all([
    result.steps,
    result.finishReason,
    result.usage,
    result.response,
    result.responseMessages,
  ]);
  return fromGenerateTextResult({
    steps,
    finishReason,
    usage,
    response,
    ...(responseMessages === undefined ? {} : { responseMessages }),
  });
}
