import { checkConfig } from './check-config.js';
import type { ContextConfig } from './defaults.js';
import { effectiveTokenLimit } from './effective-token-limit.js';

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
 *
 * @internal
 */
export function effectiveKeepRecentTokens(config: ContextConfig): number {
  checkConfig('effectiveKeepRecentTokens', config);
  const limit = effectiveTokenLimit(config);
  if (limit === undefined) return config.keepRecentTokens;
  return Math.min(config.keepRecentTokens, Math.floor(limit / 2));
}
