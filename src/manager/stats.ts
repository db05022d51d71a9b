import type { ContextUsage } from '../counting/context-usage.js';
import {
  countTextCached,
  countToolsTokens,
  estimateMessageTokens,
  isAgentVisible,
  type TokenCounter,
} from '../counting/token-counter.js';
import { ConfigError } from '../errors.js';
import type { Message, Role } from '../types.js';

/**
 * Where the tokens of a context go, as a `/context` command prints it.
 *
 * @example
 * ```ts
 * const { systemPrompt, tools, byRole, byKind } = manager.stats(history).breakdown;
 * ```
 */
export interface ContextBreakdown {
  systemPrompt: number;
  tools: number;
  /** Estimated tokens of the sent messages by role. */
  byRole: Record<Role, number>;
  /** Estimated tokens of the sent messages by `meta.kind` (`message` when unset). */
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
  const byKind: Record<string, number> = {};
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
 * A one-line status such as `Context: 45% (58K/128K)`.
 *
 * @param stats - From `manager.stats()`.
 * @returns The status line.
 *
 * @example
 * ```ts
 * console.log(formatStatusLine(manager.stats(history))); // Context: 45% (58K/128K)
 * ```
 */
export function formatStatusLine(stats: ContextStats): string {
  checkStats('formatStatusLine', stats);
  if (stats.maxTokens === undefined)
    return `Context: ${formatTokens(stats.currentUsage)} tokens, ${stats.messageCount} messages`;
  return `Context: ${percent(stats.usagePercent, 0)}% (${formatTokens(stats.currentUsage)}/${formatTokens(stats.maxTokens)})`;
}

/** A percentage for display: finite, or `?` when it is not. */
function percent(value: number, digits: number): string {
  return Number.isFinite(value) ? (digits === 0 ? String(Math.round(value)) : value.toFixed(digits)) : '?';
}

/** Throws a `ConfigError` naming `stats` unless it has the numbers the formatters read. */
function checkStats(functionName: string, stats: unknown): asserts stats is ContextStats {
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

function formatAge(milliseconds: number): string {
  const minutes = Math.floor(milliseconds / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} hour${hours === 1 ? '' : 's'} ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

/**
 * Renders stats as the plain text a `/context` command prints.
 *
 * @param stats - From `manager.stats()`.
 * @returns Several lines: usage, maximum, messages, oldest message and the breakdown.
 *
 * @example
 * ```ts
 * console.log(formatContextStats(manager.stats(history)));
 * // Context usage:
 * //   Current:  58,432 tokens (45.6%)
 * //   …
 * ```
 */
export function formatContextStats(stats: ContextStats): string {
  checkStats('formatContextStats', stats);
  const number = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '?');
  const { breakdown } = stats;
  const lines = [
    'Context usage:',
    `  Current:  ${number(stats.currentUsage)} tokens${stats.maxTokens ? ` (${percent(stats.usagePercent, 1)}%)` : ''}${stats.usage.source === 'estimate' ? ' (estimated)' : ''}`,
    `  Maximum:  ${stats.maxTokens === undefined ? 'not set' : `${number(stats.maxTokens)} tokens`}`,
    `  Messages: ${stats.messageCount}`,
  ];
  if (stats.oldestMessageAge !== undefined) lines.push(`  Oldest:   ${formatAge(stats.oldestMessageAge)}`);
  lines.push('', 'Breakdown (estimated):');
  const row = (label: string, tokens: number) => `  ${`${label}:`.padEnd(22)}${number(tokens).padStart(8)} tokens`;
  lines.push(row('System prompt', breakdown.systemPrompt));
  lines.push(row('Tool definitions', breakdown.tools));
  for (const [role, tokens] of Object.entries(breakdown.byRole)) {
    if (tokens > 0)
      lines.push(
        row(`${role === 'toolResult' ? 'Tool result' : role[0]!.toUpperCase() + role.slice(1)} messages`, tokens),
      );
  }
  const kinds = Object.entries(breakdown.byKind).filter(([kind, tokens]) => kind !== 'message' && tokens > 0);
  if (kinds.length > 0) {
    lines.push('', 'By kind:');
    for (const [kind, tokens] of kinds) lines.push(row(kind, tokens));
  }
  return lines.join('\n');
}
