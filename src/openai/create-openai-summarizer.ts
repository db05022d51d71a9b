import { ConfigError } from '../errors.js';
import { isObject } from '../internal/wire-object.js';
import { isContextOverflow } from '../models/is-context-overflow.js';
import { getModelLimits, type ModelLimits } from '../models/model-limits.js';
import { type CompletionInput, type CompletionOutput, createSummarizer } from '../summarizing/create-summarizer.js';
import { reuseConversationOr } from '../summarizing/reuse-conversation.js';
import type { Summarizer } from '../summarizing/summarizer-types.js';
import { conversationSummaryPrompt } from '../summarizing/summary-prompts.js';
import type { OpenAIChatCompletion, OpenAIChatMessage } from './chat-types.js';
import type { OpenAIResponse, OpenAIResponsesItem } from './responses-types.js';
import { toOpenAIChat } from './to-openai-chat.js';
import { toOpenAIResponses } from './to-openai-responses.js';

/**
 * The part of an `openai` client that {@link createOpenAISummarizer} calls: `chat.completions.create`
 * (the default) or `responses.create` (with `api: 'responses'`). An `OpenAI` instance fits, and so
 * does any object with the same method (an OpenAI-compatible server's client, a test double).
 *
 * @example
 * ```ts
 * const client: OpenAISummarizerClient = new OpenAI();
 * ```
 */
export interface OpenAISummarizerClient {
  chat?: {
    completions: {
      /** Creates a chat completion (non-streaming). */
      create(
        body: {
          model: string;
          messages: OpenAIChatMessage[];
          max_completion_tokens?: number;
          max_tokens?: number;
          /** The conversation's tools (reusing the conversation). */
          tools?: OpenAIChatTool[];
          prompt_cache_key?: string;
        },
        options?: { signal?: AbortSignal },
      ): PromiseLike<OpenAIChatCompletion>;
    };
  };
  responses?: {
    /** Creates a response (non-streaming). */
    create(
      body: {
        model: string;
        instructions?: string;
        input: string | OpenAIResponsesItem[];
        max_output_tokens: number;
        store: boolean;
        /** The conversation's tools (reusing the conversation). */
        tools?: OpenAIResponsesTool[];
        prompt_cache_key?: string;
      },
      options?: { signal?: AbortSignal },
    ): PromiseLike<OpenAIResponse>;
  };
}

/**
 * Options of {@link createOpenAISummarizer}.
 *
 * @example
 * ```ts
 * const options: CreateOpenAISummarizerOptions = { client: new OpenAI(), model: 'gpt-4o-mini' };
 * ```
 */
export interface CreateOpenAISummarizerOptions {
  /** The host's `openai` client. */
  client: OpenAISummarizerClient;
  /** The model that writes summaries (a small, cheap one is usually enough). */
  model: string;
  /**
   * The most output tokens to ask for. A summary's budget is clamped to it, and to the model's own
   * maximum from `getModelLimits`, so a large `reserveTokens` never asks for more than the model accepts.
   * @default the model's maximum output from `getModelLimits`, else no clamp
   */
  maxOutputTokens?: number;
  /** Host additions or corrections to the model table, for the clamp. */
  modelLimits?: Record<string, ModelLimits>;
  /**
   * Which API to call.
   * @default 'chat'
   */
  api?: 'chat' | 'responses';
  /**
   * The Chat Completions parameter that carries the budget (`max_tokens` for servers that predate
   * `max_completion_tokens`).
   * @default 'max_completion_tokens'
   */
  tokenParameter?: 'max_completion_tokens' | 'max_tokens';
  /**
   * More request parameters (`temperature`, `reasoning_effort`, …), merged into every request.
   * @default {}
   */
  parameters?: Record<string, unknown>;
  /** The instructions for the summarizing model. @default ctxkit's summary system prompt */
  systemPrompt?: string;
  /**
   * Sent as `prompt_cache_key` with every summary request, so OpenAI routes them to the cache that
   * holds their prefix (use the conversation's key when reusing it).
   */
  promptCacheKey?: string;
  /**
   * Send each summary request that carries the conversation (`SummaryRequest.conversation`, which
   * the context manager sets) as that conversation continued: its system prompt, its tools, its
   * messages, and the instruction (`conversationSummaryPrompt`) as the final user message. OpenAI's
   * automatic cache then reads the conversation at the cached-input price instead of a rebuilt
   * prompt at full price. It pays only when `model` is the conversation's model and the requests
   * send the same system prompt and tools; a request without a conversation, and an answer without
   * text, go through the rebuilt prompt.
   * @default undefined (rebuilt prompts)
   */
  reuseConversation?: OpenAIConversationReuse;
}

