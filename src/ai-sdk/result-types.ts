import type { AssistantMessage, StopReason, ToolResultMessage, Usage } from '../types.js';
import type { AISDKMessageInput, ConversionWarning } from './message-types.js';

// What the AI SDK reports after a call (its results, steps and usage, as the converters read them),
// and what the result converters return.

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
  /**
   * `ai` 6: the usage of the last step; `ai` 7: the sum over the steps. ctxkit reads the last
   * step's usage (the size of the last request, which is what the context holds) and falls back
   * to this one only when there are no steps.
   */
  readonly usage: GenerateTextUsage;
  /** `ai` 6: `messages` holds every step's messages; `ai` 7: only the last step's. */
  readonly response: { readonly modelId: string; readonly messages: readonly AISDKMessageInput[] };
  /** `ai` 7: every step's messages (read in preference to `response.messages`). */
  readonly responseMessages?: readonly AISDKMessageInput[];
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
  /** `ai` 7: every step's messages (read in preference to `response.messages`). */
  readonly responseMessages?: PromiseLike<readonly AISDKMessageInput[]>;
}

/**
 * Token usage as `generateText` reports it (`LanguageModelUsage`): `inputTokens` includes cached tokens.
 *
 * @example
 * ```ts
 * const usage: GenerateTextUsage = { inputTokens: 30_012, outputTokens: 80, totalTokens: 30_092, inputTokenDetails: { noCacheTokens: 12, cacheReadTokens: 30_000, cacheWriteTokens: 0 } };
 * ```
 */
export interface GenerateTextUsage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  totalTokens?: number | undefined;
  inputTokenDetails?: {
    noCacheTokens?: number | undefined;
    cacheReadTokens?: number | undefined;
    cacheWriteTokens?: number | undefined;
  };
  /** Deprecated by the SDK in favour of `inputTokenDetails.cacheReadTokens`. */
  cachedInputTokens?: number | undefined;
}

/**
 * Token usage as a provider reports it to a middleware (`LanguageModelV3Usage`).
 *
 * @example
 * ```ts
 * const usage: ProviderUsage = { inputTokens: { total: 30_012, noCache: 12, cacheRead: 30_000, cacheWrite: 0 }, outputTokens: { total: 80, text: 80, reasoning: undefined } };
 * ```
 */
export interface ProviderUsage {
  inputTokens: {
    total: number | undefined;
    noCache?: number | undefined;
    cacheRead?: number | undefined;
    cacheWrite?: number | undefined;
  };
  outputTokens: { total: number | undefined; text?: number | undefined; reasoning?: number | undefined };
}
