import { checkConfig } from './check-config.js';
import type { ContextConfig } from './defaults.js';

/**
 * The token count at which compaction triggers: `contextWindow - reserveTokens` when a window is
 * set (or `contextWindow × compactionThreshold` when that is smaller), else `maxTokens`, else none.
 *
 * @param config - A resolved configuration.
 * @returns The limit in tokens, or `undefined` when only the message count applies.
 *
 * @example
 * ```ts
 * effectiveTokenLimit(resolveConfig({ contextWindow: 200_000, compactionThreshold: 0.8 })); // 160_000
 * ```
 */
export function effectiveTokenLimit(config: ContextConfig): number | undefined {
  checkConfig('effectiveTokenLimit', config);
  const { contextWindow, reserveTokens, compactionThreshold, maxTokens } = config;
  if (contextWindow !== undefined && contextWindow > 0) {
    const byReserve = contextWindow - reserveTokens;
    if (compactionThreshold === undefined) return byReserve;
    return Math.min(byReserve, Math.floor(contextWindow * compactionThreshold));
  }
  return maxTokens > 0 ? maxTokens : undefined;
}
