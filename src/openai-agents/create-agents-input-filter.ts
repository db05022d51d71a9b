import { ConfigError } from '../errors.js';
import { sameStructure } from '../internal/same-structure.js';
import { createContextManager } from '../manager/context-manager.js';
import type { ContextManager, ContextManagerOptions } from '../manager/context-manager-types.js';
import type { ContextStats } from '../manager/stats.js';
import { entryToMessage } from '../session/entry-to-message.js';
import type { CompactionEntry, SessionEntry } from '../session-entry.js';
import type { Message } from '../types.js';
import { fromAgentItems, toAgentItems } from './agent-items.js';
import { type AgentsSession, afterItemsAdded, itemEntries, itemOf } from './create-agents-session.js';
import type { AgentItem, AgentModelInput } from './item-types.js';

/**
 * Options of {@link createAgentsInputFilter}: the context manager's options (the agent's
 * instructions and tools are counted from the first call).
 *
 * @example
 * ```ts
 * const options: CreateAgentsInputFilterOptions = { model: 'gpt-4o', summarizer };
 * ```
 */
export type CreateAgentsInputFilterOptions = Omit<ContextManagerOptions, 'systemPrompt' | 'tools'> & {
  /**
   * The conversation's session ({@link createAgentsSession}): each compaction is recorded in its
   * store as a compaction entry, and a filter that starts on a session which already holds one
   * (another worker of a fleet sharing a PostgreSQL session, a process that restarted) continues
   * from it instead of compacting the history again. The SDK's items stay whole in the session.
   * @default undefined (compactions live in the filter only)
   */
  session?: Pick<AgentsSession<object>, 'store' | 'getSessionId'>;
};

/**
 * A `callModelInputFilter` for `run(agent, input, { callModelInputFilter })`, with the manager it
 * prepares the input with.
 *
 * @example
 * ```ts
 * const filter: AgentsInputFilter = createAgentsInputFilter({ model: 'gpt-4o', summarizer });
 * await run(agent, input, { session, callModelInputFilter: filter });
 * ```
 */
export interface AgentsInputFilter {
  /** Prepares one model call's input (`Item` is the SDK's `AgentInputItem`). */
  <Item>(args: {
    modelData: AgentModelInput<Item>;
    agent: { readonly tools?: readonly unknown[] };
    context?: unknown;
  }): Promise<AgentModelInput<Item>>;
  /** Asks the SDK to hand over its own item objects, which ctxkit never modifies. */
  readonly preserveInputIdentity: true;
  /** The conversation's manager, once the first call built it (for a `/compact` command). */
  readonly manager: ContextManager | undefined;
  /** The context as the last call left it (a `/context` command), once there was a call. */
  stats(): ContextStats | undefined;
  /**
   * Wraps the agent's model for this conversation, so each reply's usage is recorded and a provider
   * overflow error is compacted and retried once (a filter alone never sees the reply), for plain
   * calls (`getResponse`) and streamed ones (`run(…, { stream: true })`, `getStreamedResponse`: the
   * stream is opened and its first event awaited inside the recovery, so an overflow, which the
   * provider reports before any event, is retried before the SDK sees anything; the usage of the
   * stream's `response_done` event is recorded).
   */
  wrapModel<Model extends AgentsModelLike>(model: Model): Model;
}

/**
 * The part of an Agents SDK `Model` that {@link AgentsInputFilter.wrapModel} wraps.
 *
 * @example
 * ```ts
 * const model: AgentsModelLike = new OpenAIResponsesModel(client, 'gpt-4o');
 * ```
 */
export interface AgentsModelLike {
  /** One non-streaming call. */
  getResponse(request: { input: unknown; signal?: AbortSignal }): Promise<{ usage?: AgentsUsageLike }>;
  /** One streamed call: its events, the last a `response_done` with the response's usage. */
  getStreamedResponse?(request: { input: unknown; signal?: AbortSignal }): AsyncIterable<unknown>;
}

