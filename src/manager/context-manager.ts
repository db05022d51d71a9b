import { effectiveKeepRecentTokens, effectiveTokenLimit, resolveConfig } from '../config/index.js';
import { approximateCounter } from '../counting/approximate-counter.js';
import type { ContextUsage } from '../counting/context-usage.js';
import { countExtras } from '../counting/estimate-context-tokens.js';
import { countMessageTokensOnce } from '../counting/estimate-message-tokens.js';
import { isContextOverflow } from '../models/is-context-overflow.js';
import { checkPricing, getModelPricing, type ModelPricing } from '../models/model-pricing.js';
import { addSpendChecked, emptySpend } from '../models/usage-cost.js';
import { withoutAwaitedResults } from '../pipeline/awaited-approvals.js';
import type { CompactionResult } from '../pipeline/compact.js';
import { PINNED_HEADING } from '../summarizing/anchors/pinned-section.js';
import type { Summarizer } from '../summarizing/summarizer-types.js';
import type { Message } from '../types.js';
import { assertObjectArgument, invalidArgument } from '../validation/assert-argument.js';
import { Calibration } from './calibration.js';
import { CompactionBackoff } from './compaction-backoff.js';
import { compactionLevels } from './compaction-levels.js';
import type { CallOptions, ContextManager, ContextManagerOptions, PrepareResult } from './context-manager-types.js';
import { CostPolicy, costAwareCheckpointTokens, costAwareKeepRecentTokens } from './cost-policy.js';
import type { ContextEvent } from './events.js';
import { endsWithFreshSummary } from './internal/ends-with-fresh-summary.js';
import { checkArray, checkList } from './internal/host-input.js';
import { isAbort } from './internal/overflow-reply.js';
import { DEFAULT_SUMMARY_TIMEOUT_MS, withSummaryTimeout } from './internal/summary-timeout.js';
import { ManagedHistory } from './managed-history.js';
import { ManagerCompaction } from './manager-compaction.js';
import { callListener, resolveManagerOptions } from './manager-options.js';
import type { NativeCompactions } from './native-compactions.js';
import { recoverFromOverflow } from './overflow-recovery.js';
import { SentProjection } from './sent-projection.js';
import { buildBreakdown, oldestAge } from './stats.js';
import { TokenAccounting } from './token-accounting.js';
import { ToolOutputGuard } from './tool-output-guard.js';

/** The summary room a compaction level must leave under the limit for its tail to count as fitting. */
const MIN_ROOM_FOR_SUMMARY = 2_048;

