import { type ContextStats, checkStats, formatTokens, percent } from './stats.js';

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