/**
 * The conversation's request, for {@link CreateOpenAISummarizerOptions.reuseConversation}.
 *
 * @example
 * ```ts
 * const reuse: OpenAIConversationReuse = { systemPrompt: SYSTEM, tools: TOOLS, promptCacheKey: sessionId };
 * ```
 */
export interface OpenAIConversationReuse {
  /** The conversation's system prompt, exactly as its requests send it. */
  systemPrompt?: string;
  /** The role the system prompt is sent with, as the conversation sends it. @default 'system' */
  systemRole?: 'system' | 'developer';
  /** The conversation's tools, as its requests send them (Chat Completions or Responses shape, as `api`). */
  tools?: OpenAIChatTool[] | OpenAIResponsesTool[];
  /** The conversation's `prompt_cache_key`. */
  promptCacheKey?: string;
  /**
   * Place explicit prompt-cache breakpoints on the summary request as the converters'
   * `cacheBreakpoints` does (GPT-5.6 and later). Needed when the requests are sent with
   * `prompt_cache_options: { mode: 'explicit' }` (in `parameters`): without a mark such a request
   * reads nothing from the cache.
   * @default false
   */
  cacheBreakpoints?: boolean | { ttl?: '30m' | '12h' };
}

/**
 * A function tool as Chat Completions takes it.
 *
 * @example
 * ```ts
 * const tool: OpenAIChatTool = { type: 'function', function: { name: 'read', parameters: { type: 'object', properties: {} } } };
 * ```
 */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean | null };
}

/**
 * A function tool as the Responses API takes it.
 *
 * @example
 * ```ts
 * const tool: OpenAIResponsesTool = { type: 'function', name: 'read', parameters: { type: 'object', properties: {} }, strict: false };
 * ```
 */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  parameters: Record<string, unknown> | null;
  strict: boolean | null;
  description?: string | null;
}

/**
 * A {@link Summarizer} over the host's `openai` client: `createSummarizer` with a completion function
 * that calls Chat Completions (or the Responses API), passes the abort signal, reads the text and the
 * finish reason (so a summary cut at the limit is reported as truncated), and clamps the output budget
 * to what the model accepts.
 *
 * With a reasoning model, the budget also pays for the reasoning: give it room (`maxOutputTokens`) or
 * pass `parameters: { reasoning_effort: 'low' }`.
 *
 * @param options - The client, the model and the clamp.
 * @returns A summarizer for `createContextManager`, `compact` and `summarizeToolResults`.
 * @throws `ConfigError` when the client has no method for the chosen API, the model is empty, or
 * `maxOutputTokens` is not a positive whole number.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * const summarizer = createOpenAISummarizer({ client: new OpenAI(), model: 'gpt-4o-mini' });
 * const manager = createContextManager({ model: 'gpt-4o', summarizer });
 * ```
 */
