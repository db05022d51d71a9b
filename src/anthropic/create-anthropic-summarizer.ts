import { ConfigError } from '../errors.js';
import { isContextOverflow } from '../models/is-context-overflow.js';
import { getModelLimits, type ModelLimits } from '../models/model-limits.js';
import { type CreateSummarizerOptions, createSummarizer } from '../summarizing/create-summarizer.js';
import { reuseConversationOr } from '../summarizing/reuse-conversation.js';
import type { Summarizer, SummaryOutput } from '../summarizing/summarizer-types.js';
import { conversationSummaryPrompt } from '../summarizing/summary-prompts.js';
import { toAnthropic } from './to-anthropic.js';
import type { AnthropicCacheControl, AnthropicMessageParam, AnthropicResponse, AnthropicSystemParam } from './types.js';

/**
 * The most `max_tokens` the Anthropic SDK sends without streaming. The SDK estimates a non-streaming
 * call at one hour per 128,000 output tokens and refuses one expected to pass its ten-minute default
 * timeout (`3_600_000 ms × max_tokens / 128_000 > 600_000 ms`), so 21,333 is the largest value that
 * passes. Some models have a lower non-streaming limit of their own
 * ({@link ANTHROPIC_NONSTREAMING_MODEL_LIMITS}).
 *
 * @example
 * ```ts
 * Math.min(32_000, ANTHROPIC_NONSTREAMING_MAX_TOKENS); // 21333
 * ```
 */
export const ANTHROPIC_NONSTREAMING_MAX_TOKENS = 21_333;

/**
 * Models for which the Anthropic SDK refuses a non-streaming `max_tokens` above a smaller limit
 * (the SDK's own table).
 *
 * @example
 * ```ts
 * ANTHROPIC_NONSTREAMING_MODEL_LIMITS['claude-opus-4@20250514']; // 8192
 * ```
 */
export const ANTHROPIC_NONSTREAMING_MODEL_LIMITS: Readonly<Record<string, number>> = /* @__PURE__ */ Object.freeze({
  'claude-opus-4@20250514': 8_192,
  'anthropic.claude-opus-4-1-20250805-v1:0': 8_192,
  'claude-opus-4-1@20250805': 8_192,
});

/**
 * The request body {@link createAnthropicSummarizer} sends.
 *
 * @example
 * ```ts
 * const body: AnthropicSummaryRequest = { model: 'claude-haiku-4-5', max_tokens: 4096, system: '…', messages: [{ role: 'user', content: '…' }] };
 * ```
 */
export interface AnthropicSummaryRequest {
  model: string;
  max_tokens: number;
  /** The summarizer's instructions, or (reusing the conversation) the conversation's own system prompt. */
  system?: AnthropicSystemParam;
  messages: AnthropicMessageParam[];
  /** The conversation's tool definitions, sent when reusing the conversation (the cache covers them). */
  tools?: AnthropicToolParam[];
}

/**
 * A custom tool definition as the Messages API takes it.
 *
 * @example
 * ```ts
 * const tool: AnthropicToolParam = { name: 'read', description: 'Reads a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } } } };
 * ```
 */
export interface AnthropicToolParam {
  name: string;
  description?: string;
  input_schema: { type: 'object'; properties?: unknown; required?: string[] | null; [key: string]: unknown };
  cache_control?: AnthropicCacheControl | null;
}

/**
 * The conversation's request, for {@link CreateAnthropicSummarizerOptions.reuseConversation}.
 *
 * @example
 * ```ts
 * const reuse: AnthropicConversationReuse = { systemPrompt: SYSTEM, tools: TOOLS };
 * ```
 */
export interface AnthropicConversationReuse {
  /** The conversation's system prompt, exactly as its requests send it. */
  systemPrompt?: string;
  /** The conversation's tool definitions, exactly as its requests send them. */
  tools?: AnthropicToolParam[];
  /**
   * The cache's lifetime the conversation's breakpoints use.
   * @default '5m'
   */
  ttl?: '5m' | '1h';
}

/**
 * The part of an Anthropic client the summarizer uses; the SDK's `Anthropic` instance fits it.
 *
 * @example
 * ```ts
 * const client: AnthropicClientLike = new Anthropic();
 * ```
 */
export interface AnthropicClientLike {
  messages: {
    /** A non-streaming Messages API call. */
    create(body: AnthropicSummaryRequest, options?: { signal?: AbortSignal }): PromiseLike<AnthropicResponse>;
  };
}

/**
 * Options of {@link createAnthropicSummarizer}.
 *
 * @example
 * ```ts
 * const options: CreateAnthropicSummarizerOptions = { client: new Anthropic(), model: 'claude-haiku-4-5' };
 * ```
 */
