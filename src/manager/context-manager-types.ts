import type { ContextConfig, ContextConfigInput } from '../config/index.js';
import type { ContextUsage } from '../counting/context-usage.js';
import type { TokenCounter } from '../counting/token-counter.js';
import type { ModelLimits } from '../models/model-limits.js';
import type { ModelPricing } from '../models/model-pricing.js';
import type { ModelTarget } from '../native-compaction.js';
import type { CompactionResult } from '../pipeline/compact.js';
import type { SpillStore } from '../pipeline/spill-store.js';
import type { SessionStore } from '../session/session-store.js';
import type { Summarizer } from '../summarizing/summarizer-types.js';
import type { Message, Usage } from '../types.js';
import type { ContextEvent } from './events.js';
import type { NativeCompactionStrategy } from './native-compactions.js';
import type { ContextStats } from './stats.js';

// The host-facing types of the context manager; the behaviour is in context-manager.ts.

/**
 * Options of {@link createContextManager}.
 *
 * @example
 * ```ts
 * const options: ContextManagerOptions = { model: 'gpt-4o', summarizer, systemPrompt, onEvent: console.log };
 * ```
 */
export interface ContextManagerOptions {
  /** Writes compaction and tool-result summaries. */
  summarizer: Summarizer;
  /**
   * When `summarizer` fails for a compaction (threshold, overflow recovery or manual: it throws or
   * times out, answers with nothing, with a summary cut off at the output limit, or with one too
   * large to shrink the context), compact with `heuristicSummarizer` instead, so the turn goes on
   * and nothing is lost; `compaction-end` then carries `fallback: 'heuristic'` and the
   * `summarizerError`, and `stats().summarizerFallbacks` counts it. The next compaction with a
   * working summarizer updates the heuristic checkpoint as it would its own. An abort is never
   * replaced. `false` keeps the failure: the compaction is reported with its `error` and nothing changes.
   * @default true
   */
  summarizerFallback?: boolean;
  /**
   * The longest one summarizer call may take, in milliseconds (compactions and tool-result
   * summaries). A call still unsettled then is aborted through the `signal` the summarizer was given
   * and counts as a failed summary, so `summarizerFallback` takes over: a model call that hangs
   * without rejecting cannot stall the agent. The host's own signal still aborts a call at once. The
   * default is longer than a healthy summary call takes (an output-bound answer of up to about
   * 13,000 tokens, minutes at 30 to 100 tokens a second) and equal to the OpenAI and Anthropic SDKs'
   * own request timeout; at most 2,147,483,647 (24.8 days, the longest a timer waits).
   * @default 600_000 (10 minutes)
   */
  summaryTimeoutMs?: number;
  /** A model id looked up with `getModelLimits` for the window and the maximum output. */
  model?: string;
  /** The context window in tokens; overrides the model's and `config.contextWindow`. */
  contextWindow?: number;
  /** Settings over the reference defaults. */
  config?: ContextConfigInput;
  /** The token counter. @default approximateCounter */
  counter?: TokenCounter;
  /** Host additions or corrections to the model table. */
  modelLimits?: Record<string, ModelLimits>;
  /** Where compactions are recorded as entries; needs `sessionId`. */
  store?: SessionStore;
  /** The session in `store`. */
  sessionId?: string;
  /** Counted in every estimate. */
  systemPrompt?: string;
  /** Tool definitions (any JSON), counted in every estimate. */
  tools?: unknown;
  /** Saves tool output too large to keep (see `processToolOutput`). */
  spillStore?: SpillStore;
  /** Receives warnings, compactions and summaries. A listener that throws is ignored. */
  onEvent?: (event: ContextEvent) => void;
  /** The clock used for message ages and the prompt cache's idle time. @default Date.now */
  now?: () => number;
  /**
   * What the model costs and how its prompt cache works: `stats().cost` prices the usage the host
   * records with it, and the cost-aware policy weighs archiving against it. Unset, it is looked up
   * with `getModelPricing(model)`; `false` turns pricing off (tokens are still counted).
   * @default getModelPricing(model)
   */
  pricing?: ModelPricing | false;
  /**
   * Decide by expected cost when to archive old tool results and when to compact, within the
   * `toolCallCutoff + toolSummaryBatch` bound and the compaction threshold: archive or compact once
   * the cache reads of what it would drop, since it became droppable, reach its cost (the prompt
   * cache re-written after the first archived result, or the kept tail and the checkpoint written
   * again, and the summary call), and at once when the prompt cache has gone cold (no request for
   * longer than its TTL) and that pays. It only ever acts earlier than the bounds, so it never lets
   * the context grow further. Weighs with `pricing`, or Anthropic's 5-minute cache rules without one.
   *
   * It also keeps what every request re-reads small: unless `config.keepRecentTokens` is set, the
   * kept tail is 3% of the effective token limit (4,000 to 20,000 tokens; `config.keepRecentTokens:
   * 20_000` selects the reference tail), and the checkpoint of a compaction the manager decides on,
   * pinned facts included, takes at most 15% of the limit (at least 2,000 tokens). `false` restores threshold-only behaviour with
   * the reference tail and checkpoint budget.
   * @default true
   */
  costAware?: boolean;
  /**
   * Learn how the provider's token count drifts above the counter's, from the usage the manager
   * sees (`recordUsage`, and `usage` on assistant messages, so a history reloaded from a store
   * brings it back), and grow by that ratio (1 to 4, reported as `stats().calibration`) every
   * estimate of what the provider has not counted yet: messages after the newest usage, a history
   * without usage, a compaction's kept tail and summary budget, an overflow recovery's target. A
   * provider that counts less than the counter changes nothing. `false` keeps the counter's
   * estimates as they are (for a counter that is the provider's own tokenizer).
   * @default true
   */
  calibrate?: boolean;
  /**
   * Who compacts: `'client'` (ctxkit's summarizer) or the provider, with `nativeCompaction('native')`
   * or `nativeCompaction('auto')` (through the request options of
   * {@link ContextManager.nativeCompaction}, with ctxkit's compaction kept as the fallback). Pass
   * `target` on each call. Native compaction's code is bundled only by a host that imports
   * `nativeCompaction`.
   * @default 'client'
   */
  compaction?: CompactionStrategy;
}

