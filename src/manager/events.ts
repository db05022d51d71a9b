import type { ContextUsage } from '../counting/context-usage.js';
import type { CompactionUsage, NativeCompaction } from '../native-compaction.js';

/** Why a compaction ran. */
export type CompactionReason = 'threshold' | 'overflow' | 'manual';

/**
 * A rung of the overflow-recovery ladder, climbed in this order, each on top of the ones before,
 * until the request fits: summarize what is older than the kept tail; drop the thinking of all but
 * the newest assistant turn; cut the kept tool results to 8 KiB; to 2 KiB; replace them by a
 * one-line stub that says how to get the output again.
 *
 * @example
 * ```ts
 * const deepest: CompactionRung = 'stub-results';
 * ```
 */
export type CompactionRung = 'summarize' | 'drop-thinking' | 'cut-results-8k' | 'cut-results-2k' | 'stub-results';

/**
 * One rung an overflow recovery climbed, with the request's estimated tokens (messages, system
 * prompt and tools) before and after it.
 *
 * @example
 * ```ts
 * const step: CompactionRungReport = { rung: 'cut-results-8k', tokensBefore: 41_000, tokensAfter: 9_500 };
 * ```
 */
export interface CompactionRungReport {
  rung: CompactionRung;
  tokensBefore: number;
  tokensAfter: number;
}

/**
 * Raised once when usage crosses `warningThreshold`, and again only after a compaction brought it
 * back below.
 *
 * @example
 * ```ts
 * onEvent: (event) => event.type === 'context-warning' && console.warn(`Context at ${Math.round(event.usage.ratio * 100)}%`)
 * ```
 */
interface ContextWarningEvent {
  type: 'context-warning';
  usage: ContextUsage;
}

/**
 * A compaction is about to call the summarizer.
 *
 * @example
 * ```ts
 * onEvent: (event) => event.type === 'compaction-start' && console.log(`Compacting (${event.reason})…`)
 * ```
 */
interface CompactionStartEvent {
  type: 'compaction-start';
  reason: CompactionReason;
  tokensBefore: number;
  messagesBefore: number;
}

/**
 * A compaction finished, or failed (`error` set; the history is unchanged).
 *
 * @example
 * ```ts
 * onEvent: (event) => event.type === 'compaction-end' && console.log(`${event.tokensBefore} → ${event.tokensAfter}`)
 * ```
 */
interface CompactionEndEvent {
  type: 'compaction-end';
  reason: CompactionReason;
  tokensBefore: number;
  tokensAfter: number;
  messagesBefore: number;
  messagesAfter: number;
  /** Whether the compacted context is below the compaction limit. */
  belowLimit: boolean;
  /** The summary written, when one was (an overflow recovery may only cut the kept tail). */
  summary?: string;
  /** The rungs an overflow recovery climbed, in order (`reason: 'overflow'` only). */
  rungs?: CompactionRungReport[];
  /** Why the compaction failed; then nothing changed (`tokensAfter` equals `tokensBefore`). */
  error?: unknown;
  /**
   * `'heuristic'` when the host's summarizer failed and `heuristicSummarizer` wrote the checkpoint
   * in its place (see the `summarizerFallback` option); `summarizerError` says why it failed.
   */
  fallback?: 'heuristic';
  /** Why the host's summarizer failed, when `fallback` is set: a `CompactionError` with the original as its cause. */
  summarizerError?: unknown;
  /**
   * Why the compaction could not be recorded in the session store. The compaction itself
   * succeeded and is in effect; only the stored tree lacks its entry.
   */
  storeError?: unknown;
}

/**
 * Old tool results were archived behind a summary.
 *
 * @example
 * ```ts
 * onEvent: (event) => event.type === 'tool-results-summarized' && console.log(`${event.archived} results archived`)
 * ```
 */
interface ToolResultsSummarizedEvent {
  type: 'tool-results-summarized';
  archived: number;
  /** True when the model summarizer failed and the heuristic was used. */
  fallback: boolean;
  summary: string;
  error?: unknown;
}

/**
 * Tool output over the limits was truncated (and saved in full, when a spill store is configured).
 *
 * @example
 * ```ts
 * onEvent: (event) => event.type === 'tool-output-truncated' && console.log(event.toolName, event.spilledTo)
 * ```
 */
interface ToolOutputTruncatedEvent {
  type: 'tool-output-truncated';
  toolCallId: string;
  toolName: string;
  /** Where the full output was saved, if it was. */
  spilledTo?: string;
}

/**
 * One native compaction as `stats()` and the inspector show it.
 *
 * @example
 * ```ts
 * for (const native of manager.stats(history).nativeCompactions) console.log(native.provider, native.usage, native.summary);
 * ```
 */
export interface NativeCompactionReport {
  provider: string;
  api: NativeCompaction['api'];
  model: string;
  /** When the manager took it in (milliseconds since the epoch). */
  at: number;
  /** ctxkit's estimate of the context the provider compacted. */
  tokensBefore: number;
  /** What the provider's compaction step cost, when it said. */
  usage: CompactionUsage | undefined;
  /** The readable portable summary; `undefined` while OpenAI's opaque item has none written. */
  summary: string | undefined;
  /** `native`: the payload goes to its maker; `portable`: only the summary is sent (refused, or past the size limit). */
  state: 'native' | 'portable';
  /** Summarizer calls spent writing its portable summary (0 for Anthropic's readable block). */
  summarizerCalls: number;
}

/**
 * A provider-native compaction the manager took in (`adopted`), whose portable summary it wrote
 * (`summarized`, one summarizer call), or whose payload a provider refused so the portable summary
 * took its place (`refused`). Only with `compaction: nativeCompaction(…)`.
 *
 * @example
 * ```ts
 * onEvent: (event) => { if (event.type === 'native-compaction') console.log(event.action, event.compaction.provider); }
 * ```
 */
export interface NativeCompactionEvent {
  type: 'native-compaction';
  action: 'adopted' | 'summarized' | 'refused';
  compaction: NativeCompactionReport;
  /** The store failed to record it (the manager's history has it all the same). */
  storeError?: unknown;
  /** Writing the portable summary failed (a note stands in until the next try). */
  error?: unknown;
}

/**
 * Everything a context manager reports through `onEvent`.
 *
 * @example
 * ```ts
 * const onEvent = (event: ContextEvent) => console.log(event.type);
 * ```
 */
export type ContextEvent =
  | ContextWarningEvent
  | CompactionStartEvent
  | CompactionEndEvent
  | ToolResultsSummarizedEvent
  | ToolOutputTruncatedEvent
  | NativeCompactionEvent;