/**
 * Creates the context manager a host calls before every model request.
 *
 * Its work per call grows with what is new since the last call: token counts are cached per
 * message, and a history that only grew at the end is projected and counted for its new part only
 * (`prepare` compares the array with the previous one, reference by reference; `append` skips that).
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
  const resolved = resolveManagerOptions(options);
  const { limits } = resolved;
  const costAware = options.costAware !== false;
  // The cost-aware policy keeps a smaller tail by default; a keepRecentTokens the host sets wins.
  const config =
    costAware && options.config?.keepRecentTokens === undefined
      ? resolveConfig({
          ...resolved.config,
          keepRecentTokens: costAwareKeepRecentTokens(effectiveTokenLimit(resolved.config)),
        })
      : resolved.config;
  const counter = options.counter ?? approximateCounter;
  const limit = effectiveTokenLimit(config);
  const now = options.now ?? Date.now;
  // Never more than the model can write in one response.
  const maxModelOutput = limits?.maxOutputTokens ?? Number.POSITIVE_INFINITY;
  // Long messages counted once per object (shared with the compaction's and recovery's counts).
  const count = (message: Message) => countMessageTokensOnce(message, counter);
  const backoff = new CompactionBackoff(
    Math.max(1, Math.ceil((limit ?? 0) * 0.05), Math.floor(effectiveKeepRecentTokens(config) / 4)),
    Math.max(5, config.keepRecent),
  );
  const emit = (event: ContextEvent) => callListener(options.onEvent, event);
  const extras = () => countExtras(options, counter);
  const isOverflow = (value: unknown) =>
    isContextOverflow(value, config.contextWindow ? { contextWindow: config.contextWindow } : {});

  // The stages of a call, in order: 1–4 take what is new, guard tool output, archive a batch and
  // project what is sent (ManagedHistory); 5 account tokens; 6 compact when due.
  const pricing = resolvePricing(options);
  let spent = emptySpend(pricing !== undefined);
  const calibration = new Calibration(options.calibrate !== false);
  const accounting = new TokenAccounting({ config, extras, emit, calibration });
  const policy = costAware ? new CostPolicy({ pricing, now, keep: effectiveKeepRecentTokens(config) }) : undefined;
  const reported = accounting.recorded;
  // Each summary request carries the conversation as last sent, for summarizers that reuse its
  // prompt cache; not when the cache has gone cold, when a rebuilt prompt costs less than a re-write.
  // Each call is bounded by summaryTimeoutMs: a hung model call ends as a failed summary.
  const summarizer: Summarizer = withSummaryTimeout(
    {
      summarize: (request) =>
        options.summarizer.summarize(
          policy?.cold() ? request : { ...request, conversation: [...state.projection.sent] },
        ),
    },
    options.summaryTimeoutMs ?? DEFAULT_SUMMARY_TIMEOUT_MS,
  );
  const state = new ManagedHistory({
    config,
    count,
    guard: new ToolOutputGuard(config.toolOutput, options.spillStore),
    summarizer,
    emit,
    onRebuild: () => reported.invalidate(),
    policy,
    observe: accounting.observe,
  });
  /** The host's turn (each of its user messages starts one; a turn gets one overflow recovery). */
  const turns = { current: 0, recovered: -1 };
  const compaction = new ManagerCompaction({
    options: { ...options, summarizer },
    config,
    counter,
    limit,
    levels: compactionLevels(config),
    maxModelOutput,
    maxCheckpointTokens: costAware ? costAwareCheckpointTokens(limit) : undefined,
    summaryRoom: Math.min(maxModelOutput, Math.floor(config.reserveTokens * 0.8), MIN_ROOM_FOR_SUMMARY),
    extras,
    calibration,
    emit,
    state,
    backoff,
    usage: () => measure().usage,
    usageOf: (list) => measureList(list).usage,
    belowWarning: () => accounting.belowWarning(),
  });

  // Native compaction is the host's opt-in (`nativeCompaction()`): without it, none of its code is bundled.
  const natives = resolved.native?.start({
    config,
    counter,
    summarizer: options.summarizer,
    store: options.store,
    sessionId: options.sessionId,
    limit,
    emit,
    now,
    tokensOf: (list) => list.reduce((sum, message) => sum + count(message), 0),
    // A provider's compaction step is billed apart from the response's context: its tokens (and
    // dollars) join the cost when the compaction is taken in, not the count of calls.
    spend: (usage) => {
      const { input, output, cacheRead, cacheWrite } = usage;
      spent = { ...addSpendChecked(spent, { input, output, cacheRead, cacheWrite }, pricing), calls: spent.calls };
    },
  });

  /**
   * One call: stages 1–4 on the host's array (or only what is new), then stages 5 and 6. Synchronous
   * up to the returned promise unless a tool output needs cutting, a batch is archived or a
   * compaction runs (so `append` pays for one resolved promise, not a chain of awaits); a
   * failure is a rejected promise, never a throw.
   */
  function runStages(
    input: readonly Message[],
    where: 'prepare' | 'afterTurn' | 'append',
    callOptions: CallOptions,
  ): Promise<PrepareResult> {
    try {
      checkArray(input, where);
      // Stage 0: a native compaction the provider returned starts the history from its summary.
      const adopted = natives?.intake(input);
      const list = adopted ?? input;
      const mode = adopted !== undefined && where === 'append' ? 'prepare' : where;
      const taken = mode === 'append' ? state.append(list, mode, callOptions) : state.take(list, mode, callOptions);
      const done = (startsTurn: boolean) => {
        const result = finish(startsTurn, where, callOptions);
        return natives === undefined ? result : resolveNative(natives, result, callOptions);
      };
      if (typeof taken !== 'boolean') return taken.then(done);
      const result = done(taken);
      return result instanceof Promise ? result : Promise.resolve(result);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Stages 5 and 6, then notes the request the host is about to send (for `recordUsage`). */
  function finish(
    startsTurn: boolean,
    where: 'prepare' | 'afterTurn' | 'append',
    callOptions: CallOptions,
  ): PrepareResult | Promise<PrepareResult> {
    if (startsTurn) turns.current++;
    const result = accountAndCompact(callOptions, where !== 'afterTurn');
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

  /**
   * Stages 5 and 6: accounts the tokens of what is sent, then compacts when due. The result of a
   * call when no compaction is due (synchronously), else a promise of it after compacting.
   */
  function accountAndCompact(callOptions: CallOptions, request: boolean): PrepareResult | Promise<PrepareResult> {
    const usage = accounting.measure(state.projection, true);
    accounting.warn(usage);
    // The threshold is the bound; the cost policy may compact earlier, when that costs less (not
    // when the provider compacts natively: ctxkit's compaction is then the fallback, at the threshold).
    const pays =
      request &&
      policy !== undefined &&
      natives === undefined &&
      usage.level !== 'compact' &&
      policy.shouldCompact(usage.tokens);
    if (request) policy?.requested();
    const due =
      config.autoCompact &&
      (usage.level === 'compact' || pays) &&
      backoff.allows(usage) &&
      !endsWithFreshSummary(state.history);
    if (due) return compactNow(usage, callOptions);
    state.handOut();
    return {
      messages: withoutAwaitedResults(state.projection.sent),
      history: state.history,
      usage,
      compacted: undefined,
    };
  }

  async function compactNow(before: ContextUsage, callOptions: CallOptions): Promise<PrepareResult> {
    let usage = before;
    let compacted: CompactionResult | undefined;
    try {
      // An opaque native summary gets its portable summary first: ctxkit's summary updates that text.
      if (natives?.lacksPortable(state.history)) {
        state.replace(await natives.summarizeAll(state.history, callOptions));
      }
      compacted = await compaction.adopt(await compaction.run(state.history, 'threshold', callOptions));
      noteCompaction(compacted);
      ({ usage } = measure());
    } catch (error) {
      if (isAbort(error)) throw error;
      // Reported through compaction-end; the history is unchanged. Not retried every turn.
      backoff.failed(usage);
    }
    state.handOut();
    return { messages: withoutAwaitedResults(state.projection.sent), history: state.history, usage, compacted };
  }

  /** Tells the policy what the summary of a compaction weighs: in the context, and as the summarizer wrote it. */
  function noteCompaction(result: CompactionResult | undefined): void {
    const summary = result?.messages[0];
    if (policy === undefined || summary === undefined) return;
    const pinned = result!.summary.indexOf(PINNED_HEADING);
    const written = pinned < 0 ? result!.summary : result!.summary.slice(0, pinned);
    policy.compacted(count(summary), counter.count(written));
  }

  /** The manager's current usage and projection. */
  function measure(): { usage: ContextUsage; projection: SentProjection } {
    return { usage: accounting.measure(state.projection, true), projection: state.projection };
  }

  /**
   * Usage and projection of a list: the manager's own when it holds that list; else the list's own
   * projection, on which recorded usage still counts when the list continues the manager's history.
   */
  function measureList(list: readonly Message[]): { usage: ContextUsage; projection: SentProjection } {
    if (state.holds(list)) return measure();
    const continued = state.continuation(list);
    const projection = SentProjection.of(continued ?? list, count);
    return { usage: accounting.measure(projection, continued !== undefined), projection };
  }

  /** The last stage with native compaction on: what is sent resolved for the call's model. */
  async function resolveNative(
    natives: NativeCompactions,
    result: PrepareResult | Promise<PrepareResult>,
    callOptions: CallOptions,
  ): Promise<PrepareResult> {
    const prepared = await result;
    let replaced = false;
    const messages = await natives.finish(prepared.messages, prepared.history, callOptions, (history) => {
      replaced = true;
      state.replace(history);
      state.handOut();
      reported.prepared(state.projection);
      return withoutAwaitedResults(state.projection.sent);
    });
    if (!replaced) return { ...prepared, messages };
    return { ...prepared, messages, history: state.history, usage: measure().usage };
  }

  const prepare = (input: readonly Message[], callOptions: CallOptions = {}) =>
    runStages(input, 'prepare', callOptions);

  /** A provider refused a native payload: the portable summaries take its place, and the call is tried once more. */
  async function runWithNativeRecovery<T>(
    natives: NativeCompactions,
    input: readonly Message[],
    call: (messages: Message[]) => Promise<T>,
    callOptions: CallOptions,
  ) {
    const parts = { prepare, compaction, state, reported, isOverflow, turns };
    try {
      return await recoverFromOverflow(parts, input, call, callOptions);
    } catch (error) {
      if (!natives.refused(error, state.history)) throw error;
      const portable = await natives.refuse(state.history, callOptions, error);
      state.replace(portable);
      state.handOut();
      return recoverFromOverflow(parts, state.history, call, callOptions);
    }
  }

  return {
    config,
    prepare,
    recordUsage: (usage) => {
      assertObjectArgument(usage, 'recordUsage', 'usage', 'a Usage object ({ input, output, … })');
      const next = addSpendChecked(spent, usage, pricing);
      reported.record(usage);
      spent = next;
    },
    append: (messages, callOptions = {}) => runStages(messages, 'append', callOptions),
    afterTurn: (input, callOptions = {}) => runStages(input, 'afterTurn', callOptions),
    async compact(history, callOptions = {}) {
      checkList(history, 'compact');
      let continued = state.continuation(history) ?? [...history];
      // An opaque native summary gets its portable summary first: ctxkit's summary updates that text.
      if (natives?.lacksPortable(continued)) {
        continued = await natives.summarizeAll(continued, callOptions);
      }
      // The host goes on from the array it passed (or from the compacted messages).
      const result = await compaction.adopt(await compaction.run(continued, 'manual', callOptions), history);
      noteCompaction(result);
      return result;
    },
    runWithOverflowRecovery: (input, call, callOptions = {}) => {
      if (typeof call !== 'function') {
        return Promise.reject(
          invalidArgument('runWithOverflowRecovery', 'call', 'a function that calls the model', call),
        );
      }
      if (natives !== undefined) return runWithNativeRecovery(natives, input, call, callOptions);
      return recoverFromOverflow({ prepare, compaction, state, reported, isOverflow, turns }, input, call, callOptions);
    },
    nativeCompaction(target) {
      const threshold = natives?.threshold(target);
      return threshold === undefined ? undefined : { threshold };
    },
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
        cost: spent,
        calibration: calibration.snapshot(),
        nativeCompactions: natives?.reports.map((report) => ({ ...report })) ?? [],
        summarizerFallbacks: compaction.fallbacks,
      };
    },
  };
}

/** The manager's pricing: the host's, none (`false`), or the model's from the built-in table. */
function resolvePricing(options: ContextManagerOptions): ModelPricing | undefined {
  if (options.pricing === false) return undefined;
  if (options.pricing !== undefined) return checkPricing('createContextManager', options.pricing, 'options.pricing');
  return options.model ? getModelPricing(options.model) : undefined;
}
