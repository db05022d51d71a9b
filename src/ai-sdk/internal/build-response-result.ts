import type { AssistantMessage, Message, ToolResultMessage } from '../../types.js';
import { fromFinishReason } from '../from-finish-reason.js';
import { fromLanguageModelUsage } from '../from-language-model-usage.js';
import type { AISDKResponseResult, GenerateTextUsage } from '../result-types.js';

/**
 * What a result converter returns for the messages of a response: the last assistant message with
 * the usage, stop reason, provider and model set on it, and the tool results.
 *
 * @internal
 */
export function buildResponseResult(
  messages: Message[],
  meta: { usage: GenerateTextUsage; finishReason: string; provider: string; model: string },
): AISDKResponseResult {
  const usage = fromLanguageModelUsage(meta.usage);
  const stopReason = fromFinishReason(meta.finishReason);
  let last: AssistantMessage | undefined;
  for (const message of messages) if (message.role === 'assistant') last = message;
  const message: AssistantMessage = {
    ...(last ?? { role: 'assistant', content: [] }),
    usage,
    stopReason,
    provider: meta.provider,
    model: meta.model,
  };
  const toolResults = messages.filter((entry): entry is ToolResultMessage => entry.role === 'toolResult');
  return { message, toolResults, usage, stopReason, provider: meta.provider, model: meta.model, warnings: [] };
}
