import { z } from 'zod';
import { type ContextConfig, effectiveKeepRecentTokens, effectiveTokenLimit, resolveConfig } from '../config/index.js';
import { approximateCounter } from '../counting/approximate-counter.js';
import type { ContextUsage } from '../counting/context-usage.js';
import { countExtras } from '../counting/estimate-context-tokens.js';
import { countMessageTokens } from '../counting/internal/count-message-tokens.js';
import { isAgentVisible } from '../counting/is-agent-visible.js';
import { CompactionError, ConfigError, ContextError } from '../errors.js';
import { summaryText } from '../messages/summary-text.js';
import { isContextOverflow } from '../models/is-context-overflow.js';
import { getModelLimits, type ModelLimits } from '../models/model-limits.js';
import { type CompactionResult, compact, defaultSummaryBudget } from '../pipeline/compact.js';
import { assertMessage } from '../pipeline/internal/assert-messages.js';
import { prepareModelMessages } from '../pipeline/prepare-model-messages.js';
import type { Message } from '../types.js';
import { option, parseOptions } from '../validation/parse-options.js';
import { CompactionBackoff } from './compaction-backoff.js';
import { chooseCompactionLevel, compactionLevels } from './compaction-levels.js';
import type {
  CallOptions,
  ContextManager,
  ContextManagerOptions,
  OverflowRecoveryResult,
  PrepareResult,
} from './context-manager-types.js';
import type { CompactionReason, ContextEvent } from './events.js';
import { usageAt } from './internal/usage-at.js';
import { ManagedHistory } from './managed-history.js';
import { persistCompaction } from './persist-compaction.js';
import { RecordedUsage } from './recorded-usage.js';
import { SentProjection } from './sent-projection.js';
import { buildBreakdown, oldestAge } from './stats.js';
import { ToolOutputGuard } from './tool-output-guard.js';

function callListener(onEvent: ((event: ContextEvent) => void) | undefined, event: ContextEvent): void {
  try {
    onEvent?.(event);
  } catch {
    // A listener's failure must not break the host's loop.
  }
}

function resolveManagerConfig(options: ContextManagerOptions): {
  config: ContextConfig;
  limits: ModelLimits | undefined;
} {
  const limits = options.model ? getModelLimits(options.model, { overrides: options.modelLimits }) : undefined;
  if (options.model && limits === undefined && options.contextWindow === undefined && !options.config?.contextWindow) {
    throw new ConfigError({
      message: `createContextManager: options.model "${options.model}" is unknown: pass contextWindow, or add the model with the modelLimits option`,
      field: 'model',
    });
  }
  const contextWindow = options.contextWindow ?? options.config?.contextWindow ?? limits?.contextWindow;
  return { config: resolveConfig({ ...options.config, ...(contextWindow ? { contextWindow } : {}) }), limits };
}

/** The summary room a compaction level must leave under the limit for its tail to count as fitting. */
const MIN_ROOM_FOR_SUMMARY = 2_048;

/** A compaction whose result is not adopted yet (an overflow recovery adopts it after the retry). */
interface PendingCompaction {
  result: CompactionResult;
  reason: CompactionReason;
  before: ContextUsage;
  history: readonly Message[];
}

const optionsSchema = z.object({
  summarizer: option.summarizer(),
  counter: option.counter().optional(),
  model: z.string({ error: 'must be a model id such as "gpt-4o"' }).optional(),
  contextWindow: option.positive().optional(),
  sessionId: z.string({ error: 'must be the id of a session in the store' }).optional(),
});

/**
 * Creates the context manager a host calls before every model request.
 *
 * Its cost per call grows with what is new since the last call: token counts are cached per
 * message, and a history that only grew at the end is projected and counted for its new part only.
 * Guards keep it from looping: no compaction right after a compaction, a compaction that cannot get
 * below the limit is reported and not retried until the context has grown, and overflow recovery
 * happens at most once per call.
 *
 * @param options - Summarizer, model or window, config, counter, store, system prompt, tools, events.
 * @returns The manager.
 * @throws {@link ConfigError} for invalid settings or an unknown model without a window.
 *
 * @example
 * ```ts
 * const manager = createContextManager({ model: 'gpt-4o', summarizer, systemPrompt });
 * let history: Message[] = [];
 * history.push({ role: 'user', content: 'Fix the failing test' });
 * const { result, history: kept } = await manager.runWithOverflowRecovery(history, (messages) => callModel(messages));
 * history = [...kept, result];
 * ```
 */
