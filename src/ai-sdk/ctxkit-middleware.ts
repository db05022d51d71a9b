import { ConfigError } from '../errors.js';
import { sameStructure as same } from '../internal/same-structure.js';
import type { WireObject } from '../internal/wire-object.js';
import type { ContextManager } from '../manager/context-manager-types.js';
import type { Message } from '../types.js';
import { fromLanguageModelUsage } from './from-language-model-usage.js';
import { readMessages } from './internal/read-messages.js';
import { writeMessages } from './internal/write-messages.js';
import type { AISDKMessageInput } from './message-types.js';
import type { ProviderUsage } from './result-types.js';

/**
 * The call options a middleware receives (`LanguageModelV3CallOptions`), as far as ctxkit reads them.
 *
 * @example
 * ```ts
 * const params: CallOptionsLike = { prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };
 * ```
 */
export interface CallOptionsLike {
  prompt: readonly AISDKMessageInput[];
  abortSignal?: AbortSignal | undefined;
  /** The tool definitions of the call, counted by a manager the middleware builds. */
  tools?: readonly unknown[] | undefined;
  /** Where the host passes the conversation id: `providerOptions.ctxkit.conversationId`. */
  providerOptions?: unknown;
}

/**
 * What {@link CtxkitMiddlewareOptions.createManager} is given to build a conversation's manager.
 *
 * @example
 * ```ts
 * const createManager = ({ systemPrompt, tools }: ConversationStart) =>
 *   createContextManager({ model: 'claude-sonnet-4-6', summarizer, systemPrompt, tools });
 * ```
 */
export interface ConversationStart {
  /** The conversation id the host passed in `providerOptions.ctxkit.conversationId`. */
  conversationId: string;
  /** The call's leading system messages, joined by a blank line; undefined without any. */
  systemPrompt: string | undefined;
  /** The call's tool definitions as the provider receives them; undefined without any. */
  tools: readonly unknown[] | undefined;
}

/**
 * Options of {@link ctxkitMiddleware} for a wrapped model shared by many conversations (the usual
 * AI SDK setup: one model at module scope). Each call names its conversation with
 * `providerOptions: { ctxkit: { conversationId } }`, and each conversation gets a manager of its own.
 *
 * @example
 * ```ts
 * const middleware = ctxkitMiddleware({
 *   createManager: ({ systemPrompt, tools }) => createContextManager({ model: 'claude-sonnet-4-6', summarizer, systemPrompt, tools }),
 *   maxConversations: 500,
 * });
 * ```
 */
export interface CtxkitMiddlewareOptions {
  /**
   * Builds the manager of a conversation the first time its id is seen, from the call's system
   * prompt and tool definitions so the manager counts them. Called again for a conversation that
   * was dropped from the map and comes back (its manager starts over from the full prompt).
   */
  createManager: (conversation: ConversationStart) => ContextManager;
  /**
   * Conversations kept at most; past it, the least recently used one is dropped (with its
   * manager's state: truncations, archives and compactions are redone from the prompt if it
   * comes back). @default 100
   */
  maxConversations?: number;
}

/**
 * The wrapped model (`LanguageModelV3`), as far as ctxkit calls it.
 *
 * @example
 * ```ts
 * const model: LanguageModelLike<CallOptionsLike, unknown, unknown> = anthropic('claude-sonnet-4-6');
 * ```
 */
export interface LanguageModelLike<Params, GenerateResult, StreamResult> {
  /** One non-streaming call. */
  doGenerate(options: Params): PromiseLike<GenerateResult>;
  /** One streaming call. */
  doStream(options: Params): PromiseLike<StreamResult>;
}

/**
 * What `wrapGenerate` and `wrapStream` receive.
 *
 * @example
 * ```ts
 * const result = await middleware.wrapGenerate({ params, model, doGenerate, doStream });
 * ```
 */
export interface WrapOptions<Params, GenerateResult, StreamResult> {
  params: Params;
  model: LanguageModelLike<Params, GenerateResult, StreamResult>;
  /** The inner call with the original parameters (unused: ctxkit calls `model` with the prepared prompt). */
  doGenerate: () => PromiseLike<GenerateResult>;
  /** The inner streaming call with the original parameters (unused, as `doGenerate`). */
  doStream: () => PromiseLike<StreamResult>;
}

