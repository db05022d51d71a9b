import type { ContextUsage } from '../counting/context-usage.js';
import { countTextCached, countToolsTokens } from '../counting/count-text-cached.js';
import { estimateMessageTokens } from '../counting/estimate-message-tokens.js';
import { isAgentVisible } from '../counting/is-agent-visible.js';
import type { TokenCounter } from '../counting/token-counter.js';
import { ConfigError } from '../errors.js';
import type { SpendTally } from '../models/usage-cost.js';
import type { Message, Role } from '../types.js';
import type { TokenCalibration } from './calibration.js';
import type { NativeCompactionReport } from './events.js';

/**
 * Where the tokens of a context go, as a `/context` command prints it.
 *
 * @example
 * ```ts
 * const { systemPrompt, tools, byRole, byKind } = manager.stats(history).breakdown;
 * ```
 */
interface ContextBreakdown {
  systemPrompt: number;
  tools: number;
  /** Estimated tokens of the sent messages by role. */
  byRole: Record<Role, number>;
  /**
   * Estimated tokens of the sent messages by `meta.kind` (`message` when unset). An object without
   * a prototype, so that a kind named `toString`, `constructor` or `__proto__` is a kind like any other.
   */
  byKind: Record<string, number>;
  /** The sum of the above: an estimate, whatever `currentUsage` is based on. */
  total: number;
}

/**
 * A snapshot of the context.
 *
 * @example
 * ```ts
 * const stats = manager.stats(history);
 * console.log(formatContextStats(stats));
 * ```
 */
export interface ContextStats {
  /** Tokens of the next request (usage-backed where the provider reported it). */
  currentUsage: number;
  /** The context window, or the compaction limit when no window is known. */
  maxTokens: number | undefined;
  /** `currentUsage / maxTokens × 100`, or 0 without a maximum. */
  usagePercent: number;
  /** Messages sent to the model. */
  messageCount: number;
  /** Milliseconds since the oldest timestamped message in the history, if any has a timestamp. */
  oldestMessageAge: number | undefined;
  breakdown: ContextBreakdown;
  /** The underlying usage measure. */
  usage: ContextUsage;
  /**
   * What the responses recorded with `recordUsage` cost so far: tokens (and dollars, when the
   * manager has a pricing) split into uncached input, cache writes, cache reads and output, and the
   * cache hit rate. With native compaction, each provider compaction step the manager took in
   * (Anthropic's `usage.iterations[]`, a `POST /responses/compact` call) is added once when taken
   * in; `calls` counts only the recorded responses.
   */
  cost: SpendTally;
  /**
   * How the provider's count drifts from the counter's, learned from the usage the manager saw:
   * the ratio (1 to 4) by which estimates of what the provider has not counted yet are grown, and
   * the reports it rests on. `{ ratio: 1, samples: 0 }` before the first report of a request of
   * 2,048 tokens or more, and with `calibrate: false`.
   */
  calibration: TokenCalibration;
  /**
   * Every native compaction the manager took in, oldest first, with its cost and readable
   * summary (empty with `compaction: 'client'`).
   */
  nativeCompactions: NativeCompactionReport[];
  /**
   * Compactions whose checkpoint `heuristicSummarizer` wrote because the host's summarizer failed
   * (see the `summarizerFallback` option), since the manager was created.
   */
  summarizerFallbacks: number;
}

/** @internal */
export function buildBreakdown(
  sent: readonly Message[],
  options: {
    counter: TokenCounter;
    systemPrompt?: string | undefined;
    tools?: unknown;
    /** Tokens of `sent[index]` when the caller counted them already. */
    tokensAt?: (index: number) => number;
  },
): ContextBreakdown {
  const byRole: Record<Role, number> = { user: 0, assistant: 0, toolResult: 0 };
  // No prototype: a kind is data, and `toString` or `__proto__` must not reach Object's members.
  const byKind: Record<string, number> = Object.create(null);
  let total = 0;
  for (let index = 0; index < sent.length; index++) {
    const message = sent[index]!;
    if (!isAgentVisible(message)) continue;
    const tokens = options.tokensAt ? options.tokensAt(index) : estimateMessageTokens(message, options.counter);
    byRole[message.role] += tokens;
    const kind = message.meta?.kind ?? 'message';
    byKind[kind] = (byKind[kind] ?? 0) + tokens;
    total += tokens;
  }
  const systemPrompt = options.systemPrompt ? countTextCached(options.systemPrompt, options.counter) : 0;
  const tools = countToolsTokens(options.tools, options.counter);
  return { systemPrompt, tools, byRole, byKind, total: total + systemPrompt + tools };
}

/** @internal */
export function oldestAge(history: readonly Message[], now: number): number | undefined {
  let oldest: number | undefined;
  for (const message of history) {
    const timestamp = message.meta?.timestamp;
    if (timestamp !== undefined && (oldest === undefined || timestamp < oldest)) oldest = timestamp;
  }
  return oldest === undefined ? undefined : Math.max(0, now - oldest);
}

/**
 * Formats a token count the way status lines do: `950`, `58K`, `1.2M`.
 *
 * @param tokens - A token count.
 * @returns A short label.
 *
 * @example
 * ```ts
 * formatTokens(58_432); // '58K'
 * ```
 *
 * @internal
 */
export function formatTokens(tokens: number): string {
  if (!Number.isFinite(tokens)) return '?';
  if (tokens < 1000) return String(Math.round(tokens));
  if (tokens < 1_000_000) return `${Math.round(tokens / 1000)}K`;
  return `${(tokens / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

/**
 * A percentage for display: finite, or `?` when it is not.
 *
 * @internal
 */
export function percent(value: number, digits: number): string {
  return Number.isFinite(value) ? (digits === 0 ? String(Math.round(value)) : value.toFixed(digits)) : '?';
}

/**
 * Throws a `ConfigError` naming `stats` unless it has the numbers the formatters read.
 *
 * @internal
 */
export function checkStats(functionName: string, stats: unknown): asserts stats is ContextStats {
  const value = stats as Partial<ContextStats> | null | undefined;
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof value.currentUsage !== 'number' ||
    typeof value.usagePercent !== 'number' ||
    typeof value.breakdown !== 'object' ||
    value.breakdown === null
  ) {
    throw new ConfigError({
      message: `${functionName}: stats must be the ContextStats that manager.stats(history) returns.`,
      field: 'stats',
    });
  }
}