/**
 * What {@link ContextManager.prepare} returns.
 *
 * @example
 * ```ts
 * const { messages, history: kept, usage } = await manager.prepare(history);
 * ```
 */
export interface PrepareResult {
  /**
   * The projection to send to the model now. The manager's own array, kept up to date by its
   * later calls (which append to it, or change it in place when they archive): send it, read it,
   * copy it (`[...messages]`) to keep it, but do not change it.
   */
  messages: Message[];
  /**
   * The history to keep and pass next time: truncated, summarized or compacted as needed. Like
   * `messages`, the manager's own array, kept up to date by later calls: pass it back (pushing the
   * new messages onto it is fine, it is then yours, and comes back as `history` itself while
   * nothing in it needed changing), or keep your own array and pass that.
   */
  history: Message[];
  usage: ContextUsage;
  /** The compaction that ran during this call, if any. */
  compacted: CompactionResult | undefined;
}

/**
 * Options of a single manager call.
 *
 * @example
 * ```ts
 * await manager.prepare(history, { signal: controller.signal });
 * ```
 */
export interface CallOptions {
  /** Aborts summarizer calls. */
  signal?: AbortSignal;
  /**
   * The model this call goes to. With `compaction: nativeCompaction(…)`, a native compaction's
   * payload is sent only when this is the provider, API and model that made it; any other target
   * (or none) gets the portable summary.
   */
  target?: ModelTarget;
}

/**
 * What {@link ContextManager.runWithOverflowRecovery} returns.
 *
 * @example
 * ```ts
 * const { result, history: kept, recovered } = await manager.runWithOverflowRecovery(history, callModel);
 * ```
 */
export interface OverflowRecoveryResult<T> {
  result: T;
  /** The history to keep (compacted when a recovery happened). */
  history: Message[];
  /** True when the first call overflowed and the retry after compaction succeeded. */
  recovered: boolean;
}

/**
 * The one object a host wires into its loop. See {@link createContextManager}.
 *
 * @example
 * ```ts
 * const { messages, history: next } = await manager.prepare(history);
 * ```
 */
export interface ContextManager {
  /** The resolved configuration, window included. */
  readonly config: ContextConfig;
  /**
   * Truncates oversized tool output, summarizes old tool results past the cutoff, compacts when
   * the threshold is reached, and returns the projection to send and the history to keep. The
   * array is compared with what the manager saw last, message by message (by reference, without
   * allocating): it may have changed anywhere since (messages replaced, removed or reordered), and
   * what continues the previous input is taken in as new. Replace a message by a new object to
   * change it; never edit a message object in place.
   */
  prepare(history: readonly Message[], options?: CallOptions): Promise<PrepareResult>;
  /**
   * {@link ContextManager.prepare} for a host that says what is new: `messages` follow the history
   * of the previous call (the array passed to it, or the history it returned). The manager then
   * skips comparing the whole history with the previous one, so a call costs work in proportion
   * to what is new, however long the session.
   */
  append(messages: readonly Message[], options?: CallOptions): Promise<PrepareResult>;
  /** Records the usage a response reported; it counts until the next compaction. */
  recordUsage(usage: Usage): void;
  /** Compacts if the threshold is reached (call after each turn when `autoCompact` is on). */
  afterTurn(history: readonly Message[], options?: CallOptions): Promise<PrepareResult>;
  /** Compacts now, with optional focus instructions (a `/compact` command). */
  compact(history: readonly Message[], options?: CallOptions & { instructions?: string }): Promise<CompactionResult>;
  /** Calls the model; on a context overflow, compacts and retries once. */
  runWithOverflowRecovery<T>(
    history: readonly Message[],
    call: (messages: Message[]) => Promise<T>,
    options?: CallOptions,
  ): Promise<OverflowRecoveryResult<T>>;
  /** Usage, limit, message count, age and a breakdown (a `/context` command). */
  stats(history: readonly Message[]): ContextStats;
  /**
   * Whether the call to `target` should ask the provider to compact, and at what input token
   * count: a tenth below ctxkit's own trigger (at least 50,000 for Anthropic), so the provider
   * acts first and ctxkit's compaction stays the fallback. Hand it to the adapter's request
   * options (`anthropicCompactionParams`, `openaiCompactionParams`). `undefined` with
   * `compaction: 'client'`, for an API without native compaction, or (under `nativeCompaction('auto')`) a model
   * without it.
   */
  nativeCompaction(target: ModelTarget): { threshold: number } | undefined;
}

/**
 * How the manager compacts: `'client'` (ctxkit summarizes) or a {@link NativeCompactionStrategy}
 * from `nativeCompaction('native' | 'auto')` (the provider compacts on its side where the call's
 * API, or under `'auto'` its model, supports it; ctxkit keeps the payload and a portable summary,
 * and its own compaction stays armed as the fallback).
 *
 * @example
 * ```ts
 * const strategy: CompactionStrategy = nativeCompaction('auto');
 * ```
 */
export type CompactionStrategy = 'client' | NativeCompactionStrategy;
