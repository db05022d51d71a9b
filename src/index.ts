// The root entry of ctxkit, in the order a newcomer reads it. No `node:` imports, no tokenizer or
// database code: it runs in browsers, edge runtimes, Bun and Deno. Other entries: the whole session
// tree (and the error options a store writer needs) in `ctxkit/session`; the summarizer's request
// and output, prompts, serialization, anchored facts and tool-output parsers for hosts that write
// their own summarizer in `ctxkit/summarizing`; zod schemas and the wire strings of
// ctxkit's own messages in `ctxkit/schemas`; Node stores in `ctxkit/node`; adapters in
// `ctxkit/openai`, `ctxkit/anthropic` and `ctxkit/ai-sdk`. (biome keeps this file's order: see biome.json.)

// ── Manager: one object that keeps an agent's context inside the window ──────────────────────
// Name one event's type through the union: `Extract<ContextEvent, { type: 'compaction-end' }>`.
export { createContextManager } from './manager/context-manager.js';
export type {
  CallOptions,
  ContextManager,
  ContextManagerOptions,
  OverflowRecoveryResult,
  PrepareResult,
} from './manager/context-manager-types.js';
export type { ContextEvent } from './manager/events.js';
export type { ContextStats } from './manager/stats.js';
export type { TokenCalibration } from './manager/calibration.js';
export { formatContextStats } from './manager/format-context-stats.js';
export { formatStatusLine } from './manager/format-status-line.js';

// ── Native compaction: the provider compacts, ctxkit keeps its payload and a portable summary ─
export type {
  CompactionUsage,
  ModelTarget,
  NativeCompaction,
  NativeCompactionApi,
} from './native-compaction.js';
export { NATIVE_PAYLOAD_LIMIT } from './native-compaction.js';
export {
  type NativeCompactionStrategy,
  nativeCompaction,
  supportsNativeCompaction,
} from './manager/native-compactions.js';
export type { CompactionStrategy } from './manager/context-manager-types.js';
export type { NativeCompactionEvent, NativeCompactionReport } from './manager/events.js';
export {
  dropNativeCompactions,
  madeBy,
  nativeCompactionOf,
  nativeSummaryMessage,
  type ResolvedNativeCompactions,
  type ResolveNativeCompactionsOptions,
  resolveNativeCompactions,
} from './pipeline/resolve-native-compactions.js';
export { isNativeCompactionRefusal } from './models/is-native-compaction-refusal.js';

// ── Settings (name a field's type through its parent: `ContextConfig['toolSummaryStrategy']`) ──
export {
  type ContextConfig,
  type ContextConfigInput,
  DEFAULT_CONFIG,
  effectiveTokenLimit,
  resolveConfig,
  type ToolOutputLimits,
} from './config/index.js';

// ── Core functions: pure, over a message array ─────────────────────────────────────────────
export { type ContextUsage, type ContextUsageOptions, contextUsage } from './counting/context-usage.js';
export { type EstimateContextTokensOptions, estimateContextTokens } from './counting/estimate-context-tokens.js';
export { shouldCompact } from './pipeline/should-compact.js';
export { type SplitByCountOptions, splitByCount } from './pipeline/split-by-count.js';
export {
  type SplitByTokenBudgetOptions,
  type SplitResult,
  splitByTokenBudget,
} from './pipeline/split-by-token-budget.js';
export { truncateToolContent } from './pipeline/truncate-tool-content.js';
export type { TruncateResult } from './pipeline/truncate-result.js';
export {
  type ProcessedToolOutput,
  type ProcessToolOutputOptions,
  processToolOutput,
} from './pipeline/process-tool-output.js';
export {
  type SummarizeToolResultsOptions,
  type SummarizeToolResultsResult,
  summarizeToolResults,
} from './pipeline/summarize-tool-results.js';
export { type CompactionResult, type CompactOptions, compact } from './pipeline/compact.js';
export { type CompactionPlan, type PlanCompactionOptions, planCompaction } from './pipeline/plan-compaction.js';
export { prepareModelMessages } from './pipeline/prepare-model-messages.js';
export { type ClearToolUsesOptions, type ClearToolUsesResult, clearToolUses } from './pipeline/clear-tool-uses.js';

// ── Contracts: what a host plugs in, and the ready ones ─────────────────────────────────────
// (a contract's parts, e.g. the `SummaryRequest` a summarizer receives, are in its layer's entry)
export type { TokenCounter } from './counting/token-counter.js';
export type { Summarizer } from './summarizing/summarizer-types.js';
export {
  type CompletionFunction,
  type CreateSummarizerOptions,
  createSummarizer,
} from './summarizing/create-summarizer.js';
export { heuristicSummarizer } from './summarizing/heuristic-summarizer.js';
export type { SessionStore } from './session/session-store.js';
export type { SpilledOutput, SpillInfo, SpillStore } from './pipeline/spill-store.js';

// ── Token counters ──────────────────────────────────────────────────────────────────────────
export {
  type ApproximateCounterOptions,
  approximateCounter,
  createApproximateCounter,
} from './counting/approximate-counter.js';
export { referenceCounter } from './counting/token-counter.js';
export { estimateMessageTokens } from './counting/estimate-message-tokens.js';
export { isAgentVisible } from './counting/is-agent-visible.js';
export { isUserVisible } from './counting/is-user-visible.js';
export { sumMessageTokens } from './counting/sum-message-tokens.js';

// ── Session tree: the rest (entry types, walkBranch, compactSession…) is in `ctxkit/session` ───
export type { SessionEntry } from './session-entry.js';
export { buildContextFromBranch } from './session/build-context-from-branch.js';
export { createInMemorySessionStore } from './session/in-memory-session-store.js';

// ── ctxkit's own messages: which kind a message is (summary, digest, placeholder…) ───────────
export { type CtxkitMessageKind, ctxkitMessageKind } from './messages/ctxkit-message-kind.js';

// ── Errors ──────────────────────────────────────────────────────────────────────────────────
// (their constructors' options types are in `ctxkit/session`, for hosts that write a store)
export type { ErrorCode } from './error-options.js';
export {
  CompactionError,
  ConfigError,
  ContextError,
  LeafConflictError,
  SessionError,
  StoreError,
} from './errors.js';

// ── Models ──────────────────────────────────────────────────────────────────────────────────
export { type GetModelLimitsOptions, getModelLimits, MODEL_LIMITS, type ModelLimits } from './models/model-limits.js';
export { type IsContextOverflowOptions, isContextOverflow } from './models/is-context-overflow.js';
export {
  ANTHROPIC_CACHE_1H,
  ANTHROPIC_CACHE_5M,
  GEMINI_IMPLICIT_CACHE,
  type GetModelPricingOptions,
  getModelPricing,
  MODEL_PRICING,
  MODEL_PRICING_DATE,
  type ModelPricing,
  OPENAI_AUTOMATIC_CACHE,
  OPENAI_EXPLICIT_CACHE,
  type PromptCacheRules,
} from './models/model-pricing.js';
export { addSpend, type CostSplit, emptySpend, type SpendTally, usageCost } from './models/usage-cost.js';

// ── The message model ───────────────────────────────────────────────────────────────────────
export type {
  AssistantMessage,
  ImageContent,
  Message,
  MessageMeta,
  ProviderData,
  StopReason,
  TextContent,
  ThinkingContent,
  ToolCall,
  ToolResultMessage,
  Usage,
  UserMessage,
} from './types.js';
