// The settings' types and the reference defaults (seed 001).

/**
 * How old tool results are summarized: by the model, locally, or not at all.
 *
 * @example
 * ```ts
 * const strategy: ToolSummaryStrategy = process.env.OFFLINE ? 'heuristic' : 'llm';
 * ```
 */
export type ToolSummaryStrategy = 'llm' | 'heuristic' | 'off';

/**
 * How tool output that is too long is cut: keep the head, or the head and the tail.
 *
 * @example
 * ```ts
 * const mode: TruncateMode = 'head'; // for logs where only the start matters
 * ```
 */
export type TruncateMode = 'head' | 'head_tail';

/**
 * Limits applied to one tool output before it is stored.
 *
 * @example
 * ```ts
 * const limits: ToolOutputLimits = { ...DEFAULT_CONFIG.toolOutput, maxLines: 500 };
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
  /**
   * Tokens left free in the window for the response. When unset and a `contextWindow` is given, it
   * scales with the window: `min(16384, floor(contextWindow / 4))` (16,384 for windows of 65,536 and
   * up, 4,096 for a 16,385-token window). A value that leaves less than 1,024 tokens (or less than
   * half of a window below 2,048) is a {@link ConfigError}.
   * @default 16384
   */
  reserveTokens: number;
  /** Visible tool results kept after the oldest are summarized. @default 10 */
  toolCallCutoff: number;
  /**
   * Tool results collected past `toolCallCutoff` before the oldest are archived together, under one
   * summary: archiving starts once more than `toolCallCutoff + toolSummaryBatch` results are
   * visible and brings them back to `toolCallCutoff`. Batches keep the sent prefix byte-identical
   * between batches (so the provider's prompt cache holds) and call the summarizer once per batch.
   * `0` archives on every result past the cutoff: the seed-001 reference behaviour.
   * @default 30
   */
  toolSummaryBatch: number;
  /** How old tool results are summarized. @default 'llm' */
  toolSummaryStrategy: ToolSummaryStrategy;
  /**
   * How long the summary of an archived batch may be. `'scaled'` grows it with the batch: 640 code
   * points per failed result and 120 per other, at least 800 (heuristic) or 1,200 (model), at most a
   * third of what the results take and 16,000; the model reads 1,600 code points per failed result
   * and 400 per other (12,000 to 48,000). `'reference'` is seed 001's fixed 800 / 1,200 code points
   * from 12,000 of input, whatever the batch.
   * @default 'scaled'
   */
  toolSummaryBudget: 'scaled' | 'reference';
  /** Whether thresholds trigger compaction. @default true */
  autoCompact: boolean;
  /** The model's context window in tokens; unset means the limit is `maxTokens`. */
  contextWindow: number | undefined;
  /**
   * Share of the window at which a warning is raised. When unset and 80% of the window would
   * already be at or past the effective limit (a `compactionThreshold` of 0.8 or lower, or a small
   * window), it is lowered to 90% of the limit's share of the window, so the warning comes first.
   * @default 0.8
   */
  warningThreshold: number;
  /**
   * Share of the window at which to compact, when earlier than `contextWindow - reserveTokens`. A
   * share that leaves a limit below 1,024 tokens (or below half of a window under 2,048) is a
   * {@link ConfigError}.
   */
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

/**
 * The reference limits for one tool output; public as `DEFAULT_CONFIG.toolOutput`.
 *
 * @internal
 */
export const DEFAULT_TOOL_OUTPUT_LIMITS: Readonly<ToolOutputLimits> = /* @__PURE__ */ (() =>
  Object.freeze({
    maxLines: 2000,
    maxBytes: 50 * 1024,
    maxChars: 200 * 1024,
    largeOutputThreshold: 200 * 1024,
    truncateMode: 'head_tail',
  }))();

/**
 * Tool-output limits known valid and complete, and frozen (so they stay so): the defaults, the
 * `toolOutput` of every resolved configuration, and limits a pipeline function parsed once. The one
 * record of which limits need no second check (a manager passes its config's for every output it
 * cuts).
 *
 * @internal
 */
export const checkedToolOutputs = new WeakSet<object>([DEFAULT_TOOL_OUTPUT_LIMITS]);

/**
 * The reference defaults. `reserveTokens` is the reserve for windows of 65,536 tokens and up;
 * {@link resolveConfig} scales it down for smaller windows when the host does not set it.
 *
 * @example
 * ```ts
 * DEFAULT_CONFIG.keepRecentTokens; // 20000
 * const config = resolveConfig({ keepRecentTokens: DEFAULT_CONFIG.keepRecentTokens / 2 });
 * ```
 */
export const DEFAULT_CONFIG: Readonly<ContextConfig> = /* @__PURE__ */ (() =>
  Object.freeze({
    maxMessages: 50,
    maxTokens: 8000,
    keepRecent: 5,
    keepRecentTokens: 20_000,
    reserveTokens: 16_384,
    toolCallCutoff: 10,
    toolSummaryBatch: 30,
    toolSummaryStrategy: 'llm',
    toolSummaryBudget: 'scaled',
    autoCompact: true,
    contextWindow: undefined,
    warningThreshold: 0.8,
    compactionThreshold: undefined,
    toolOutput: DEFAULT_TOOL_OUTPUT_LIMITS,
  }))();
