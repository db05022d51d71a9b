import { ConfigError } from '../errors.js';
import { isContextOverflow } from '../models/is-context-overflow.js';
import { getModelLimits, type ModelLimits } from '../models/model-limits.js';
import { type CreateSummarizerOptions, createSummarizer } from '../summarizing/create-summarizer.js';
import { reuseConversationOr } from '../summarizing/reuse-conversation.js';
import type { Summarizer } from '../summarizing/summarizer-types.js';
import { conversationSummaryPrompt } from '../summarizing/summary-prompts.js';
import type { AISDKMessage } from './message-types.js';
import type { ProviderOptions } from './part-types.js';
import { toModelMessages } from './to-model-messages.js';

/**
 * The `generateText` of the `ai` package, as far as the summarizer calls it: with a rebuilt
 * `prompt`, or (reusing the conversation) with the conversation's `messages` and `tools`.
 *
 * @example
 * ```ts
 * import { generateText } from 'ai';
 * const call: GenerateTextFunction<LanguageModel> = generateText;
 * ```
 */
export type GenerateTextFunction<Model, Tools = never> = (
  options:
    | {
        model: Model;
        system: string;
        prompt: string;
        maxOutputTokens: number;
        abortSignal?: AbortSignal;
      }
    | {
        model: Model;
        system?: string;
        messages: AISDKMessage[];
        tools?: Tools;
        providerOptions?: ProviderOptions;
        maxOutputTokens: number;
        abortSignal?: AbortSignal;
      },
) => PromiseLike<{ text: string; finishReason: string }>;

/**
 * The conversation's call, for {@link CreateGenerateTextSummarizerOptions.reuseConversation}: what
 * the host passes to `generateText` besides the messages.
 *
 * @example
 * ```ts
 * const reuse: GenerateTextConversationReuse<typeof tools> = { system: SYSTEM, tools };
 * ```
 */
export interface GenerateTextConversationReuse<Tools> {
  /** The conversation's `system`, exactly as its calls pass it. */
  system?: string;
  /**
   * The conversation's `tools`, exactly as its calls pass them. The summary call sends their
   * definitions but never runs one: each tool is passed without its `execute`, so a model that
   * calls a tool instead of answering ends the call (and the rebuilt prompt is used).
   */
  tools?: Tools;
  /**
   * The conversation's call-level `providerOptions` that decide where its prompt is cached, such as
   * OpenAI's `{ openai: { promptCacheKey } }` (a prefix cached under one key is not read under
   * another).
   * @default undefined (none)
   */
  providerOptions?: ProviderOptions;
  /**
   * Provider options set on the instruction and on the last message of the conversation, while
   * fewer than 4 messages and parts carry them (the conversation's own marks count): the
   * prompt-cache breakpoints of a provider that caches only at marked messages. A provider reads
   * only the options under its own name, so the default marks Anthropic's and changes nothing
   * elsewhere (OpenAI and Gemini cache prefixes without marks). `false` sets none.
   * @default { anthropic: { cacheControl: { type: 'ephemeral' } } }
   */
  breakpoint?: ProviderOptions | false;
}

/**
 * Options of {@link createGenerateTextSummarizer}.
 *
 * @example
 * ```ts
 * const options: CreateGenerateTextSummarizerOptions<LanguageModel> = { generateText, model: anthropic('claude-haiku-4-5') };
 * ```
 */
