import { type ContextStats, checkStats, percent } from './stats.js';

/** How long ago, in words: `just now`, `5 minutes ago`, `3 hours ago`, `2 days ago`. */
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
 * @returns Several lines: usage, maximum, messages, oldest message, the calibration when the provider
 * counts other than the estimate (`stats.calibration.ratio` ≠ 1), the summarizer fallbacks when there
 * were any (`stats.summarizerFallbacks` > 0), and the breakdown.
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
  // Older stats objects (a host's own, a cached copy) may lack the two: nothing to say then.
  const { calibration, summarizerFallbacks } = stats as Partial<ContextStats>;
  if (calibration && Number.isFinite(calibration.ratio) && calibration.ratio !== 1) {
    lines.push(
      `  Provider counts ${calibration.ratio.toFixed(2)}× the estimate (from ${calibration.samples} usage reports); estimates grow by it`,
    );
  }
  if (typeof summarizerFallbacks === 'number' && summarizerFallbacks > 0) {
    const compactions = summarizerFallbacks === 1 ? 'compaction' : 'compactions';
    lines.push(
      `  Summarizer fallbacks: ${summarizerFallbacks} ${compactions} written by the heuristic summarizer (the summarizer failed)`,
    );
  }
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
