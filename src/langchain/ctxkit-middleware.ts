import { ConfigError } from '../errors.js';
import { createContextManager } from '../manager/context-manager.js';
import type { ContextManager, ContextManagerOptions } from '../manager/context-manager-types.js';
import type { ContextStats } from '../manager/stats.js';
import type { Message } from '../types.js';
import { MessageReader } from './from-langchain-messages.js';
import { fromLangChainUsage } from './from-langchain-usage.js';
import { isObject, messageTypeOf, type WireObject } from './internal/langchain-data.js';
import { isZodSchema, zodJsonSchema } from './internal/zod-json-schema.js';
import type { LangChainMessage, LangChainMessageFields } from './message-types.js';
import { writeMessage } from './to-langchain-messages.js';

/**
 * The model request `createAgent` hands a middleware's `wrapModelCall` (`ModelRequest`), as far as
 * ctxkit reads it.
 *
 * @example
 * ```ts
 * const request: LangChainModelRequest = { messages: [new HumanMessage('hi')], tools: [] };
 * ```
 */
export interface LangChainModelRequest {
  /** The conversation (the agent's `state.messages`), without the system message. */
  messages: readonly LangChainMessage[];
  /** The agent's system message. */
  systemMessage?: { readonly content: string | readonly unknown[] } | undefined;
  /** The tools bound for this call (LangChain tools or provider tool objects). */
  tools?: readonly unknown[];
  /** The run's configuration: `configurable.thread_id` names the conversation, `signal` aborts it. */
  runtime?:
    | { configurable?: { thread_id?: string; [key: string]: unknown } | undefined; signal?: AbortSignal }
    | undefined;
}

/**
 * The middleware {@link ctxkitMiddleware} returns: an `AgentMiddleware` for `createAgent({ middleware })`.
 *
 * @example
 * ```ts
 * const agent = createAgent({ model, tools, middleware: [ctxkitMiddleware({ model: 'gpt-4o', summarizer })] });
 * ```
 */
export interface CtxkitLangChainMiddleware {
  /** `ctxkit`. */
  readonly name: string;
  /**
   * Sends the conversation as the conversation's manager prepares it (truncated, archived,
   * compacted), compacts and retries once on an overflow, and records the reply's usage.
   */
  wrapModelCall<Request extends LangChainModelRequest, Response extends LangChainMessage>(
    request: Request,
    handler: (request: Request) => PromiseLike<Response> | Response,
  ): Promise<Response>;
  /** The manager of a conversation the middleware has seen, by its id. */
  managerOf(conversationId: string): ContextManager | undefined;
  /** The context of a conversation as its last call left it (a `/context` command), by its id. */
  statsOf(conversationId: string): ContextStats | undefined;
}

/**
 * Options of {@link ctxkitMiddleware}: the context manager's options (one manager is built per
 * conversation, with the agent's system prompt and tools counted), and how conversations are told apart.
 *
 * @example
 * ```ts
 * const options: CtxkitMiddlewareOptions = { model: 'gpt-4o', summarizer, maxConversations: 500 };
 * ```
 */
export interface CtxkitMiddlewareOptions
  extends Omit<ContextManagerOptions, 'systemPrompt' | 'tools' | 'store' | 'sessionId'> {
  /**
   * The most conversations whose managers are kept; the one used longest ago is let go first (a
   * conversation that comes back starts a new manager, which compacts again if it must).
   * @default 100
   */
  maxConversations?: number;
  /**
   * The id of the conversation a call belongs to.
   * @default the run's `configurable.thread_id`, else the `id` of the conversation's first message
   */
  conversationId?: (request: LangChainModelRequest) => string | undefined;
}

/** What one conversation's calls share. */
interface Conversation {
  manager: ContextManager;
  reader: MessageReader;
  /** What the previous call sent (after the leading system messages) and what the manager kept of it. */
  previous?: { prompt: readonly LangChainMessage[]; history: Message[] };
  /** The LangChain message each ctxkit message was read from: sent as it is while ctxkit leaves it alone. */
  originals: WeakMap<Message, LangChainMessage>;
  /** Each message type's class, from the messages seen, to build the messages ctxkit rewrites. */
  classes: Map<string, new (fields: WireObject) => LangChainMessage>;
}

const WHERE = 'ctxkitMiddleware';
const MIDDLEWARE_BRAND = Symbol.for('AgentMiddleware');