/**
 * A language-model middleware (`LanguageModelV3Middleware`) for `wrapLanguageModel`.
 *
 * @example
 * ```ts
 * const model = wrapLanguageModel({ model: anthropic('claude-sonnet-4-6'), middleware: ctxkitMiddleware(manager) });
 * ```
 */
export interface CtxkitMiddleware {
  readonly specificationVersion: 'v3';
  /**
   * Prepares the prompt with the manager, calls the model (compacting and retrying once on an
   * overflow), and records the response's usage.
   */
  wrapGenerate<Params extends CallOptionsLike, GenerateResult extends { usage: ProviderUsage }, StreamResult>(
    options: WrapOptions<Params, GenerateResult, StreamResult>,
  ): Promise<GenerateResult>;
  /** The same for a stream; the usage is recorded when the stream finishes. */
  wrapStream<
    Params extends CallOptionsLike,
    GenerateResult,
    StreamResult extends { stream: ReadableStream<{ type: string }> },
  >(options: WrapOptions<Params, GenerateResult, StreamResult>): Promise<StreamResult>;
}

const WHERE = 'ctxkitMiddleware';

/** What the previous call sent and what the manager kept of it. */
interface Continuation {
  prompt: readonly AISDKMessageInput[];
  history: Message[];
}

function recordUsage(manager: ContextManager, usage: ProviderUsage | undefined): void {
  if (usage === undefined) return;
  try {
    manager.recordUsage(fromLanguageModelUsage(usage));
  } catch {
    // A provider's malformed usage must not fail the call; the manager keeps estimating.
  }
}

/** A conversation's manager and what its previous call sent. */
interface Conversation {
  manager: ContextManager;
  previous: Continuation | undefined;
  /** The first message after the system messages of its first prompt (a single-manager middleware only). */
  first?: AISDKMessageInput | undefined;
  /** The id its calls carried, if any (a single-manager middleware only). */
  id?: string | undefined;
}

function isManager(value: unknown): value is ContextManager {
  const manager = value as ContextManager | undefined;
  return typeof manager?.runWithOverflowRecovery === 'function' && typeof manager.recordUsage === 'function';
}

/** `providerOptions.ctxkit.conversationId`, if the call carries one. */
function conversationIdOf(params: CallOptionsLike): string | undefined {
  const options = params.providerOptions as { ctxkit?: { conversationId?: unknown } } | undefined;
  const id = options?.ctxkit?.conversationId;
  if (id === undefined) return undefined;
  if (typeof id !== 'string' || id.length === 0) {
    throw new ConfigError({
      message: `${WHERE}: providerOptions.ctxkit.conversationId must be a non-empty string.`,
      field: 'providerOptions.ctxkit.conversationId',
    });
  }
  return id;
}

function split(prompt: readonly AISDKMessageInput[]): { system: AISDKMessageInput[]; rest: AISDKMessageInput[] } {
  if (!Array.isArray(prompt))
    throw new ConfigError({ message: `${WHERE}: params.prompt must be an array.`, field: 'prompt' });
  let start = 0;
  while (start < prompt.length && prompt[start]?.role === 'system') start++;
  return { system: prompt.slice(0, start), rest: prompt.slice(start) };
}

function systemPromptOf(system: readonly AISDKMessageInput[]): string | undefined {
  const texts = system.map((message) => message.content).filter((content) => typeof content === 'string');
  return texts.length === 0 ? undefined : texts.join('\n\n');
}

