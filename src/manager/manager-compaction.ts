import type { ContextConfig } from '../config/index.js';
import type { ContextUsage } from '../counting/context-usage.js';
import type { TokenCounter } from '../counting/token-counter.js';
import { CompactionError } from '../errors.js';
import { type CompactionResult, compact, defaultSummaryBudget } from '../pipeline/compact.js';
import { heuristicSummarizer } from '../summarizing/heuristic-summarizer.js';
import type { Message } from '../types.js';
import type { Calibration } from './calibration.js';
import type { CompactionBackoff } from './compaction-backoff.js';
import { type CompactionLevel, chooseCompactionLevel } from './compaction-levels.js';
import type { CallOptions, ContextManagerOptions } from './context-manager-types.js';
import type { CompactionReason, CompactionRungReport, ContextEvent } from './events.js';
import type { ManagedHistory } from './managed-history.js';
import { persistCompaction } from './persist-compaction.js';

/**
 * A compaction whose result is not adopted yet (an overflow recovery adopts it after the retry).
 * `messages` is the history to adopt: the summarize step's result, and for an overflow recovery the
 * kept tail cut further by the rungs it climbed (`rungs`). `result` is undefined when a recovery
 * only cut the tail: then nothing is recorded in the store.
 *
 * @internal
 */
export interface PendingCompaction {
  result: CompactionResult | undefined;
  messages: readonly Message[];
  reason: CompactionReason;
  before: ContextUsage;
  history: readonly Message[];
  rungs?: CompactionRungReport[];
  /** Why the host's summarizer failed, when the heuristic summarizer wrote `result` in its place. */
  summarizerError?: unknown;
}

/**
 * A summary written for a compaction: `summarizerError` is set when the host's summarizer failed
 * and the heuristic summarizer wrote it instead.
 *
 * @internal
 */
export interface Summarized {
  result: CompactionResult;
  summarizerError?: unknown;
}

/**
 * The failures of the host's summarizer the heuristic summarizer stands in for: it threw (or timed
 * out), answered with nothing or with a summary cut off, or with one too large to shrink the context.
 * Not an abort (the host stopped the call), nor `NOTHING_TO_COMPACT` (no summarizer can help).
 */
const FALLBACK_CODES: ReadonlySet<string> = new Set([
  'SUMMARIZER_FAILED',
  'SUMMARY_EMPTY',
  'SUMMARY_TRUNCATED',
  'NOT_SMALLER',
]);

/** What {@link ManagerCompaction} needs from the manager. @internal */
interface ManagerCompactionParts {
  options: ContextManagerOptions;
  config: ContextConfig;
  counter: TokenCounter;
  limit: number | undefined;
  levels: readonly CompactionLevel[];
  /** The most the model writes in one response. */
  maxModelOutput: number;
  /**
   * The most a threshold compaction's checkpoint may take, pinned facts included (the cost-aware
   * policy's); unset, and for a manual compaction, the summary budget and the pinned facts' own room apply.
   */
  maxCheckpointTokens?: number | undefined;
  /** What a level's kept tail must leave under the limit to count as fitting: room for a summary. */
  summaryRoom: number;
  /** Tokens of the system prompt and tools. */
  extras: () => number;
  /** How the provider's count drifts from the counter's: estimates grow by it against the limit. */
  calibration: Calibration;
  emit: (event: ContextEvent) => void;
  state: ManagedHistory;
  backoff: CompactionBackoff;
  /** The manager's current usage. */
  usage: () => ContextUsage;
  /** The usage of a list the host passed (the manager's own when it holds it). */
  usageOf: (list: readonly Message[]) => ContextUsage;
  /** The context is back below the warning threshold. */
  belowWarning: () => void;
}

/**
 * The manager's compactions: run one (the one async step, at a level whose kept tail fits), then
 * adopt it (the manager's state, the store, the events), or drop it.
 *
 * @internal
 */
export class ManagerCompaction {
  /** Compactions adopted whose summary the heuristic summarizer wrote, the host's having failed. */
  fallbacks = 0;

  constructor(readonly parts: ManagerCompactionParts) {}

  /** Runs a compaction; reports a failure through `compaction-end` and rethrows. */
  async run(
    history: readonly Message[],
    reason: CompactionReason,
    callOptions: CallOptions & { instructions?: string } = {},
  ): Promise<PendingCompaction & { result: CompactionResult }> {
    const { counter, limit, extras, calibration } = this.parts;
    const { level, recentTokens } = chooseCompactionLevel(history, this.parts.levels, {
      counter,
      limit,
      extra: extras(),
      room: this.parts.summaryRoom,
      scale: (tokens) => calibration.scale(tokens),
    });
    const started = this.begin(history, reason);
    try {
      const cap = reason === 'threshold' ? this.parts.maxCheckpointTokens : undefined;
      const choice = { level, recentTokens, ...(cap === undefined ? {} : { maxCheckpointTokens: cap }) };
      const summarized = await this.summarize(level.prepare(history), choice, callOptions);
      return { ...started, ...summarized, messages: summarized.result.messages };
    } catch (error) {
      this.parts.emit({ ...endEvent(started, undefined), error });
      throw error;
    }
  }

