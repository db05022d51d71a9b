// The root entry of ctxkit, in the order a newcomer reads it. No `node:` imports, no tokenizer or
// database code: it runs in browsers, edge runtimes, Bun and Deno. Zod schemas and the wire strings
// of ctxkit's own messages are in `ctxkit/schemas`; Node stores in `ctxkit/node`; adapters in
// `ctxkit/openai`, `ctxkit/anthropic` and `ctxkit/ai-sdk`. (biome keeps this file's order: see biome.json.)

// ── Manager: one object that keeps an agent's context inside the window ──────────────────────
export { createContextManager } from './manager/context-manager.js';
export type {
  CallOptions,
  ContextManager,
  ContextManagerOptions,
  OverflowRecoveryResult,
  PrepareResult,
} from './manager/context-manager-types.js';
export type {
  CompactionEndEvent,
  CompactionStartEvent,
  ContextEvent,
  ContextWarningEvent,
  ToolOutputTruncatedEvent,
  ToolResultsSummarizedEvent,
} from './manager/events.js';
export type { ContextStats } from './manager/stats.js';
export { formatContextStats } from './manager/format-context-stats.js';
export { formatStatusLine } from './manager/format-status-line.js';

// ── Core functions: pure, over a message array ─────────────────────────────────────────────
export {
  type ContextUsage,
  type ContextUsageOptions,
  contextUsage,
  type UsageLevel,
} from './counting/context-usage.js';
export { type EstimateContextTokensOptions, estimateContextTokens } from './counting/estimate-context-tokens.js';
export { shouldCompact } from './pipeline/should-compact.js';
export { type SplitByCountOptions, splitByCount } from './pipeline/split-by-count.js';
export {
  type SplitByTokenBudgetOptions,
  type SplitResult,
  splitByTokenBudget,
} from './pipeline/split-by-token-budget.js';
export { truncateToolContent } from './pipeline/truncate-tool-content.js';
export type { TruncateResult, TruncationStats } from './pipeline/internal/truncate-with-notice.js';
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

// ── Settings ────────────────────────────────────────────────────────────────────────────────
export {
  type ContextConfig,
  type ContextConfigInput,
  DEFAULT_CONFIG,
  DEFAULT_TOOL_OUTPUT_LIMITS,
  effectiveKeepRecentTokens,
  effectiveTokenLimit,
  resolveConfig,
  type ToolOutputLimits,
  type ToolSummaryStrategy,
  type TruncateMode,
} from './config/index.js';

// ── Contracts: what a host plugs in ─────────────────────────────────────────────────────────
export type { TokenCounter } from './counting/token-counter.js';
export type { Summarizer, SummaryKind, SummaryOutput, SummaryRequest } from './summarizing/summarizer-types.js';
export type {
  AppendEntryOptions,
  CreateSessionInit,
  SessionInfo,
  SessionStore,
  SetLeafOptions,
  TranscriptMessage,
} from './session/session-store.js';
export type { SpilledOutput, SpillInfo, SpillStore } from './pipeline/spill-store.js';

// ── Summarizers ─────────────────────────────────────────────────────────────────────────────
export {
  type CompletionFunction,
  type CompletionInput,
  type CompletionOutput,
  type CreateSummarizerOptions,
  createSummarizer,
} from './summarizing/create-summarizer.js';
export { heuristicSummarizer } from './summarizing/heuristic-summarizer.js';
export { type SerializeConversationOptions, serializeConversation } from './summarizing/serialize-conversation.js';
export {
  SUMMARY_PROMPTS,
  SUMMARY_SECTIONS,
  SUMMARY_SYSTEM_PROMPT,
  type SummaryPromptBuilder,
} from './summarizing/summary-prompts.js';

