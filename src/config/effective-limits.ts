import { ConfigError } from '../errors.js';
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

/**
 * `keepRecentTokens` clamped to at most half of the effective token limit.
 *
 * @param config - A resolved configuration.
 * @returns The token budget of the verbatim tail.
 *
 * @example
 * ```ts
 * effectiveKeepRecentTokens(resolveConfig()); // 4000: half of maxTokens 8000
 * ```
 */
export function effectiveKeepRecentTokens(config: ContextConfig): number {
  checkConfig('effectiveKeepRecentTokens', config);
  const limit = effectiveTokenLimit(config);
  if (limit === undefined) return config.keepRecentTokens;
  return Math.min(config.keepRecentTokens, Math.floor(limit / 2));
}

/** Throws a `ConfigError` naming `config` unless it is a resolved config object. */
function checkConfig(functionName: string, config: unknown): void {
  const value = config as Partial<ContextConfig> | null;
  if (typeof value === 'object' && value !== null && typeof value.reserveTokens === 'number') return;
  throw new ConfigError({
    message: `${functionName}: config must be a resolved ContextConfig; pass resolveConfig({ contextWindow, … })`,
    field: 'config',
  });
}