/**
 * The usage an Agents SDK model reports (`Usage`, on a response or a stream's `response_done` event).
 *
 * @example
 * ```ts
 * const usage: AgentsUsageLike = { inputTokens: 9_000, outputTokens: 40, totalTokens: 9_040 };
 * ```
 */
export interface AgentsUsageLike {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  /** `{ cached_tokens }`, or one such object per request. */
  inputTokensDetails?: unknown;
}

/** Cached tokens in the SDK's usage details (an object, or one per request). */
function cachedTokens(details: unknown): number {
  const list = Array.isArray(details) ? details : [details];
  let cached = 0;
  for (const entry of list) {
    const value = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>).cached_tokens : 0;
    if (typeof value === 'number' && value > 0) cached += value;
  }
  return cached;
}

/** A tool as the provider will see it, near enough to count. */
function describeTool(tool: unknown): unknown {
  if (typeof tool !== 'object' || tool === null) return tool;
  const { name, description, parameters } = tool as Record<string, unknown>;
  return { name, description, parameters };
}

/** An item the previous call sent, handed over again: the same object, or a copy (read back, replayed). */
function sameItem(a: AgentItem, b: AgentItem): boolean {
  // Item ids are left out: the SDK drops them when it replays history, and a session hands back
  // copies (`callId`s, which pair calls and results, are compared).
  return sameStructure(a, b, 'id');
}

/** The SDK item of the first message a compaction kept: the one after its summary. */
function firstKeptItem(history: readonly Message[]): AgentItem | undefined {
  const start = history.findIndex((message) => message.meta?.kind === 'compaction_summary');
  for (const message of history.slice(start + 1)) {
    const parts = typeof message.content === 'string' ? [] : message.content;
    for (const carrier of [message, ...parts]) {
      const data = carrier.providerData?.['openai-agents'];
      const item = typeof data === 'object' && data !== null ? (data as { item?: unknown }).item : undefined;
      if (typeof item === 'object' && item !== null) return item as AgentItem;
    }
  }
  return undefined;
}

/**
 * A `callModelInputFilter` for the OpenAI Agents SDK that prepares each model call's input with a
 * ctxkit manager: the SDK keeps the whole history (in its session), ctxkit decides what is sent —
 * tool output truncated, old tool results archived behind a summary, the history compacted at the
 * threshold. Items ctxkit left alone are sent as the SDK's own objects; what it changed or wrote is
 * sent as new items of the same kinds.
 *
 * One filter per conversation (keep it beside the conversation's session): its manager continues
 * from call to call, so a compaction is made once and reused. The manager is built on the first call,
 * with the agent's instructions and tools counted in every estimate.
 *
 * A filter runs before the model call and never sees its reply: it cannot record the provider's usage
 * or recover from the provider's overflow error, so ctxkit estimates every call (leave some margin
 * in `config.reserveTokens` against the provider's own count) unless the agent's model is wrapped
 * by {@link AgentsInputFilter.wrapModel}.
 *
 * With `session`, each compaction is also recorded in the session's store, and a filter that starts
 * on a session which already holds one (another worker, a restart) continues from it.
 *
 * @param options - The context manager's options.
 * @returns The filter.
 * @throws `ConfigError` when `options` is not an object.
 *
 * @example
 * ```ts
 * import { type AgentInputItem, run } from '@openai/agents';
 *
 * const session = createAgentsSession<AgentInputItem>({ store, sessionId });
 * const callModelInputFilter = createAgentsInputFilter({ model: 'gpt-4o', summarizer, session });
 * await run(agent, 'Fix the failing test', { session, callModelInputFilter });
 * ```
 */