export function createContextManager(options: ContextManagerOptions): ContextManager {
  parseOptions('createContextManager', optionsSchema, options ?? {});
  if (options.store !== undefined && options.sessionId === undefined) {
    throw new ConfigError({
      message:
        'createContextManager: options.sessionId must be set when options.store is (got undefined): pass the id of the session to record compactions in',
      field: 'sessionId',
    });
  }
  const { config, limits } = resolveManagerConfig(options);
  const counter = options.counter ?? approximateCounter;
  const limit = effectiveTokenLimit(config);
  const now = options.now ?? Date.now;
  const levels = compactionLevels(config);
  // Never more than the model can write in one response.
  const maxModelOutput = limits?.maxOutputTokens ?? Number.POSITIVE_INFINITY;
  // What a level's kept tail must leave under the limit to count as fitting: room for a summary.
  const summaryRoom = Math.min(maxModelOutput, Math.floor(config.reserveTokens * 0.8), MIN_ROOM_FOR_SUMMARY);
  const guard = new ToolOutputGuard(config.toolOutput, options.spillStore);
  const reported = new RecordedUsage();
  const count = (message: Message) => countMessageTokens(message, counter);
  const backoff = new CompactionBackoff(
    Math.max(1, Math.ceil((limit ?? 0) * 0.05), Math.floor(effectiveKeepRecentTokens(config) / 4)),
    Math.max(5, config.keepRecent),
  );
  const emit = (event: ContextEvent) => callListener(options.onEvent, event);
  const extras = () => countExtras(options, counter);
  const isOverflow = (value: unknown) =>
    isContextOverflow(value, config.contextWindow ? { contextWindow: config.contextWindow } : {});

  const state = new ManagedHistory({
    config,
    count,
    guard,
    summarizer: options.summarizer,
    emit,
    onRebuild: () => reported.invalidate(),
  });
  let warned = false;
  /** Counts the host's user messages: each starts a turn, and a turn gets one overflow recovery. */
  let turn = 0;
  let recoveredInTurn = -1;

  /** Usage of a projection: the provider's count where one applies (corrected by what changed since), else the estimate. */
  function measureProjection(projection: SentProjection, recorded: boolean): ContextUsage {
    let tokens = projection.anchored;
    let source: ContextUsage['source'] = projection.estimatedAfterAnchor ? 'mixed' : 'usage';
    if (tokens === undefined) {
      tokens = projection.estimate + extras();
      source = 'estimate';
    }
    const fromRecorded = recorded ? reported.measure(projection) : undefined;
    if (fromRecorded !== undefined && (fromRecorded.tokens > tokens || source === 'estimate')) {
      tokens = fromRecorded.tokens;
      source = fromRecorded.estimated ? 'mixed' : 'usage';
    }
    return usageAt(config, limit, tokens, source, projection.sent.length);
  }

  /** The manager's current usage and projection. */
  function measure(): { usage: ContextUsage; projection: SentProjection } {
    return { usage: measureProjection(state.projection, true), projection: state.projection };
  }

  /**
   * Usage and projection of a list: the manager's own when it holds that list; else the list's own
   * projection, on which recorded usage still counts when the list continues the manager's history.
   */
  function measureList(list: readonly Message[]): { usage: ContextUsage; projection: SentProjection } {
    if (state.holds(list)) return measure();
    const continued = state.continues(list);
    const projection = SentProjection.of(continued ? state.continuation(list) : list, count);
    return { usage: measureProjection(projection, continued), projection };
  }

  function updateWarning(usage: ContextUsage): void {
    if (usage.level !== 'ok' && !warned) {
      warned = true;
      emit({ type: 'context-warning', usage });
    }
  }

  function endEvent(pending: Omit<PendingCompaction, 'result'>, after: ContextUsage | undefined) {
    const { reason, before } = pending;
    return {
      type: 'compaction-end' as const,
      reason,
      tokensBefore: before.tokens,
      tokensAfter: (after ?? before).tokens,
      messagesBefore: before.messageCount,
      messagesAfter: (after ?? before).messageCount,
      belowLimit: (after ?? before).level !== 'compact',
    };
  }

  /** Runs a compaction (the one async step); reports a failure through `compaction-end` and rethrows. */
  async function runCompaction(
    history: readonly Message[],
    reason: CompactionReason,
    callOptions: CallOptions & { instructions?: string } = {},
  ): Promise<PendingCompaction> {
    const before = measureList(history).usage;
    const { level, recentTokens } = chooseCompactionLevel(history, levels, {
      counter,
      limit,
      extra: extras() + summaryRoom,
    });
    // compact's own budget rule (what the kept tail leaves under the limit), within the model's cap.
    const maxOutputTokens = Math.min(maxModelOutput, defaultSummaryBudget(level.config, recentTokens + extras()));
    emit({ type: 'compaction-start', reason, tokensBefore: before.tokens, messagesBefore: before.messageCount });
    try {
      const result = await compact(level.prepare(history), {
        summarizer: options.summarizer,
        config: level.config,
        counter,
        maxOutputTokens,
        ...(options.systemPrompt ? { systemPrompt: options.systemPrompt } : {}),
        ...(options.tools === undefined ? {} : { tools: options.tools }),
        ...(callOptions.instructions ? { instructions: callOptions.instructions } : {}),
        ...(callOptions.signal ? { signal: callOptions.signal } : {}),
      });
      return { result, reason, before, history };
    } catch (error) {
      emit({ ...endEvent({ reason, before, history }, undefined), error });
      throw error;
    }
  }

  /** Makes a compaction the manager's state, records it in the store, and reports it. */
  async function adopt(pending: PendingCompaction, known?: readonly Message[]): Promise<CompactionResult> {
    const { result } = pending;
    state.replace(result.messages, known);
    const after = measure().usage;
    if (after.level === 'compact') backoff.failed(after);
    else backoff.succeeded();
    if (after.level === 'ok') warned = false;
    const storeError = await persistCompaction(
      options.store,
      options.sessionId,
      pending.history,
      result,
      pending.reason,
    );
    emit({
      ...endEvent(pending, after),
      summary: result.summary,
      ...(storeError === undefined ? {} : { storeError }),
    });
    state.handOut();
    return result;
  }

  function endsWithFreshSummary(history: readonly Message[]): boolean {
    for (let index = history.length - 1; index >= 0; index--) {
      const message = history[index]!;
      if (!isAgentVisible(message)) continue;
      if (message.meta?.kind === 'tool_summary') continue;
      return summaryText(message) !== undefined;
    }
    return false;
  }

  /** The result of a call when no compaction is due (synchronously), else a promise of it after compacting. */
  function maybeCompact(callOptions: CallOptions): PrepareResult | Promise<PrepareResult> {
    const { usage } = measure();
    updateWarning(usage);
    const due =
      config.autoCompact && usage.level === 'compact' && backoff.allows(usage) && !endsWithFreshSummary(state.history);
    if (due) return compactNow(usage, callOptions);
    state.handOut();
    return { messages: state.projection.sent, history: state.history, usage, compacted: undefined };
  }

  async function compactNow(before: ContextUsage, callOptions: CallOptions): Promise<PrepareResult> {
    let usage = before;
    let compacted: CompactionResult | undefined;
    try {
      compacted = await adopt(await runCompaction(state.history, 'threshold', callOptions));
      ({ usage } = measure());
    } catch (error) {
      if (isAbort(error)) throw error;
      // Reported through compaction-end; the history is unchanged. Not retried every turn.
      backoff.failed(usage);
    }
    state.handOut();
    return { messages: state.projection.sent, history: state.history, usage, compacted };
  }

  /**
   * Takes in the host's array (or only what is new), then compacts when due. Synchronous up to the
   * returned promise unless a tool output needs cutting, a batch is archived or a compaction runs;
   * a failure is a rejected promise, never a throw.
   */
  function take(
    input: readonly Message[],
    where: 'prepare' | 'afterTurn' | 'append',
    callOptions: CallOptions,
  ): Promise<PrepareResult> {
    try {
      if (!Array.isArray(input)) {
        throw new ContextError({
          message: `${where}: messages must be an array of messages, received ${input === null ? 'null' : typeof input}.`,
          code: 'INPUT_INVALID',
        });
      }
      const taken =
        where === 'append' ? state.append(input, where, callOptions) : state.take(input, where, callOptions);
      if (typeof taken !== 'boolean') return taken.then((startsTurn) => finish(startsTurn, where, callOptions));
      const result = finish(taken, where, callOptions);
      return result instanceof Promise ? result : Promise.resolve(result);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  function finish(
    startsTurn: boolean,
    where: 'prepare' | 'afterTurn' | 'append',
    callOptions: CallOptions,
  ): PrepareResult | Promise<PrepareResult> {
    if (startsTurn) turn++;
    const result = maybeCompact(callOptions);
    if (where === 'afterTurn') return result;
    if (result instanceof Promise) {
      return result.then((prepared) => {
        reported.prepared(state.projection);
        return prepared;
      });
    }
    reported.prepared(state.projection);
    return result;
  }

  const prepare = (input: readonly Message[], callOptions: CallOptions = {}) => take(input, 'prepare', callOptions);

  async function runWithOverflowRecovery<T>(
    input: readonly Message[],
    call: (messages: Message[]) => Promise<T>,
    callOptions: CallOptions = {},
  ): Promise<OverflowRecoveryResult<T>> {
    const prepared = await prepare(input, callOptions);
    let firstError: unknown;
    try {
      const result = await call(prepared.messages);
      if (!isOverflowReply(result, isOverflow)) return { result, history: prepared.history, recovered: false };
      firstError = result;
    } catch (error) {
      if (!isOverflow(error)) throw error;
      firstError = error;
    }
    if (recoveredInTurn === turn) {
      throw new CompactionError({
        message:
          'The provider rejected the request as too long, and this turn already recovered from an overflow once; recovery is attempted once per turn. The history is unchanged; shorten the kept tail or the tool output.',
        code: 'OVERFLOW_UNRECOVERED',
        cause: firstError,
      });
    }
    recoveredInTurn = turn;
    let pending: PendingCompaction;
    try {
      pending = await runCompaction(prepared.history, 'overflow', callOptions);
    } catch (error) {
      if (isAbort(error)) throw error;
      throw new CompactionError({
        message: `The provider rejected the request as too long, and compaction could not shrink it (${describe(error)}). The history is unchanged; shorten the kept tail or the tool output.`,
        code: 'OVERFLOW_UNRECOVERED',
        cause: error,
      });
    }
    let result: T;
    try {
      result = await call(prepareModelMessages(pending.result.messages));
      if (isOverflowReply(result, isOverflow)) throw result;
    } catch (error) {
      // The compaction did not help: it is dropped, and neither the manager nor the store takes it.
      emit({ ...endEvent(pending, undefined), error });
      if (!isOverflow(error)) throw error;
      throw new CompactionError({
        message:
          'The request overflowed the context window again after compaction; recovery is attempted once per turn. The history is unchanged; reduce the kept tail.',
        code: 'OVERFLOW_UNRECOVERED',
        cause: { first: firstError, second: error },
      });
    }
    await adopt(pending);
    reported.prepared(state.projection);
    return { result, history: state.history, recovered: true };
  }

  function continuationOf(input: readonly Message[], where: string): Message[] {
    checkList(input, where);
    return state.continuation(input);
  }

  return {
    config,
    prepare,
    recordUsage: (usage) => reported.record(usage),
    append: (messages, callOptions = {}) => take(messages, 'append', callOptions),
    afterTurn: (input, callOptions = {}) => take(input, 'afterTurn', callOptions),
    async compact(history, callOptions = {}) {
      const continued = continuationOf(history, 'compact');
      return adopt(await runCompaction(continued, 'manual', callOptions), continued);
    },
    runWithOverflowRecovery,
    stats(history) {
      checkList(history, 'stats');
      const { usage, projection } = measureList(history);
      const sent = projection.sent;
      const maxTokens = config.contextWindow ?? limit;
      return {
        currentUsage: usage.tokens,
        maxTokens,
        usagePercent: maxTokens ? (usage.tokens / maxTokens) * 100 : 0,
        messageCount: usage.messageCount,
        oldestMessageAge: oldestAge(history, now()),
        breakdown: buildBreakdown(sent, {
          counter,
          systemPrompt: options.systemPrompt,
          tools: options.tools,
          tokensAt: (index) => projection.tokensAt(index),
        }),
        usage,
      };
    },
  };
}

/** Checks a list the host passed, without keeping a record of its messages. */
function checkList(input: unknown, where: string): asserts input is readonly Message[] {
  if (!Array.isArray(input)) {
    throw new ContextError({
      message: `${where}: messages must be an array of messages, received ${input === null ? 'null' : typeof input}.`,
      code: 'INPUT_INVALID',
    });
  }
  for (let index = 0; index < input.length; index++) assertMessage(input[index], where, index);
}

function isAbort(error: unknown): boolean {
  return CompactionError.isInstance(error) && error.code === 'ABORTED';
}

/** A reply that is an overflow: a failed assistant turn with an overflow error, or a silent overflow. */
function isOverflowReply(value: unknown, isOverflow: (value: unknown) => boolean): boolean {
  if (typeof value !== 'object' || value === null || (value as { role?: unknown }).role !== 'assistant') return false;
  const stopReason = (value as { stopReason?: unknown }).stopReason;
  if (stopReason === 'aborted') return false;
  return isOverflow(value);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