/** The conversations of a middleware: one manager, or one per conversation id. */
function conversations(
  source: ContextManager | CtxkitMiddlewareOptions,
): (params: CallOptionsLike, system: AISDKMessageInput[], rest: AISDKMessageInput[]) => Conversation {
  if (isManager(source)) {
    const only: Conversation = { manager: source, previous: undefined };
    return (params, _system, rest) => {
      const id = conversationIdOf(params);
      const foreign =
        (id !== undefined && only.id !== undefined && id !== only.id) ||
        (only.first !== undefined && rest.length > 0 && !same(only.first, rest[0]));
      if (foreign) {
        throw new ConfigError({
          message: `${WHERE}: this middleware was given one manager, and a second conversation reached it (${id !== undefined && only.id !== undefined && id !== only.id ? `conversation "${id}" after "${only.id}"` : 'its prompt starts with another message'}). One manager serves one conversation: build the middleware with { createManager } and pass providerOptions: { ctxkit: { conversationId } } on each call, or wrap the model once per conversation.`,
          field: 'manager',
        });
      }
      only.id ??= id;
      only.first ??= rest[0];
      return only;
    };
  }
  if (typeof source?.createManager !== 'function') {
    throw new ConfigError({
      message: `${WHERE} needs a context manager (createContextManager), or { createManager } to build one per conversation.`,
      field: 'manager',
    });
  }
  const limit = source.maxConversations ?? 100;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new ConfigError({
      message: `${WHERE}: maxConversations must be a whole number of at least 1, received ${String(limit)}.`,
      field: 'maxConversations',
    });
  }
  const byId = new Map<string, Conversation>();
  return (params, system, _rest) => {
    const id = conversationIdOf(params);
    if (id === undefined) {
      throw new ConfigError({
        message: `${WHERE}: a call without a conversation id. With { createManager }, pass providerOptions: { ctxkit: { conversationId } } on every call (generateText, streamText), so each conversation keeps its own manager.`,
        field: 'providerOptions.ctxkit.conversationId',
      });
    }
    let conversation = byId.get(id);
    if (conversation === undefined) {
      const manager = source.createManager({
        conversationId: id,
        systemPrompt: systemPromptOf(system),
        tools: params.tools !== undefined && params.tools.length > 0 ? params.tools : undefined,
      });
      if (!isManager(manager)) {
        throw new ConfigError({
          message: `${WHERE}: createManager must return a context manager (createContextManager).`,
          field: 'createManager',
        });
      }
      conversation = { manager, previous: undefined };
      if (byId.size >= limit) byId.delete(byId.keys().next().value as string);
    } else byId.delete(id);
    byId.set(id, conversation); // the most recently used last
    return conversation;
  };
}

/**
 * A language-model middleware that runs ctxkit inside every call, so an AI SDK host gets it with
 * `wrapLanguageModel({ model, middleware: ctxkitMiddleware(…) })` and writes nothing else.
 *
 * On each call (each step of `generateText` and `streamText`) it reads the provider-level prompt,
 * continues the conversation's history (a prompt that starts with the previous call's prompt
 * reuses what the manager kept of it: truncated, archived and compacted), calls
 * `manager.runWithOverflowRecovery` (which truncates tool output, archives old tool results,
 * compacts at the threshold, and on the provider's overflow error compacts and retries once),
 * sends the prepared messages after the leading system messages, and records the response's usage
 * (at the stream's end for `streamText`). A call with the same prompt as the one before (the SDK
 * retrying after a 500 or a 429) sends the history prepared for that prompt again: nothing is
 * archived or compacted twice, and the summarizer is not called again.
 *
 * Two ways to give it managers:
 * - `ctxkitMiddleware({ createManager })` for a wrapped model shared by many conversations (one
 *   model at module scope): each call passes `providerOptions: { ctxkit: { conversationId } }`,
 *   and each conversation gets its own manager, built on its first call from that call's system
 *   prompt and tool definitions (so they are counted), and kept in a map of at most
 *   `maxConversations` (least recently used dropped). A call without an id is refused.
 * - `ctxkitMiddleware(manager)` for one conversation. A second conversation reaching it (another
 *   conversation id, or a prompt that starts with another message) is refused with a
 *   `ConfigError` rather than silently sharing the manager. Give that manager the system prompt
 *   and tools yourself (`createContextManager({ systemPrompt, tools })`).
 *
 * Build the summarizer on the unwrapped model, or its calls would run through the middleware too.
 *
 * @param source - The conversation's context manager, or `{ createManager, maxConversations }`.
 * @returns The middleware.
 * @throws `ConfigError` when `source` is neither; each call throws `ConfigError` for a call that
 * breaks the rules above (no conversation id with `createManager`, a second conversation on one
 * manager).
 *
 * @example
 * ```ts
 * import { anthropic } from '@ai-sdk/anthropic';
 * import { generateText, stepCountIs, wrapLanguageModel } from 'ai';
 *
 * const summarizer = createGenerateTextSummarizer({ generateText, model: anthropic('claude-haiku-4-5') });
 * const model = wrapLanguageModel({
 *   model: anthropic('claude-sonnet-4-6'),
 *   middleware: ctxkitMiddleware({
 *     createManager: ({ systemPrompt, tools }) =>
 *       createContextManager({ model: 'claude-sonnet-4-6', summarizer, systemPrompt, tools }),
 *   }),
 * });
 * const result = await generateText({
 *   model, system, tools, messages, stopWhen: stepCountIs(20),
 *   providerOptions: { ctxkit: { conversationId: chatId } },
 * });
 * ```
 */