/** A message LangChain rebuilt from the same one (a checkpoint read back): same id, same content. */
function sameMessage(a: LangChainMessage, b: LangChainMessage): boolean {
  if (a === b) return true;
  return (
    typeof a.id === 'string' &&
    a.id === b.id &&
    messageTypeOf(a as never) === messageTypeOf(b as never) &&
    (a.content === b.content || JSON.stringify(a.content) === JSON.stringify(b.content))
  );
}

/** The text of the agent's system message. */
function systemText(request: LangChainModelRequest): string | undefined {
  const content = request.systemMessage?.content;
  if (typeof content === 'string') return content.length > 0 ? content : undefined;
  if (!Array.isArray(content)) return undefined;
  const text = content
    .map((block) =>
      typeof block === 'string' ? block : isObject(block) && typeof block.text === 'string' ? block.text : '',
    )
    .join('');
  return text.length > 0 ? text : undefined;
}

/**
 * A tool's parameters as JSON Schema: a JSON Schema as given; a zod 4 schema's through its own
 * `toJSONSchema()` (so this entry does not bundle zod's converter), any other Standard JSON Schema
 * (`~standard.jsonSchema`) through that; a zod 3 or zod/mini schema (which has neither) read from its
 * definition; `undefined` (not counted) for one that cannot be converted.
 */
function jsonSchemaOf(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  try {
    if (typeof schema.toJSONSchema === 'function') return schema.toJSONSchema();
    const standard = schema['~standard'];
    const converter = isObject(standard) && isObject(standard.jsonSchema) ? standard.jsonSchema : undefined;
    if (typeof converter?.input === 'function') return converter.input({ target: 'draft-2020-12' });
    return isZodSchema(schema) ? zodJsonSchema(schema) : schema;
  } catch {
    return undefined;
  }
}

/** The tools as the provider will see them, near enough to count: name, description, JSON schema. */
function describeTools(tools: readonly unknown[] | undefined): unknown[] | undefined {
  if (!Array.isArray(tools) || tools.length === 0) return undefined;
  return tools.map((tool) => {
    if (!isObject(tool)) return tool;
    if (typeof tool.name !== 'string' || !('schema' in tool)) return { ...tool };
    return { name: tool.name, description: tool.description, parameters: jsonSchemaOf(tool.schema) };
  });
}

/**
 * A LangChain.js v1 agent middleware that runs ctxkit inside every model call: add it to
 * `createAgent({ middleware: [ctxkitMiddleware({ model, summarizer })] })` and the agent's calls are
 * sent truncated, archived and compacted, with overflow recovery, and nothing else changes.
 *
 * On each call (`wrapModelCall`) it finds the conversation (the run's `thread_id`, else the id of the
 * first message), continues that conversation's manager (a call whose messages start with the
 * previous call's reuses what the manager kept of them, so only new messages are converted), calls
 * `manager.runWithOverflowRecovery`, sends the prepared messages (the agent's own message objects
 * where ctxkit left them alone, new ones of the same classes where it did not), and records the
 * reply's `usage_metadata`. The agent's state keeps every message: ctxkit changes what is sent, never
 * what is kept. It works in `wrapModelCall` rather than `beforeModel` for that reason.
 *
 * One manager per conversation, built on its first call with the agent's system prompt and tools
 * counted in every estimate; at most `maxConversations` are kept.
 *
 * @param options - The context manager's options and how conversations are told apart.
 * @returns The middleware.
 * @throws `ConfigError` when the options are not valid context-manager options (on the first call,
 * for the manager's own checks), or a call has neither a `thread_id` nor message ids and no
 * `conversationId` was given.
 *
 * @example
 * ```ts
 * import { createAgent } from 'langchain';
 * import { ChatOpenAI } from '@langchain/openai';
 *
 * const agent = createAgent({
 *   model: new ChatOpenAI({ model: 'gpt-4o' }),
 *   tools,
 *   systemPrompt,
 *   middleware: [ctxkitMiddleware({ model: 'gpt-4o', summarizer: createLangChainSummarizer({ model: new ChatOpenAI({ model: 'gpt-4o-mini' }) }) })],
 * });
 * ```
 */