export function createOpenAISummarizer(options: CreateOpenAISummarizerOptions): Summarizer {
  const { client, model, api = 'chat', tokenParameter = 'max_completion_tokens', parameters = {} } = options ?? {};
  if (typeof model !== 'string' || model.trim() === '') {
    throw new ConfigError({
      message: 'createOpenAISummarizer needs `model`, the id of the model that writes summaries.',
      field: 'model',
    });
  }
  const method = api === 'responses' ? client?.responses?.create : client?.chat?.completions?.create;
  if (typeof method !== 'function') {
    throw new ConfigError({
      message: `createOpenAISummarizer needs \`client\` with ${api === 'responses' ? 'responses.create' : 'chat.completions.create'}: pass your OpenAI client.`,
      field: 'client',
    });
  }
  const { maxOutputTokens } = options;
  if (maxOutputTokens !== undefined && (!Number.isInteger(maxOutputTokens) || maxOutputTokens <= 0)) {
    throw new ConfigError({
      message: `createOpenAISummarizer: maxOutputTokens must be a positive whole number, received ${String(maxOutputTokens)}.`,
      field: 'maxOutputTokens',
    });
  }
  const ceiling = maxOutputTokens ?? getModelLimits(model, { overrides: options.modelLimits })?.maxOutputTokens;
  const budget = (requested: number) => Math.max(1, Math.min(requested, ceiling ?? requested));

  const complete = async (input: CompletionInput): Promise<CompletionOutput> => {
    const request = input.signal ? { signal: input.signal } : undefined;
    if (api === 'responses') {
      const body = {
        ...parameters,
        model,
        instructions: input.system,
        input: input.prompt,
        max_output_tokens: budget(input.maxOutputTokens),
        store: false,
        ...(options.promptCacheKey === undefined ? {} : { prompt_cache_key: options.promptCacheKey }),
      };
      return responseText(await client.responses!.create(body, request));
    }
    const body = {
      ...parameters,
      model,
      messages: [
        { role: 'system' as const, content: input.system },
        { role: 'user' as const, content: input.prompt },
      ],
      [tokenParameter]: budget(input.maxOutputTokens),
      ...(options.promptCacheKey === undefined ? {} : { prompt_cache_key: options.promptCacheKey }),
    };
    return chatText(await client.chat!.completions.create(body, request));
  };
  const rebuilt = createSummarizer({
    complete,
    ...(options.systemPrompt === undefined ? {} : { systemPrompt: options.systemPrompt }),
  });
  const reuse = options.reuseConversation;
  if (reuse === undefined) return rebuilt;
  return reuseConversationOr(rebuilt, isContextOverflow, async (request, conversation) => {
    const messages = [...conversation, { role: 'user' as const, content: conversationSummaryPrompt(request) }];
    const source = { ...(reuse.systemPrompt === undefined ? {} : { systemPrompt: reuse.systemPrompt }), messages };
    const role = {
      ...(reuse.systemRole === undefined ? {} : { systemRole: reuse.systemRole }),
      ...(reuse.cacheBreakpoints === undefined ? {} : { cacheBreakpoints: reuse.cacheBreakpoints }),
    };
    const key = reuse.promptCacheKey ?? options.promptCacheKey;
    const shared = {
      ...parameters,
      model,
      ...(reuse.tools === undefined ? {} : { tools: reuse.tools as never }),
      ...(key === undefined ? {} : { prompt_cache_key: key }),
    };
    const signal = request.signal ? { signal: request.signal } : undefined;
    return api === 'responses'
      ? responseText(
          await client.responses!.create(
            {
              ...shared,
              input: toOpenAIResponses(source, role).items,
              max_output_tokens: budget(request.maxOutputTokens),
              store: false,
            },
            signal,
          ),
        )
      : chatText(
          await client.chat!.completions.create(
            {
              ...shared,
              messages: toOpenAIChat(source, role).messages,
              [tokenParameter]: budget(request.maxOutputTokens),
            },
            signal,
          ),
        );
  });
}

function chatText(completion: OpenAIChatCompletion): { text: string; stopReason?: string } {
  const choice = completion?.choices?.[0];
  return {
    text: choice?.message?.content ?? '',
    ...(choice?.finish_reason ? { stopReason: choice.finish_reason } : {}),
  };
}

function responseText(response: OpenAIResponse): CompletionOutput {
  const texts: string[] = [];
  for (const item of (response?.output ?? []) as unknown[]) {
    if (!isObject(item) || item.type !== 'message' || !Array.isArray(item.content)) continue;
    for (const part of item.content) if (isObject(part) && part.type === 'output_text') texts.push(String(part.text));
  }
  const cut = response?.status === 'incomplete' && response.incomplete_details?.reason === 'max_output_tokens';
  return { text: texts.join(''), ...(cut ? { stopReason: 'length' } : {}) };
}