export function ctxkitMiddleware(source: ContextManager | CtxkitMiddlewareOptions): CtxkitMiddleware {
  if (!isManager(source) && typeof (source as CtxkitMiddlewareOptions | undefined)?.createManager !== 'function') {
    throw new ConfigError({
      message: `${WHERE} needs a context manager (createContextManager), or { createManager } to build one per conversation.`,
      field: 'manager',
    });
  }
  const conversationFor = conversations(source);

  /** The history for `rest`: what the manager kept of the previous prompt, and the new messages read. */
  function continuation(conversation: Conversation, rest: readonly AISDKMessageInput[]): Message[] {
    const previous = conversation.previous;
    let base: Message[] = [];
    let from = 0;
    if (previous !== undefined && previous.prompt.length <= rest.length) {
      const known = previous.prompt;
      if (known.every((message, index) => same(message, rest[index]))) {
        base = previous.history;
        from = known.length;
      }
    }
    return base.concat(readMessages(rest.slice(from), WHERE, false).messages);
  }

  async function run<Params extends CallOptionsLike, Result>(
    params: Params,
    call: (prompt: WireObject[]) => PromiseLike<Result>,
  ): Promise<{ result: Result; manager: ContextManager }> {
    const { system, rest } = split(params.prompt);
    const conversation = conversationFor(params, system, rest);
    const { manager } = conversation;
    const options = params.abortSignal ? { signal: params.abortSignal } : {};
    // The SDK retries a call that failed (a 500, a 429) with the same prompt: the history prepared
    // for it then is sent again, so nothing is truncated, archived or compacted twice.
    const previous = conversation.previous;
    const retry = previous !== undefined && previous.prompt.length === rest.length && same(previous.prompt, rest);
    let history: Message[];
    if (retry) history = previous.history;
    else {
      history = (await manager.prepare(continuation(conversation, rest), options)).history;
      conversation.previous = { prompt: rest, history };
    }
    const outcome = await manager.runWithOverflowRecovery(
      history,
      async (messages) =>
        call([...(system as unknown as WireObject[]), ...writeMessages(messages, 'prompt', WHERE).messages]),
      options,
    );
    conversation.previous = { prompt: rest, history: outcome.history };
    return { result: outcome.result, manager };
  }

  return {
    specificationVersion: 'v3',
    async wrapGenerate({ params, model }) {
      const { result, manager } = await run(params, (prompt) => model.doGenerate({ ...params, prompt }));
      recordUsage(manager, result.usage);
      return result;
    },
    async wrapStream({ params, model }) {
      const { result, manager } = await run(params, (prompt) => model.doStream({ ...params, prompt }));
      const stream = result.stream.pipeThrough(
        new TransformStream<{ type: string }, { type: string }>({
          transform(part, controller) {
            if (part.type === 'finish') recordUsage(manager, (part as { usage?: ProviderUsage }).usage);
            controller.enqueue(part);
          },
        }),
      );
      return { ...result, stream };
    },
  };
}