export interface CreateGenerateTextSummarizerOptions<Model, Tools = never>
  extends Omit<CreateSummarizerOptions, 'complete'> {
  /** `generateText` from `ai` (passed in, so ctxkit does not load `ai` itself). */
  generateText: GenerateTextFunction<Model, Tools>;
  /** The model that writes summaries: an AI SDK model or a model id string. Not a ctxkit-wrapped model. */
  model: Model;
  /** A cap on the output below the model's maximum. @default the model's maximum output, when known */
  maxOutputTokens?: number;
  /** Host additions to the model table, for the model's maximum output. */
  modelLimits?: Record<string, ModelLimits>;
  /**
   * Send each summary request that carries the conversation (`SummaryRequest.conversation`, which
   * the context manager sets) as that conversation continued: its `system`, its `tools`, its
   * messages (`toModelMessages`), and the instruction (`conversationSummaryPrompt`) as the final
   * user message, with a cache breakpoint on the last two messages. The provider then reads the
   * conversation from its prompt cache at the cached-input price (a tenth of the input price on
   * Anthropic and the GPT-5 family) instead of a rebuilt prompt at full price. It pays only when
   * `model` is the conversation's model (a cache is per model) and the calls pass the same `system`
   * and `tools`; a request without a conversation, and an answer without text (the model called a
   * tool), go through the rebuilt prompt.
   * @default undefined (rebuilt prompts)
   */
  reuseConversation?: GenerateTextConversationReuse<Tools>;
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
 * @param options - `generateText`, the model, an optional cap, `createSummarizer`'s prompt options,
 * and `reuseConversation` to continue the conversation instead of a rebuilt prompt.
 * @returns The summarizer.
 * @throws `ConfigError` when `generateText` is not a function, `model` is missing, or
 * `reuseConversation` (or its `tools`) is not an object.
 *
 * @example
 * ```ts
 * import { anthropic } from '@ai-sdk/anthropic';
 * import { generateText } from 'ai';
 * const summarizer = createGenerateTextSummarizer({ generateText, model: anthropic('claude-haiku-4-5') });
 * // On the conversation's own model, summary calls read the conversation from the prompt cache:
 * const reusing = createGenerateTextSummarizer({
 *   generateText,
 *   model: anthropic('claude-sonnet-4-6'),
 *   reuseConversation: { system: SYSTEM, tools },
 * });
 * ```
 */
export function createGenerateTextSummarizer<Model, Tools = never>(
  options: CreateGenerateTextSummarizerOptions<Model, Tools>,
): Summarizer {
  const {
    generateText,
    model,
    maxOutputTokens,
    modelLimits,
    reuseConversation: reuse,
    ...summarizerOptions
  } = options ?? ({} as never);
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
  const budget = (requested: number) => Math.max(1, Math.min(Math.floor(requested), cap));
  const rebuilt = createSummarizer({
    ...summarizerOptions,
    async complete({ system, prompt, maxOutputTokens: requested, signal }) {
      const result = await generateText({
        model,
        system,
        prompt,
        maxOutputTokens: budget(requested),
        ...(signal ? { abortSignal: signal } : {}),
      });
      return { text: result.text, stopReason: result.finishReason };
    },
  });
  if (reuse === undefined) return rebuilt;
  if (typeof reuse !== 'object' || reuse === null) {
    throw new ConfigError({
      message:
        'createGenerateTextSummarizer: reuseConversation must be an object ({ system?, tools?, providerOptions?, breakpoint? }).',
      field: 'reuseConversation',
    });
  }
  const tools = reuse.tools === undefined ? undefined : definitionsOnly(reuse.tools);
  const breakpoint = reuse.breakpoint === undefined ? ANTHROPIC_BREAKPOINT : reuse.breakpoint;
  return reuseConversationOr(
    rebuilt,
    async (request, conversation) => {
      const { messages } = toModelMessages({
        messages: [...conversation, { role: 'user', content: conversationSummaryPrompt(request) }],
      });
      if (breakpoint !== false) {
        // Anthropic refuses a fifth mark: the conversation's own marks count.
        let marks = countMarks(messages, breakpoint);
        for (const at of [messages.length - 1, messages.length - 2]) {
          const message = messages[at];
          if (message === undefined || marks >= MAX_BREAKPOINTS || carries(message, breakpoint)) continue;
          messages[at] = mark(message, breakpoint);
          marks++;
        }
      }
      const result = await generateText({
        model,
        ...(reuse.system === undefined ? {} : { system: reuse.system }),
        messages,
        ...(tools === undefined ? {} : { tools }),
        ...(reuse.providerOptions === undefined ? {} : { providerOptions: reuse.providerOptions }),
        maxOutputTokens: budget(request.maxOutputTokens),
        ...(request.signal ? { abortSignal: request.signal } : {}),
      });
      return { text: result.text, stopReason: result.finishReason };
    },
    isContextOverflow,
  );
}

/** Anthropic's 5-minute breakpoint, as `@ai-sdk/anthropic` reads it from a message's provider options. */
const ANTHROPIC_BREAKPOINT: ProviderOptions = /* @__PURE__ */ (() =>
  Object.freeze({
    anthropic: Object.freeze({ cacheControl: Object.freeze({ type: 'ephemeral' }) }),
  }))();

/** The most cache breakpoints a request may carry (Anthropic's limit). */
const MAX_BREAKPOINTS = 4;

/** Whether the provider options already hold every field of the breakpoint, for some provider. */
function carries(holder: { providerOptions?: unknown }, breakpoint: ProviderOptions): boolean {
  const options = holder.providerOptions as Record<string, Record<string, unknown> | undefined> | undefined;
  if (options === undefined || options === null) return false;
  return Object.entries(breakpoint).some(([provider, fields]) => {
    const own = options[provider];
    return own !== undefined && own !== null && Object.keys(fields).every((field) => own[field] != null);
  });
}

/** The messages and parts that already carry the breakpoint (the host's own marks). */
function countMarks(messages: readonly AISDKMessage[], breakpoint: ProviderOptions): number {
  let count = 0;
  for (const message of messages) {
    if (carries(message, breakpoint)) count++;
    if (Array.isArray(message.content)) {
      for (const part of message.content) if (carries(part as { providerOptions?: unknown }, breakpoint)) count++;
    }
  }
  return count;
}

/** A copy of the message with the breakpoint's options merged into its own (provider by provider). */
function mark(message: AISDKMessage, breakpoint: ProviderOptions): AISDKMessage {
  const options: Record<string, unknown> = { ...message.providerOptions };
  for (const [provider, value] of Object.entries(breakpoint)) {
    options[provider] = { ...(options[provider] as object | undefined), ...value };
  }
  return { ...message, providerOptions: options as ProviderOptions } as AISDKMessage;
}

/**
 * The tools without what runs them: the SDK sends the same definitions, and a tool call the model
 * makes ends the summary call instead of running the host's tool.
 */
function definitionsOnly<Tools>(tools: Tools): Tools {
  if (typeof tools !== 'object' || tools === null) {
    throw new ConfigError({
      message: 'createGenerateTextSummarizer: reuseConversation.tools must be the tool set the conversation passes.',
      field: 'reuseConversation.tools',
    });
  }
  const definitions: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) {
    if (typeof tool !== 'object' || tool === null) {
      definitions[name] = tool;
      continue;
    }
    const { execute: _execute, ...definition } = tool as { execute?: unknown };
    definitions[name] = definition;
  }
  return definitions as Tools;
}
