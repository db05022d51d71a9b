import type { AssistantMessage, Message, StopReason, ToolResultMessage, Usage } from '../types.js';
import { invalid, type WireObject } from './data.js';
import { readMessages } from './read-messages.js';
import type { AISDKMessageInput, ConversionWarning, GenerateTextUsage, ProviderUsage } from './types.js';

/**
 * What the result converters return: the assistant message to append to the history (with usage,
 * stop reason, provider and model set on it), the tool results of the same step, and the metadata.
 *
 * @example
 * ```ts
 * const { message, toolResults, usage } = fromStepResult(step);
 * ```
 */
export interface AISDKResponseResult {
  message: AssistantMessage;
  /** The results of the tools the SDK ran in this step (or, for a whole result, in every step). */
  toolResults: ToolResultMessage[];
  usage: Usage;
  stopReason: StopReason;
  provider: string;
  model: string;
  warnings: ConversionWarning[];
}

/**
 * The part of a `generateText` step result (`StepResult`, or `onStepFinish`'s argument) the converters read.
 *
 * @example
 * ```ts
 * const step: StepResultLike = result.steps[0];
 * ```
 */
export interface StepResultLike {
  readonly content: readonly { readonly type: string }[];
  readonly finishReason: string;
  readonly usage: GenerateTextUsage;
  readonly model?: { readonly provider: string; readonly modelId: string };
  readonly response: { readonly modelId: string };
}

/**
 * The part of a `generateText` result the converters read.
 *
 * @example
 * ```ts
 * const result: GenerateTextResultLike = await generateText({ model, messages });
 * ```
 */
export interface GenerateTextResultLike {
  readonly steps: readonly StepResultLike[];
  readonly finishReason: string;
  /** The usage of the last step: the size of the last request, which is what the context holds. */
  readonly usage: GenerateTextUsage;
  readonly response: { readonly modelId: string; readonly messages: readonly AISDKMessageInput[] };
}

/**
 * The part of a `streamText` result the converters read (its fields are promises).
 *
 * @example
 * ```ts
 * const result: StreamTextResultLike = streamText({ model, messages });
 * ```
 */
export interface StreamTextResultLike {
  readonly steps: PromiseLike<readonly StepResultLike[]>;
  readonly finishReason: PromiseLike<string>;
  readonly usage: PromiseLike<GenerateTextUsage>;
  readonly response: PromiseLike<{ readonly modelId: string; readonly messages: readonly AISDKMessageInput[] }>;
}

function count(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    invalid('fromLanguageModelUsage', `usage.${field}`, 'must be a non-negative number');
  }
  return value;
}

/**
 * The AI SDK's usage as ctxkit's {@link Usage}, counting each token once. Both the SDK's
 * `inputTokens` (of `generateText`) and a provider's `inputTokens.total` (seen by a middleware)
 * include cached tokens, so the cache is subtracted once: `input = noCacheTokens` when the provider
 * reports it, else `inputTokens − cacheRead − cacheWrite`, where `cacheRead` is
 * `inputTokenDetails.cacheReadTokens` (or the deprecated `cachedInputTokens` when there are no
 * details, never both) and `cacheWrite` is `inputTokenDetails.cacheWriteTokens`. The prompt is then
 * `input + cacheRead + cacheWrite`, equal to the SDK's `inputTokens`.
 *
 * @param usage - `result.usage`, `step.usage`, or a provider's `LanguageModelV3Usage`.
 * @returns ctxkit's usage.
 * @throws `ContextError` `INPUT_INVALID` for a negative or non-numeric count.
 *
 * @example
 * ```ts
 * fromLanguageModelUsage({ inputTokens: 30_012, outputTokens: 80, inputTokenDetails: { noCacheTokens: 12, cacheReadTokens: 30_000, cacheWriteTokens: 0 } });
 * // { input: 12, output: 80, cacheRead: 30000, cacheWrite: 0, total: 30092 }
 * ```
 */
export function fromLanguageModelUsage(usage: GenerateTextUsage | ProviderUsage): Usage {
  let total: number | undefined;
  let noCache: number | undefined;
  let cacheRead: number | undefined;
  let cacheWrite: number | undefined;
  let output: number | undefined;
  let reportedTotal: number | undefined;
  if (typeof usage.inputTokens === 'object' && usage.inputTokens !== null) {
    const provider = usage as ProviderUsage;
    total = count(provider.inputTokens.total, 'inputTokens.total');
    noCache = count(provider.inputTokens.noCache, 'inputTokens.noCache');
    cacheRead = count(provider.inputTokens.cacheRead, 'inputTokens.cacheRead');
    cacheWrite = count(provider.inputTokens.cacheWrite, 'inputTokens.cacheWrite');
    output = count(provider.outputTokens?.total, 'outputTokens.total');
  } else {
    const sdk = usage as GenerateTextUsage;
    const details = sdk.inputTokenDetails;
    total = count(sdk.inputTokens, 'inputTokens');
    noCache = count(details?.noCacheTokens, 'inputTokenDetails.noCacheTokens');
    cacheRead =
      count(details?.cacheReadTokens, 'inputTokenDetails.cacheReadTokens') ??
      count(sdk.cachedInputTokens, 'cachedInputTokens');
    cacheWrite = count(details?.cacheWriteTokens, 'inputTokenDetails.cacheWriteTokens');
    output = count(sdk.outputTokens, 'outputTokens');
    reportedTotal = count(sdk.totalTokens, 'totalTokens');
  }
  const input = noCache ?? Math.max(0, (total ?? 0) - (cacheRead ?? 0) - (cacheWrite ?? 0));
  const out = output ?? 0;
  return {
    input,
    output: out,
    ...(cacheRead === undefined ? {} : { cacheRead }),
    ...(cacheWrite === undefined ? {} : { cacheWrite }),
    total: reportedTotal ?? input + (cacheRead ?? 0) + (cacheWrite ?? 0) + out,
  };
}

