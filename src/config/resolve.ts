import { ConfigError, firstIssue } from '../errors.js';
import { type ContextConfig, type ContextConfigInput, DEFAULT_CONFIG, DEFAULT_TOOL_OUTPUT_LIMITS } from './defaults.js';
import { effectiveTokenLimit } from './effective-limits.js';
import { contextConfigSchema } from './schema.js';

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
  const parsed = contextConfigSchema.safeParse(input);
  if (!parsed.success) {
    const { field, detail } = firstIssue(parsed.error, '(config)');
    throw new ConfigError({
      message: `Invalid ctxkit config: ${field} ${detail}. Received ${describe(input, parsed.error.issues[0]?.path)}.`,
      field,
      cause: parsed.error,
    });
  }
  const { toolOutput, ...rest } = parsed.data;
  const given = stripUndefined(rest);
  const config: ContextConfig = {
    ...DEFAULT_CONFIG,
    ...given,
    toolOutput: Object.freeze({ ...DEFAULT_TOOL_OUTPUT_LIMITS, ...stripUndefined(toolOutput ?? {}) }),
  };
  if (given.reserveTokens === undefined && config.contextWindow !== undefined) {
    config.reserveTokens = defaultReserve(config.contextWindow);
  }
  checkConsistency(config, given);
  if (given.warningThreshold === undefined) config.warningThreshold = defaultWarningThreshold(config);
  Object.freeze(config);
  resolved.add(config);
  return config;
}

const resolved = new WeakSet<object>();

/**
 * A configuration object passed to a function: an already resolved one is used as it is (no
 * validation on the hot path), anything else goes through {@link resolveConfig}.
 *
 * @internal
 */
export function toConfig(input: ContextConfig | ContextConfigInput | undefined): ContextConfig {
  if (input !== undefined && resolved.has(input)) return input as ContextConfig;
  return resolveConfig(input as ContextConfigInput | undefined);
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

function checkConsistency(config: ContextConfig, given: Partial<ContextConfig>): void {
  const { contextWindow, reserveTokens, warningThreshold, compactionThreshold } = config;
  if (compactionThreshold !== undefined && contextWindow === undefined) {
    throw new ConfigError({
      message:
        'Invalid ctxkit config: compactionThreshold is a share of the context window, but contextWindow is not set. Set contextWindow or remove compactionThreshold.',
      field: 'compactionThreshold',
    });
  }
  if (contextWindow !== undefined) {
    const floor = minimumLimit(contextWindow);
    const left = contextWindow - reserveTokens;
    if (left < floor) {
      const room = left <= 0 ? 'leaves no room' : `leaves a limit of only ${left} token${left === 1 ? '' : 's'}`;
      throw new ConfigError({
        message: `Invalid ctxkit config: reserveTokens (${reserveTokens}) ${room} in contextWindow (${contextWindow}); the limit must be at least ${floor} tokens. Lower reserveTokens to at most ${contextWindow - floor} (a quarter of the window, ${defaultReserve(contextWindow)}, is typical), or leave it unset to scale it with the window.`,
        field: 'reserveTokens',
      });
    }
    if (compactionThreshold !== undefined && Math.floor(contextWindow * compactionThreshold) < floor) {
      throw new ConfigError({
        message: `Invalid ctxkit config: compactionThreshold (${compactionThreshold}) of contextWindow (${contextWindow}) leaves a limit of only ${Math.floor(contextWindow * compactionThreshold)} tokens; the limit must be at least ${floor}. Raise compactionThreshold to at least ${Math.ceil((floor / contextWindow) * 1000) / 1000}, or remove it.`,
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
      message: `Invalid ctxkit config: warningThreshold (${warningThreshold}) is above compactionThreshold (${compactionThreshold}); the warning would never be seen. Set warningThreshold below compactionThreshold, or leave it unset.`,
      field: 'warningThreshold',
    });
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function describe(input: unknown, path: readonly PropertyKey[] | undefined): string {
  let value: unknown = input;
  for (const key of path ?? []) value = (value as Record<PropertyKey, unknown> | undefined)?.[key];
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  return value === undefined ? 'undefined' : typeof value;
}