  /** Notes the usage before a compaction and reports its start. */
  begin(history: readonly Message[], reason: CompactionReason): Omit<PendingCompaction, 'result' | 'messages'> {
    const before = this.parts.usageOf(history);
    this.parts.emit({
      type: 'compaction-start',
      reason,
      tokensBefore: before.tokens,
      messagesBefore: before.messageCount,
    });
    return { reason, before, history };
  }

  /**
   * The one async step: summarizes what is older than the chosen level's kept tail (of
   * `recentTokens`). The summary's budget is what the tail leaves under the limit (10% free),
   * under `target` too when one is given (else under `maxCheckpointTokens`, when given), within the
   * model's output cap. Under either, the pinned facts share that budget. Reports nothing.
   *
   * When the host's summarizer fails (see `FALLBACK_CODES`) the heuristic summarizer, which cannot
   * fail, writes the checkpoint in its place under the same budget, unless the host turned that off
   * (`summarizerFallback: false`); the host's error is returned beside it. When the heuristic
   * checkpoint does not help either, the host's error is thrown.
   */
  async summarize(
    history: readonly Message[],
    choice: { level: CompactionLevel; recentTokens: number; target?: number; maxCheckpointTokens?: number },
    callOptions: CallOptions & { instructions?: string } = {},
  ): Promise<Summarized> {
    const { options, counter, extras, maxModelOutput, calibration } = this.parts;
    const { level, recentTokens, target, maxCheckpointTokens } = choice;
    // As the provider will count the kept tail, system prompt and tools.
    const used = calibration.scale(recentTokens + extras());
    // compact's own budget rule (what the kept tail leaves under the limit), within the model's cap.
    let maxOutputTokens = Math.min(maxModelOutput, defaultSummaryBudget(level.config, used));
    if (target !== undefined) {
      maxOutputTokens = Math.min(maxOutputTokens, Math.max(MIN_SUMMARY_TOKENS, target - used - Math.ceil(target / 10)));
    } else if (maxCheckpointTokens !== undefined) {
      maxOutputTokens = Math.min(maxOutputTokens, maxCheckpointTokens);
    }
    const whole = target !== undefined || maxCheckpointTokens !== undefined;
    const run = (summarizer: ContextManagerOptions['summarizer']) =>
      compact(history, {
        summarizer,
        config: level.config,
        counter,
        maxOutputTokens,
        // Under a target or a checkpoint cap the whole checkpoint, pinned facts included, stays within the summary budget.
        ...(whole ? { maxPinnedTokens: 0 } : {}),
        ...(options.systemPrompt ? { systemPrompt: options.systemPrompt } : {}),
        ...(options.tools === undefined ? {} : { tools: options.tools }),
        ...(callOptions.instructions ? { instructions: callOptions.instructions } : {}),
        ...(callOptions.signal ? { signal: callOptions.signal } : {}),
      });
    try {
      return { result: await run(options.summarizer) };
    } catch (error) {
      if (options.summarizerFallback === false || !isFallbackError(error)) throw error;
      try {
        return { result: await run(heuristicSummarizer), summarizerError: error };
      } catch {
        // The heuristic checkpoint would not shrink the context either: the host's failure is the news.
        throw error;
      }
    }
  }

  /** Makes a compaction the manager's state, records it in the store, and reports it. */
  async adopt<Pending extends PendingCompaction>(
    pending: Pending,
    known?: readonly Message[],
  ): Promise<Pending['result']> {
    const { state, backoff, options } = this.parts;
    const { result } = pending;
    state.replace(pending.messages, known);
    if (result !== undefined && pending.summarizerError !== undefined) this.fallbacks++;
    const after = this.parts.usage();
    if (after.level === 'compact') backoff.failed(after);
    else backoff.succeeded();
    if (after.level === 'ok') this.parts.belowWarning();
    const storeError =
      result === undefined
        ? undefined
        : await persistCompaction(options.store, options.sessionId, pending.history, result, pending.reason);
    this.parts.emit({
      ...endEvent(pending, after),
      ...(result === undefined ? {} : { summary: result.summary }),
      ...(storeError === undefined ? {} : { storeError }),
    });
    state.handOut();
    return result;
  }

  /** A compaction that did not help is dropped: neither the manager nor the store takes it. */
  drop(pending: PendingCompaction, error: unknown): void {
    this.parts.emit({ ...endEvent(pending, undefined), error });
  }
}

/** Whether the heuristic summarizer may stand in for the host's after `error`. */
function isFallbackError(error: unknown): boolean {
  return CompactionError.isInstance(error) && FALLBACK_CODES.has(error.code);
}

/** The smallest summary budget an overflow recovery asks for (compact's own floor). */
const MIN_SUMMARY_TOKENS = 256;

function endEvent(pending: Omit<PendingCompaction, 'result' | 'messages'>, after: ContextUsage | undefined) {
  const { reason, before, rungs, summarizerError } = pending;
  return {
    type: 'compaction-end' as const,
    reason,
    tokensBefore: before.tokens,
    tokensAfter: (after ?? before).tokens,
    messagesBefore: before.messageCount,
    messagesAfter: (after ?? before).messageCount,
    belowLimit: (after ?? before).level !== 'compact',
    ...(rungs === undefined ? {} : { rungs }),
    ...(summarizerError === undefined ? {} : { fallback: 'heuristic' as const, summarizerError }),
  };
}
