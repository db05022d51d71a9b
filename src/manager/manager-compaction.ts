import type { ContextConfig } from '../config/index.js';
import type { ContextUsage } from '../counting/context-usage.js';
import type { TokenCounter } from '../counting/token-counter.js';
import { type CompactionResult, compact, defaultSummaryBudget } from '../pipeline/compact.js';
import type { Message } from '../types.js';
import type { CompactionBackoff } from './compaction-backoff.js';
import { type CompactionLevel, chooseCompactionLevel } from './compaction-levels.js';
import type { CallOptions, ContextManagerOptions } from './context-manager-types.js';
import type { CompactionReason, ContextEvent } from './events.js';
import type { ManagedHistory } from './managed-history.js';
import { persistCompaction } from './persist-compaction.js';

/** A compaction whose result is not adopted yet (an overflow recovery adopts it after the retry). @internal */
export interface PendingCompaction {
  result: CompactionResult;
  reason: CompactionReason;
  before: ContextUsage;
  history: readonly Message[];
}

/** What {@link ManagerCompaction} needs from the manager. @internal */
export interface ManagerCompactionParts {
  options: ContextManagerOptions;
  config: ContextConfig;
  counter: TokenCounter;
  limit: number | undefined;
  levels: readonly CompactionLevel[];
  /** The most the model writes in one response. */
  maxModelOutput: number;
  /** What a level's kept tail must leave under the limit to count as fitting: room for a summary. */
  summaryRoom: number;
  /** Tokens of the system prompt and tools. */
  extras: () => number;
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
  constructor(private readonly parts: ManagerCompactionParts) {}

  /** Runs a compaction; reports a failure through `compaction-end` and rethrows. */
  async run(
    history: readonly Message[],
    reason: CompactionReason,
    callOptions: CallOptions & { instructions?: string } = {},
  ): Promise<PendingCompaction> {
    const { options, counter, limit, extras, maxModelOutput, emit } = this.parts;
    const before = this.parts.usageOf(history);
    const { level, recentTokens } = chooseCompactionLevel(history, this.parts.levels, {
      counter,
      limit,
      extra: extras() + this.parts.summaryRoom,
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
  async adopt(pending: PendingCompaction, known?: readonly Message[]): Promise<CompactionResult> {
    const { state, backoff, options } = this.parts;
    const { result } = pending;
    state.replace(result.messages, known);
    const after = this.parts.usage();
    if (after.level === 'compact') backoff.failed(after);
    else backoff.succeeded();
    if (after.level === 'ok') this.parts.belowWarning();
    const storeError = await persistCompaction(
      options.store,
      options.sessionId,
      pending.history,
      result,
      pending.reason,
    );
    this.parts.emit({
      ...endEvent(pending, after),
      summary: result.summary,
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
