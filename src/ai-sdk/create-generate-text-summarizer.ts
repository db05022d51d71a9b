import { ConfigError } from '../errors.js';
import { getModelLimits, type ModelLimits } from '../models/model-limits.js';
import { type CreateSummarizerOptions, createSummarizer } from '../summarizing/create-summarizer.js';
import type { Summarizer } from '../summarizing/summarizer-types.js';

/**
 * The `generateText` of the `ai` package, as far as the summarizer calls it.
 *
 * @example
 * ```ts
 * import { generateText } from 'ai';
 * const call: GenerateTextFunction<LanguageModel> = generateText;
 * ```
 */
export type GenerateTextFunction<Model> = (options: {
  model: Model;
  system: string;
  prompt: string;
  maxOutputTokens: number;
  abortSignal?: AbortSignal;
}) => PromiseLike<{ text: string; finishReason: string }>;

/**
 * Options of {@link createGenerateTextSummarizer}.
 *
 * @example
 * ```ts
 * const options: CreateGenerateTextSummarizerOptions<LanguageModel> = { generateText, model: anthropic('claude-haiku-4-5') };
 * ```
 */
export interface CreateGenerateTextSummarizerOptions<Model> extends Omit<CreateSummarizerOptions, 'complete'> {
  /** `generateText` from `ai` (passed in, so ctxkit does not load `ai` itself). */
  generateText: GenerateTextFunction<Model>;
  /** The model that writes summaries: an AI SDK model or a model id string. Not a ctxkit-wrapped model. */
  model: Model;
  /** A cap on the output below the model's maximum. @default the model's maximum output, when known */
  maxOutputTokens?: number;
  /** Host additions to the model table, for the model's maximum output. */
  modelLimits?: Record<string, ModelLimits>;
}

function modelIdOf(model: unknown): string | undefined {
  if (typeof model === 'string') return model;
  const id = (model as { modelId?: unknown } | null)?.modelId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Builds a {@link Summarizer} over the AI SDK's `generateText`: one call per summary, with ctxkit's
 * prompts, and the output budget a request asks for clamped to the model's maximum output
 * (`getModelLimits` on the model's id) and to `maxOutputTokens`, so a large `reserveTokens` never
 * asks the model for more than it writes. A `finishReason` of `length` is reported as a cut-off
 * summary and never stored.
 *
 * @param options - `generateText`, the model, an optional cap, and `createSummarizer`'s prompt options.
 * @returns The summarizer.
 * @throws `ConfigError` when `generateText` is not a function or `model` is missing.
 *
 * @example
 * ```ts
 * import { anthropic } from '@ai-sdk/anthropic';
 * import { generateText } from 'ai';
 * const summarizer = createGenerateTextSummarizer({ generateText, model: anthropic('claude-haiku-4-5') });
 * ```
 */
export function createGenerateTextSummarizer<Model>(options: CreateGenerateTextSummarizerOptions<Model>): Summarizer {
  const { generateText, model, maxOutputTokens, modelLimits, ...summarizerOptions } = options ?? ({} as never);
  if (typeof generateText !== 'function') {
    throw new ConfigError({
      message: "createGenerateTextSummarizer needs `generateText` (import { generateText } from 'ai').",
      field: 'generateText',
    });
  }
  if (model === undefined || model === null) {
    throw new ConfigError({
      message: 'createGenerateTextSummarizer needs `model`, the model that writes summaries.',
      field: 'model',
    });
  }
  if (maxOutputTokens !== undefined && !(Number.isInteger(maxOutputTokens) && maxOutputTokens > 0)) {
    throw new ConfigError({ message: 'maxOutputTokens must be a positive integer.', field: 'maxOutputTokens' });
  }
  const id = modelIdOf(model);
  const modelLimit =
    (id && getModelLimits(id, { overrides: modelLimits })?.maxOutputTokens) || Number.POSITIVE_INFINITY;
  const cap = Math.min(maxOutputTokens ?? Number.POSITIVE_INFINITY, modelLimit);
  return createSummarizer({
    ...summarizerOptions,
    async complete({ system, prompt, maxOutputTokens: requested, signal }) {
      const result = await generateText({
        model,
        system,
        prompt,
        maxOutputTokens: Math.max(1, Math.min(Math.floor(requested), cap)),
        ...(signal ? { abortSignal: signal } : {}),
      });
      return { text: result.text, stopReason: result.finishReason };
    },
  });
}
