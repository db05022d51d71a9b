import { ConfigError } from '../errors.js';
import type { ContextConfig } from './defaults.js';

/**
 * Throws a `ConfigError` naming `config` unless it is a resolved config object.
 *
 * @internal
 */
export function checkConfig(functionName: string, config: unknown): void {
  const value = config as Partial<ContextConfig> | null;
  if (typeof value === 'object' && value !== null && typeof value.reserveTokens === 'number') return;
  throw new ConfigError({
    message: `${functionName}: config must be a resolved ContextConfig; pass resolveConfig({ contextWindow, … })`,
    field: 'config',
  });
}