export function ctxkitMiddleware(options: CtxkitMiddlewareOptions): CtxkitLangChainMiddleware {
  if (!isObject(options)) {
    throw new ConfigError({ message: `${WHERE} needs options: at least a summarizer.`, field: 'options' });
  }
  const { maxConversations = 100, conversationId, ...managerOptions } = options;
  if (!Number.isInteger(maxConversations) || maxConversations < 1) {
    throw new ConfigError({
      message: `${WHERE}: maxConversations must be a positive integer.`,
      field: 'maxConversations',
    });
  }
  if (conversationId !== undefined && typeof conversationId !== 'function') {
    throw new ConfigError({
      message: `${WHERE}: conversationId must be a function of the request.`,
      field: 'conversationId',
    });
  }
  const conversations = new Map<string, Conversation>();

  function conversationFor(request: LangChainModelRequest): Conversation {
    const id =
      conversationId?.(request) ??
      request.runtime?.configurable?.thread_id ??
      request.messages.find((message) => message.id)?.id;
    if (typeof id !== 'string') {
      throw new ConfigError({
        message: `${WHERE}: this call has no thread_id and its messages have no ids; pass conversationId to tell conversations apart.`,
        field: 'conversationId',
      });
    }
    let conversation = conversations.get(id);
    if (conversation) {
      conversations.delete(id); // most recently used last
    } else {
      const systemPrompt = systemText(request);
      const tools = describeTools(request.tools);
      conversation = {
        manager: createContextManager({
          ...managerOptions,
          ...(systemPrompt ? { systemPrompt } : {}),
          ...(tools ? { tools } : {}),
        }),
        reader: new MessageReader([]),
        originals: new WeakMap(),
        classes: new Map(),
      };
      while (conversations.size >= maxConversations) conversations.delete(conversations.keys().next().value!);
    }
    conversations.set(id, conversation);
    return conversation;
  }

  /** The manager's history for this call: what it kept of the previous call, and the new messages read. */
  function historyFor(conversation: Conversation, prompt: readonly LangChainMessage[]): Message[] {
    const previous = conversation.previous;
    let base: Message[] = [];
    let from = 0;
    if (
      previous &&
      previous.prompt.length <= prompt.length &&
      previous.prompt.every((message, index) => sameMessage(message, prompt[index]!))
    ) {
      base = previous.history;
      from = previous.prompt.length;
    }
    const added: Message[] = [];
    for (let index = from; index < prompt.length; index++) {
      const original = prompt[index]!;
      const message = conversation.reader.read(original, index);
      conversation.originals.set(message, original);
      const type = messageTypeOf(original as never);
      const MessageClass = (original as object).constructor as unknown;
      if (type && MessageClass !== Object && typeof MessageClass === 'function' && !conversation.classes.has(type)) {
        conversation.classes.set(type, MessageClass as new (fields: WireObject) => LangChainMessage);
      }
      added.push(message);
    }
    return base.concat(added);
  }

  /** A ctxkit message as the LangChain message to send: the original where ctxkit left it alone. */
  function toMessage(
    conversation: Conversation,
    message: Message,
    index: number,
  ): LangChainMessage | LangChainMessageFields {
    const original = conversation.originals.get(message);
    if (original) return original;
    const { type, ...fields } = writeMessage(message, index);
    const MessageClass = conversation.classes.get(type);
    return MessageClass ? new MessageClass(fields) : { type, ...fields };
  }

  const middleware: CtxkitLangChainMiddleware & { [MIDDLEWARE_BRAND]: true } = {
    [MIDDLEWARE_BRAND]: true,
    name: 'ctxkit',
    async wrapModelCall(request, handler) {
      if (!isObject(request) || !Array.isArray(request.messages)) {
        throw new ConfigError({
          message: `${WHERE}: the model request has no messages array.`,
          field: 'request.messages',
        });
      }
      const conversation = conversationFor(request);
      let start = 0;
      while (start < request.messages.length && messageTypeOf(request.messages[start] as never) === 'system') start++;
      const system = request.messages.slice(0, start);
      const prompt = request.messages.slice(start);
      const history = historyFor(conversation, prompt);
      const signal = request.runtime?.signal;
      const outcome = await conversation.manager.runWithOverflowRecovery(
        history,
        async (messages) =>
          handler({
            ...request,
            messages: [...system, ...messages.map((message, index) => toMessage(conversation, message, index))],
          }),
        signal ? { signal } : {},
      );
      conversation.previous = { prompt, history: outcome.history };
      const usage = outcome.result?.usage_metadata;
      if (usage) {
        try {
          conversation.manager.recordUsage(fromLangChainUsage(usage));
        } catch {
          // A provider's malformed usage must not fail the call; the manager keeps estimating.
        }
      }
      return outcome.result;
    },
    managerOf(id) {
      return conversations.get(id)?.manager;
    },
    statsOf(id) {
      const conversation = conversations.get(id);
      return conversation?.manager.stats(conversation.previous?.history ?? []);
    },
  };
  return middleware;
}
