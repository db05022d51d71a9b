import { ConfigError } from '../errors.js';
import { parseOptions } from '../validation/parse-options.js';
import {
  type ContextConfig,
  type ContextConfigInput,
  checkedToolOutputs,
  DEFAULT_CONFIG,
  DEFAULT_TOOL_OUTPUT_LIMITS,
} from './defaults.js';
import { effectiveTokenLimit } from './effective-token-limit.js';
import { configInputSchema } from './schema.js';

/**
 * Validates a partial configuration and fills in the reference defaults.
 *
 * Defaults that depend on other fields: an unset `reserveTokens` is `min(16384, contextWindow / 4)`,
 * and an unset `warningThreshold` is lowered below the limit when 0.8 of the window would be at or
 * past it.
 *
 * @param input - The host's settings; `undefined` gives the defaults.
 * @returns The complete configuration, frozen (deeply): derive a new one with `resolveConfig({ ...config, … })`.
 * @throws {@link ConfigError} naming the field when a value is negative, not finite, of the wrong
 * type, unknown, or contradicts another (a reserve or compaction threshold that leaves less than
 * 1,024 tokens in the window, a warning threshold set above the compaction threshold).
 *
 * @example
 * ```ts
 * const config = resolveConfig({ contextWindow: 128_000 });
 * effectiveTokenLimit(config); // 111_616
 * ```
 */
export function resolveConfig(input: ContextConfigInput = {}): ContextConfig {
  return resolveFor(input, 'resolveConfig', 'config');
}

/** {@link resolveConfig}, with errors that name the public function and how it calls the settings. */
function resolveFor(input: ContextConfigInput, functionName: string, name: string): ContextConfig {
  const parsed = parseOptions(functionName, configInputSchema, input, name);
  const { toolOutput, ...rest } = parsed;
  const given = stripUndefined(rest);
  const config: ContextConfig = {
    ...DEFAULT_CONFIG,
    ...given,
    toolOutput: Object.freeze({ ...DEFAULT_TOOL_OUTPUT_LIMITS, ...stripUndefined(toolOutput ?? {}) }),
  };
  if (given.reserveTokens === undefined && config.contextWindow !== undefined) {
    config.reserveTokens = defaultReserve(config.contextWindow);
  }
  checkConsistency(config, given, `${functionName}: ${name}.`);
  if (given.warningThreshold === undefined) config.warningThreshold = defaultWarningThreshold(config);
  Object.freeze(config);
  resolved.add(config);
  checkedToolOutputs.add(config.toolOutput);
  return config;
}

const resolved = new WeakSet<object>();
/**
 * A configuration object passed to a function: an already resolved one is used as it is (no
 * validation on the hot path), anything else goes through {@link resolveConfig}.
 *
 * @internal
 */
export function toConfig(input: ContextConfig | ContextConfigInput | undefined, functionName?: string): ContextConfig {
  if (input !== undefined && resolved.has(input)) return input as ContextConfig;
  if (functionName === undefined) return resolveConfig(input as ContextConfigInput | undefined);
  return resolveFor((input ?? {}) as ContextConfigInput, functionName, 'options.config');
}

/** The fewest tokens a limit derived from the window may leave (less for a window under twice this). */
const MIN_LIMIT_TOKENS = 1_024;

/** The reference reserve, scaled down to a quarter of a window smaller than 65,536 tokens. */
function defaultReserve(contextWindow: number): number {
  return Math.min(DEFAULT_CONFIG.reserveTokens, Math.floor(contextWindow / 4));
}

function minimumLimit(contextWindow: number): number {
  return Math.min(MIN_LIMIT_TOKENS, Math.ceil(contextWindow / 2));
}

/**
 * The reference warning share, unless it would come at or after the limit (where it is never seen):
 * then 90% of the limit's share of the window.
 */
function defaultWarningThreshold(config: ContextConfig): number {
  const limit = effectiveTokenLimit(config);
  const fallback = DEFAULT_CONFIG.warningThreshold;
  if (limit === undefined || config.contextWindow === undefined) return fallback;
  const limitShare = limit / config.contextWindow;
  if (fallback < limitShare) return fallback;
  return Math.max(Math.floor(limitShare * 900) / 1000, limitShare / 2);
}

function checkConsistency(config: ContextConfig, given: Partial<ContextConfig>, prefix: string): void {
  const { contextWindow, reserveTokens, warningThreshold, compactionThreshold } = config;
  if (compactionThreshold !== undefined && contextWindow === undefined) {
    throw new ConfigError({
      message: `${prefix}compactionThreshold is a share of the context window, but contextWindow is not set. Set contextWindow or remove compactionThreshold.`,
      field: 'compactionThreshold',
    });
  }
  if (contextWindow !== undefined) {
    const floor = minimumLimit(contextWindow);
    const left = contextWindow - reserveTokens;
    if (left < floor) {
      const room = left <= 0 ? 'leaves no room' : `leaves a limit of only ${left} token${left === 1 ? '' : 's'}`;
      throw new ConfigError({
        message: `${prefix}reserveTokens (${reserveTokens}) ${room} in contextWindow (${contextWindow}); the limit must be at least ${floor} tokens. Lower reserveTokens to at most ${contextWindow - floor} (a quarter of the window, ${defaultReserve(contextWindow)}, is typical), or leave it unset to scale it with the window.`,
        field: 'reserveTokens',
      });
    }
    if (compactionThreshold !== undefined && Math.floor(contextWindow * compactionThreshold) < floor) {
      throw new ConfigError({
        message: `${prefix}compactionThreshold (${compactionThreshold}) of contextWindow (${contextWindow}) leaves a limit of only ${Math.floor(contextWindow * compactionThreshold)} tokens; the limit must be at least ${floor}. Raise compactionThreshold to at least ${Math.ceil((floor / contextWindow) * 1000) / 1000}, or remove it.`,
        field: 'compactionThreshold',
      });
    }
  }
  if (
    given.warningThreshold !== undefined &&
    compactionThreshold !== undefined &&
    warningThreshold > compactionThreshold
  ) {
    throw new ConfigError({
      message: `${prefix}warningThreshold (${warningThreshold}) is above compactionThreshold (${compactionThreshold}); the warning would never be seen. Set warningThreshold below compactionThreshold, or leave it unset.`,
      field: 'warningThreshold',
    });
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