export interface CreateAnthropicSummarizerOptions extends Omit<CreateSummarizerOptions, 'complete'> {
  /** The Anthropic client (`new Anthropic()`). */
  client: AnthropicClientLike;
  /** The model that writes summaries. */
  model: string;
  /**
   * The cap on `max_tokens`, replacing the SDK's non-streaming limit (set it above 21,333 only for a
   * client created with a `timeout`, for which the SDK skips its check); the model's maximum output
   * still applies. @default 21,333 (less for the models in ANTHROPIC_NONSTREAMING_MODEL_LIMITS)
   */
  maxOutputTokens?: number;
  /** Host additions to the model table, for the model's maximum output. */
  modelLimits?: Record<string, ModelLimits>;
  /**
   * Send each summary request that carries the conversation (`SummaryRequest.conversation`, which
   * the context manager sets) as that conversation continued: its system prompt, its tools, its
   * messages with cache breakpoints (`toAnthropic`'s `cacheBreakpoints`), and the instruction
   * ({@link conversationSummaryPrompt}) as the final user message. Anthropic then reads the
   * conversation from the prompt cache at a tenth of the input price instead of a rebuilt prompt
   * at full price. It pays only when `model` is the conversation's model (a cache is per model)
   * and the requests send the same system prompt and tools; a request without a conversation, and
   * an answer without text (the model called a tool), go through the rebuilt prompt.
   * @default undefined (rebuilt prompts)
   */
  reuseConversation?: AnthropicConversationReuse;
}

/**
 * Builds a {@link Summarizer} over an Anthropic client: one non-streaming `messages.create` per
 * summary, with ctxkit's prompts. The output budget a request asks for is clamped to what the call
 * accepts: the model's maximum output (`getModelLimits`), the SDK's non-streaming limit (21,333, or
 * less for the models in {@link ANTHROPIC_NONSTREAMING_MODEL_LIMITS}), and `maxOutputTokens`. Without
 * the clamp, a compaction with `reserveTokens: 32_000` asks for 32,000 tokens, the SDK refuses, and
 * every compaction fails.
 *
 * @param options - The client, the model, an optional cap, and `createSummarizer`'s prompt options.
 * @returns A summarizer; `stop_reason: 'max_tokens'` is reported as a cut-off summary, never stored.
 * @throws `ConfigError` when `client` has no `messages.create` or `model` is empty.
 *
 * @example
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * const summarizer = createAnthropicSummarizer({ client: new Anthropic(), model: 'claude-haiku-4-5' });
 * const manager = createContextManager({ model: 'claude-sonnet-4-5', summarizer });
 * ```
 */
export function createAnthropicSummarizer(options: CreateAnthropicSummarizerOptions): Summarizer {
  const { client, model, maxOutputTokens, modelLimits, ...summarizerOptions } = options ?? ({} as never);
  if (typeof client?.messages?.create !== 'function') {
    throw new ConfigError({
      message: 'createAnthropicSummarizer needs `client`, an Anthropic client (new Anthropic()).',
      field: 'client',
    });
  }
  if (typeof model !== 'string' || model.length === 0) {
    throw new ConfigError({
      message: 'createAnthropicSummarizer needs `model`, the id of the model that writes summaries.',
      field: 'model',
    });
  }
  if (maxOutputTokens !== undefined && !(Number.isInteger(maxOutputTokens) && maxOutputTokens > 0)) {
    throw new ConfigError({ message: 'maxOutputTokens must be a positive integer.', field: 'maxOutputTokens' });
  }
  // The SDK checks the non-streaming limits only when the client has no timeout of its own; a host
  // whose client has one can lift them with maxOutputTokens.
  const sdkLimit = Math.min(
    ANTHROPIC_NONSTREAMING_MAX_TOKENS,
    ANTHROPIC_NONSTREAMING_MODEL_LIMITS[model] ?? Number.POSITIVE_INFINITY,
  );
  const modelLimit = getModelLimits(model, { overrides: modelLimits })?.maxOutputTokens ?? Number.POSITIVE_INFINITY;
  const cap = Math.min(maxOutputTokens ?? sdkLimit, modelLimit);
  const maxTokens = (requested: number) => Math.max(1, Math.min(Math.floor(requested), cap));
  const { reuseConversation: reuse } = options;
  const rebuilt = createSummarizer({
    ...summarizerOptions,
    async complete({ system, prompt, maxOutputTokens: requested, signal }) {
      const response = await client.messages.create(
        { model, max_tokens: maxTokens(requested), system, messages: [{ role: 'user', content: prompt }] },
        signal ? { signal } : undefined,
      );
      return answerOf(response);
    },
  });
  if (reuse === undefined) return rebuilt;
  return reuseConversationOr(
    rebuilt,
    async (request, conversation) => {
      const { system, messages } = toAnthropic({
        systemPrompt: reuse.systemPrompt,
        messages: [...conversation, { role: 'user', content: conversationSummaryPrompt(request) }],
        cacheBreakpoints: reuse.ttl === undefined ? true : { ttl: reuse.ttl },
      });
      const response = await client.messages.create(
        {
          model,
          max_tokens: maxTokens(request.maxOutputTokens),
          ...(system === undefined ? {} : { system }),
          ...(reuse.tools === undefined ? {} : { tools: reuse.tools }),
          messages,
        },
        request.signal ? { signal: request.signal } : undefined,
      );
      return answerOf(response);
    },
    isContextOverflow,
  );
}

/** The text of a response, with its stop reason. */
function answerOf(response: AnthropicResponse): SummaryOutput {
  const text = response.content
    .map((block) => ((block as { type: string }).type === 'text' ? (block as { text: string }).text : ''))
    .join('');
  return response.stop_reason ? { text, stopReason: response.stop_reason } : text;
}
