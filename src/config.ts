import { z } from 'zod';
import { ConfigError, firstIssue } from './errors.js';

/** How old tool results are summarized: by the model, locally, or not at all. */
export type ToolSummaryStrategy = 'llm' | 'heuristic' | 'off';

/** How tool output that is too long is cut: keep the head, or the head and the tail. */
export type TruncateMode = 'head' | 'head_tail';

/**
 * Limits applied to one tool output before it is stored.
 *
 * @example
 * ```ts
 * const limits: ToolOutputLimits = { ...DEFAULT_TOOL_OUTPUT_LIMITS, maxLines: 500 };
 * ```
 */
export interface ToolOutputLimits {
  /** Lines kept at most. @default 2000 */
  maxLines: number;
  /** UTF-8 bytes kept at most. @default 51200 */
  maxBytes: number;
  /** Unicode code points kept at most. @default 204800 */
  maxChars: number;
  /** Outputs longer than this many code points should be spilled to a file. @default 204800 */
  largeOutputThreshold: number;
  /** Which part of an over-long output is kept. @default 'head_tail' */
  truncateMode: TruncateMode;
}

/**
 * The complete configuration, as {@link resolveConfig} returns it.
 *
 * @example
 * ```ts
 * const config: ContextConfig = resolveConfig({ contextWindow: 200_000 });
 * ```
 */
export interface ContextConfig {
  /** Compact when more visible messages than this, if no token limit applies. @default 50 */
  maxMessages: number;
  /** The token limit used when no context window is set; `0` means none. @default 8000 */
  maxTokens: number;
  /** Messages kept verbatim when splitting by count (`keepRecentTokens` = 0). @default 5 */
  keepRecent: number;
  /** Tokens of recent history kept verbatim; clamped to half the effective limit. @default 20000 */
  keepRecentTokens: number;
  /** Tokens left free in the window for the response. @default 16384 */
  reserveTokens: number;
  /** Visible tool results allowed before the oldest are summarized. @default 10 */
  toolCallCutoff: number;
  /** How old tool results are summarized. @default 'llm' */
  toolSummaryStrategy: ToolSummaryStrategy;
  /** Whether thresholds trigger compaction. @default true */
  autoCompact: boolean;
  /** The model's context window in tokens; unset means the limit is `maxTokens`. */
  contextWindow: number | undefined;
  /** Share of the window at which a warning is raised. @default 0.8 */
  warningThreshold: number;
  /** Share of the window at which to compact, when earlier than `contextWindow - reserveTokens`. */
  compactionThreshold: number | undefined;
  /** Limits for one tool output. */
  toolOutput: ToolOutputLimits;
}

/**
 * Configuration as a host writes it: every field optional, `toolOutput` partial too.
 *
 * @example
 * ```ts
 * const input: ContextConfigInput = { contextWindow: 128_000, toolOutput: { maxLines: 400 } };
 * ```
 */
export type ContextConfigInput = Partial<Omit<ContextConfig, 'toolOutput'>> & {
  toolOutput?: Partial<ToolOutputLimits>;
};

/** The reference limits for one tool output. */
export const DEFAULT_TOOL_OUTPUT_LIMITS: Readonly<ToolOutputLimits> = Object.freeze({
  maxLines: 2000,
  maxBytes: 50 * 1024,
  maxChars: 200 * 1024,
  largeOutputThreshold: 200 * 1024,
  truncateMode: 'head_tail',
});

/** The reference defaults. */
export const DEFAULT_CONFIG: Readonly<ContextConfig> = Object.freeze({
  maxMessages: 50,
  maxTokens: 8000,
  keepRecent: 5,
  keepRecentTokens: 20_000,
  reserveTokens: 16_384,
  toolCallCutoff: 10,
  toolSummaryStrategy: 'llm',
  autoCompact: true,
  contextWindow: undefined,
  warningThreshold: 0.8,
  compactionThreshold: undefined,
  toolOutput: DEFAULT_TOOL_OUTPUT_LIMITS,
});

const count = z.number().int('must be a whole number').nonnegative('must not be negative');
const positive = z.number().int('must be a whole number').positive('must be greater than 0');
const share = z.number().gt(0, 'must be greater than 0').lte(1, 'must be at most 1');

const toolOutputSchema = z.strictObject({
  maxLines: positive.optional(),
  maxBytes: positive.optional(),
  maxChars: positive.optional(),
  largeOutputThreshold: positive.optional(),
  truncateMode: z.enum(['head', 'head_tail']).optional(),
});

/** The zod schema of {@link ContextConfigInput}; unknown keys are rejected so typos surface. */
export const contextConfigSchema = z.strictObject({
  maxMessages: positive.optional(),
  maxTokens: count.optional(),
  keepRecent: count.optional(),
  keepRecentTokens: count.optional(),
  reserveTokens: count.optional(),
  toolCallCutoff: count.optional(),
  toolSummaryStrategy: z.enum(['llm', 'heuristic', 'off']).optional(),
  autoCompact: z.boolean().optional(),
  contextWindow: positive.optional(),
  warningThreshold: share.optional(),
  compactionThreshold: share.optional(),
  toolOutput: toolOutputSchema.optional(),
});

/**
 * Validates a partial configuration and fills in the reference defaults.
 *
 * @param input - The host's settings; `undefined` gives the defaults.
 * @returns The complete configuration.
 * @throws {@link ConfigError} naming the field when a value is negative, not finite, of the wrong
 * type, unknown, or contradicts another (a reserve that leaves no room in the window, a warning
 * threshold above the compaction threshold).
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
    throw new ConfigError(
      `Invalid ctxkit config: ${field} ${detail}. Received ${describe(input, parsed.error.issues[0]?.path)}.`,
      field,
      parsed.error,
    );
  }
  const { toolOutput, ...rest } = parsed.data;
  const config: ContextConfig = {
    ...DEFAULT_CONFIG,
    ...stripUndefined(rest),
    toolOutput: { ...DEFAULT_TOOL_OUTPUT_LIMITS, ...stripUndefined(toolOutput ?? {}) },
  };
  checkConsistency(config);
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

function checkConsistency(config: ContextConfig): void {
  const { contextWindow, reserveTokens, warningThreshold, compactionThreshold } = config;
  if (contextWindow !== undefined && reserveTokens >= contextWindow) {
    throw new ConfigError(
      `Invalid ctxkit config: reserveTokens (${reserveTokens}) leaves no room in contextWindow (${contextWindow}). Lower reserveTokens below the window, typically to 10–20% of it.`,
      'reserveTokens',
    );
  }
  if (compactionThreshold !== undefined && warningThreshold > compactionThreshold) {
    throw new ConfigError(
      `Invalid ctxkit config: warningThreshold (${warningThreshold}) is above compactionThreshold (${compactionThreshold}); the warning would never be seen. Set warningThreshold below compactionThreshold.`,
      'warningThreshold',
    );
  }
  if (compactionThreshold !== undefined && contextWindow === undefined) {
    throw new ConfigError(
      'Invalid ctxkit config: compactionThreshold is a share of the context window, but contextWindow is not set. Set contextWindow or remove compactionThreshold.',
      'compactionThreshold',
    );
  }
}

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
  const limit = effectiveTokenLimit(config);
  if (limit === undefined) return config.keepRecentTokens;
  return Math.min(config.keepRecentTokens, Math.floor(limit / 2));
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