/**
 * The AI SDK's finish reason as ctxkit's {@link StopReason}: `stop` and `other` → `stop`, `length` →
 * `length`, `tool-calls` → `toolUse`, `content-filter` and `error` → `error` (not sent back).
 *
 * @param reason - `finishReason` (or a provider's `{ unified }`).
 * @returns The stop reason.
 *
 * @example
 * ```ts
 * fromFinishReason('tool-calls'); // 'toolUse'
 * ```
 */
export function fromFinishReason(reason: string | { unified: string } | undefined): StopReason {
  const value = typeof reason === 'object' && reason !== null ? reason.unified : reason;
  switch (value) {
    case 'length':
      return 'length';
    case 'tool-calls':
      return 'toolUse';
    case 'content-filter':
    case 'error':
      return 'error';
    default:
      return 'stop';
  }
}

/** The messages a step adds, built from its content as the SDK writes its response messages. */
function stepMessages(content: readonly { readonly type: string }[]): WireObject[] {
  const assistant: WireObject[] = [];
  const results: WireObject[] = [];
  for (const raw of content) {
    const part = raw as WireObject;
    const options = part['providerMetadata'] === undefined ? {} : { providerOptions: part['providerMetadata'] };
    switch (part['type']) {
      case 'text':
        if (typeof part['text'] === 'string' && part['text'].length > 0)
          assistant.push({ type: 'text', text: part['text'], ...options });
        break;
      case 'reasoning':
        assistant.push({ type: 'reasoning', text: part['text'], ...options });
        break;
      case 'tool-call':
        assistant.push({
          type: 'tool-call',
          toolCallId: part['toolCallId'],
          toolName: part['toolName'],
          input: part['input'],
          ...(part['providerExecuted'] === undefined ? {} : { providerExecuted: part['providerExecuted'] }),
          ...options,
        });
        break;
      case 'tool-result':
      case 'tool-error': {
        const failed = part['type'] === 'tool-error';
        const value = failed ? part['error'] : part['output'];
        const output = failed
          ? { type: 'error-text', value: value instanceof Error ? value.message : String(value) }
          : typeof value === 'string'
            ? { type: 'text', value }
            : { type: 'json', value: value ?? null };
        const result = {
          type: 'tool-result',
          toolCallId: part['toolCallId'],
          toolName: part['toolName'],
          output,
          ...options,
        };
        (part['providerExecuted'] ? assistant : results).push(result);
        break;
      }
      case 'tool-approval-request':
        assistant.push({
          type: 'tool-approval-request',
          approvalId: part['approvalId'],
          toolCallId: (part['toolCall'] as WireObject | undefined)?.['toolCallId'],
        });
        break;
      default:
        break;
    }
  }
  const messages: WireObject[] = [{ role: 'assistant', content: assistant }];
  if (results.length > 0) messages.push({ role: 'tool', content: results });
  return messages;
}

function respond(
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

/**
 * Converts one step of `generateText` or `streamText` (`result.steps[i]`, or `onStepFinish`'s
 * argument) to the assistant message it produced and the results of the tools the SDK ran, as the
 * SDK writes its response messages by default (a tool's own `toModelOutput` is not applied).
 *
 * @param step - The step result.
 * @returns The assistant message (usage, stop reason, provider and model set), its tool results, and the metadata.
 *
 * @example
 * ```ts
 * await generateText({ model, messages, tools, onStepFinish: (step) => manager.recordUsage(fromStepResult(step).usage) });
 * ```
 */
export function fromStepResult(step: StepResultLike): AISDKResponseResult {
  const { messages } = readMessages(stepMessages(step.content) as never, 'fromStepResult');
  return respond(messages, {
    usage: step.usage,
    finishReason: step.finishReason,
    provider: step.model?.provider ?? 'ai-sdk',
    model: step.model?.modelId ?? step.response.modelId,
  });
}

/**
 * Converts a `generateText` result: `messages` are all its response messages (every step's
 * assistant message and tool results, converted exactly from `result.response.messages`) to append
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
  const read = readMessages(result.response.messages, 'fromGenerateTextResult');
  const lastStep = result.steps[result.steps.length - 1];
  const response = respond(read.messages, {
    usage: result.usage,
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

/**
 * {@link fromGenerateTextResult} for a `streamText` result, once the stream has finished.
 *
 * @param result - The result of `streamText`.
 * @returns The same as {@link fromGenerateTextResult}.
 *
 * @example
 * ```ts
 * const stream = streamText({ model, messages });
 * for await (const text of stream.textStream) process.stdout.write(text);
 * const { messages, usage } = await fromStreamTextResult(stream);
 * ```
 */
export async function fromStreamTextResult(
  result: StreamTextResultLike,
): Promise<AISDKResponseResult & { messages: Message[] }> {
  const [steps, finishReason, usage, response] = await Promise.all([
    result.steps,
    result.finishReason,
    result.usage,
    result.response,
  ]);
  return fromGenerateTextResult({ steps, finishReason, usage, response });
}