// ── Fidelity: anchored facts and tool-output parsers ────────────────────────────────────────
export { ANCHOR_CATEGORIES, type Anchor, type AnchorCategory } from './summarizing/anchors/anchor.js';
export { type ExtractAnchorsOptions, extractAnchors } from './summarizing/anchors/extract-anchors.js';
export { type AnchorCheck, checkAnchors } from './summarizing/anchors/check-anchors.js';
export { type PinAnchorsOptions, type PinAnchorsResult, pinAnchors } from './summarizing/anchors/pin-anchors.js';
export { PINNED_HEADING } from './summarizing/anchors/pinned-section.js';
export { type ParseToolOutputOptions, parseToolOutput } from './summarizing/tool-output/parse-tool-output.js';
export type {
  ParsedToolOutput,
  ToolOutputFormat,
  ToolOutputProblem,
} from './summarizing/tool-output/parsed-tool-output.js';
export { renderToolOutput } from './summarizing/tool-output/render-tool-output.js';
export {
  type SummarizeToolOutputOptions,
  summarizeToolOutput,
} from './summarizing/tool-output/summarize-tool-output.js';

// ── Token counters ──────────────────────────────────────────────────────────────────────────
export {
  type ApproximateCounterOptions,
  approximateCounter,
  createApproximateCounter,
} from './counting/approximate-counter.js';
export { IMAGE_TOKENS, referenceCounter } from './counting/token-counter.js';
export { estimateMessageTokens } from './counting/estimate-message-tokens.js';
export { isAgentVisible } from './counting/is-agent-visible.js';
export { isUserVisible } from './counting/is-user-visible.js';
export { sumMessageTokens } from './counting/sum-message-tokens.js';

// ── Session tree ────────────────────────────────────────────────────────────────────────────
export {
  type BuildContextFromBranchOptions,
  buildContextFromBranch,
  type ModelFacingFilter,
  type SessionContext,
} from './session/build-context-from-branch.js';
export { type CompactSessionOptions, type CompactSessionResult, compactSession } from './session/compact-session.js';
export {
  type PlanSessionCompactionOptions,
  planSessionCompaction,
  type SessionCompactionPlan,
} from './session/plan-session-compaction.js';
export { type BranchSessionOptions, type BranchSessionResult, branchSession } from './session/branch-session.js';
export { type SessionEntries, type WalkBranchOptions, walkBranch } from './session/walk-branch.js';
export { entryToMessage } from './session/entry-to-message.js';
export {
  type CreateInMemorySessionStoreOptions,
  createInMemorySessionStore,
} from './session/in-memory-session-store.js';

// ── ctxkit's own messages: summaries, digests, placeholders ─────────────────────────────────
export { type CtxkitMessageKind, ctxkitMessageKind } from './messages/ctxkit-message-kind.js';
export { createSummaryMessage } from './messages/create-summary-message.js';
export { summaryText } from './messages/summary-text.js';

// ── Models ──────────────────────────────────────────────────────────────────────────────────
export { type GetModelLimitsOptions, getModelLimits, MODEL_LIMITS, type ModelLimits } from './models/model-limits.js';
export { type IsContextOverflowOptions, isContextOverflow } from './models/is-context-overflow.js';

// ── Errors ──────────────────────────────────────────────────────────────────────────────────
export {
  CompactionError,
  ConfigError,
  type ConfigErrorOptions,
  ContextError,
  type ContextErrorOptions,
  type ErrorCode,
  LeafConflictError,
  type LeafConflictErrorOptions,
  SessionError,
  StoreError,
} from './errors.js';

// ── The message and session-entry model ─────────────────────────────────────────────────────
export type {
  AssistantMessage,
  BranchSummaryEntry,
  CompactionEntry,
  CustomEntry,
  CustomMessageEntry,
  ImageContent,
  LabelEntry,
  Message,
  MessageEntry,
  MessageKind,
  MessageMeta,
  ModelChangeEntry,
  ProviderData,
  SessionEntry,
  SessionEntryInput,
  SessionInfoEntry,
  StopReason,
  TextContent,
  ThinkingContent,
  ThinkingLevelChangeEntry,
  ToolCall,
  ToolResultMessage,
  Usage,
  UserMessage,
} from './types.js';