export function createAgentsInputFilter(options: CreateAgentsInputFilterOptions): AgentsInputFilter {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigError({
      message: 'createAgentsInputFilter needs options: at least a summarizer.',
      field: 'options',
    });
  }
  const { session, ...managerOptions } = options;
  let manager: ContextManager | undefined;
  let previous: { input: AgentItem[]; history: Message[] } | undefined;
  /** The newest compaction the manager reported, until it is recorded in the session's store. */
  let unrecorded: { summary: string; tokensBefore: number; details: Record<string, unknown> } | undefined;
  /** The first item the newest compaction kept, once known. */
  let keptItem: AgentItem | undefined;
  /**
   * Stops recording after the session's `addItems`: a compaction that kept an item of the running
   * turn is recorded once the SDK stores the turn's items, even when no call follows (the run ended,
   * and the worker that ran it may never see the conversation again).
   */
  let stopWaiting: (() => void) | undefined;
  const onEvent: ContextManagerOptions['onEvent'] = (event) => {
    if (session && event.type === 'compaction-end' && event.error === undefined && event.summary !== undefined) {
      const details = { reason: event.reason, tokensAfter: event.tokensAfter, source: 'openai-agents' };
      unrecorded = { summary: event.summary, tokensBefore: event.tokensBefore, details };
      keptItem = undefined;
      stopWaiting ??= afterItemsAdded(session, () => record(previous?.history ?? []));
    }
    managerOptions.onEvent?.(event);
  };

  /**
   * Records the newest compaction in the session's store once the item it kept first is there (the
   * SDK writes a run's items when the run ends, so one kept from the running turn waits for the
   * session's `addItems`, or for the next call).
   */
  async function record(history: readonly Message[]): Promise<void> {
    if (!session || !unrecorded) return;
    keptItem ??= firstKeptItem(history);
    if (!keptItem) return;
    try {
      const sessionId = await session.getSessionId();
      const entries = itemEntries(await session.store.getBranch(sessionId));
      let kept: SessionEntry | undefined;
      for (let index = entries.length - 1; index >= 0 && !kept; index--) {
        const stored = itemOf(entries[index]!)[0];
        if (stored && sameItem(stored, keptItem)) kept = entries[index];
      }
      if (!kept) return;
      const { summary, tokensBefore, details } = unrecorded;
      await session.store.appendEntry(sessionId, {
        type: 'compaction',
        summary,
        firstKeptEntryId: kept.id,
        tokensBefore,
        details,
      });
      unrecorded = undefined;
      stopWaiting?.();
      stopWaiting = undefined;
    } catch {
      // A failing store never undoes the compaction in memory, nor fails the model call: the
      // compaction stays unrecorded and the next call tries again.
    }
  }

  /**
   * The history to start from when the session's store already holds a compaction of this
   * conversation: its summary, then the items it kept and those after them.
   */
  async function resume(input: AgentItem[]): Promise<{ base: Message[]; from: number } | undefined> {
    if (!session) return undefined;
    const branch = await session.store.getBranch(await session.getSessionId());
    let compaction: CompactionEntry | undefined;
    for (let index = branch.length - 1; index >= 0 && !compaction; index--) {
      const entry = branch[index]!;
      if (entry.type === 'compaction') compaction = entry;
    }
    if (!compaction) return undefined;
    const entries = itemEntries(branch);
    const from = entries.findIndex((entry) => entry.id === compaction.firstKeptEntryId);
    // The SDK's input starts with the session's items, in order: the kept one is at the same place.
    const stored = from < 0 ? undefined : itemOf(entries[from]!)[0];
    if (!stored || from >= input.length || !sameItem(stored, input[from]!)) return undefined;
    const summary = entryToMessage(compaction);
    return { base: summary ? [summary] : [], from };
  }

  const filter = async ({
    modelData,
    agent,
  }: {
    modelData: AgentModelInput<AgentItem>;
    agent: { readonly tools?: readonly unknown[] };
  }): Promise<AgentModelInput<AgentItem>> => {
    const input = modelData.input;
    if (!Array.isArray(input)) {
      throw new ConfigError({
        message: 'createAgentsInputFilter: modelData.input must be an array.',
        field: 'modelData.input',
      });
    }
    const starting = manager === undefined;
    manager ??= createContextManager({
      ...managerOptions,
      onEvent,
      ...(modelData.instructions ? { systemPrompt: modelData.instructions } : {}),
      ...(agent?.tools?.length ? { tools: agent.tools.map(describeTool) } : {}),
    });
    let base: Message[] = [];
    let from = 0;
    if (
      previous &&
      previous.input.length <= input.length &&
      previous.input.every((item, index) => sameItem(item, input[index]!))
    ) {
      base = previous.history;
      from = previous.input.length;
    } else if (starting) {
      ({ base, from } = (await resume(input)) ?? { base, from });
    }
    const history = base.concat(fromAgentItems(input.slice(from)).messages);
    const prepared = await manager.prepare(history);
    previous = { input, history: prepared.history };
    await record(prepared.history);
    return { ...modelData, input: toAgentItems(prepared.messages) };
  };
  function recordUsage(usage: AgentsUsageLike | undefined): void {
    if (!manager || !usage || typeof usage.inputTokens !== 'number' || typeof usage.outputTokens !== 'number') return;
    const cached = cachedTokens(usage.inputTokensDetails);
    manager.recordUsage({
      input: Math.max(0, usage.inputTokens - cached),
      output: usage.outputTokens,
      ...(cached > 0 ? { cacheRead: cached } : {}),
      ...(typeof usage.totalTokens === 'number' && usage.totalTokens > 0 ? { total: usage.totalTokens } : {}),
    });
  }
  function wrapModel<Model extends AgentsModelLike>(model: Model): Model {
    const wrapped = Object.create(model) as Model;
    wrapped.getResponse = async (request) => {
      if (!manager || !previous) return model.getResponse(request);
      const outcome = await manager.runWithOverflowRecovery(
        previous.history,
        (messages) => model.getResponse({ ...request, input: toAgentItems(messages) }),
        request.signal ? { signal: request.signal } : {},
      );
      previous = { input: previous.input, history: outcome.history };
      recordUsage(outcome.result?.usage);
      await record(outcome.history);
      return outcome.result;
    };
    if (typeof model.getStreamedResponse === 'function') {
      const stream = model.getStreamedResponse.bind(model);
      wrapped.getStreamedResponse = (request) => streamed(stream, request);
    }
    return wrapped;
  }
  /**
   * A streamed call with overflow recovery: the provider refuses an overflowing request before the
   * first event, so the stream is opened and its first event awaited inside the recovery; the
   * events are then passed on as they come, and the usage of `response_done` recorded.
   */
  async function* streamed(
    stream: NonNullable<AgentsModelLike['getStreamedResponse']>,
    request: { input: unknown; signal?: AbortSignal },
  ): AsyncGenerator<unknown> {
    if (!manager || !previous) {
      yield* stream(request);
      return;
    }
    const open = async (messages: Message[]) => {
      const events = stream({ ...request, input: toAgentItems(messages) })[Symbol.asyncIterator]();
      return { events, first: await events.next() };
    };
    const outcome = await manager.runWithOverflowRecovery(
      previous.history,
      open,
      request.signal ? { signal: request.signal } : {},
    );
    previous = { input: previous.input, history: outcome.history };
    await record(outcome.history);
    const { events, first } = outcome.result;
    let next = first;
    try {
      while (!next.done) {
        const event = next.value as { type?: unknown; response?: { usage?: AgentsUsageLike } };
        if (event?.type === 'response_done') recordUsage(event.response?.usage);
        yield next.value;
        next = await events.next();
      }
    } finally {
      // A consumer that stops early closes the provider's stream too.
      if (!next.done) await events.return?.();
    }
  }

  return Object.defineProperties(filter, {
    preserveInputIdentity: { value: true, enumerable: true },
    manager: { get: () => manager, enumerable: true },
    wrapModel: { value: wrapModel, enumerable: true },
    stats: { value: () => (manager && previous ? manager.stats(previous.history) : undefined), enumerable: true },
  }) as AgentsInputFilter;
}
