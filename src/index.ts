// The root entry of ctxkit: no `node:` imports, no tokenizer or database code.

export {
  type ApproximateCounterOptions,
  approximateCounter,
  createApproximateCounter,
} from './approximate-counter.js';
export {
  type ContextConfig,
  type ContextConfigInput,
  contextConfigSchema,
  DEFAULT_CONFIG,
  DEFAULT_TOOL_OUTPUT_LIMITS,
  effectiveKeepRecentTokens,
  effectiveTokenLimit,
  resolveConfig,
  type ToolOutputLimits,
  type ToolSummaryStrategy,
  type TruncateMode,
} from './config.js';
export {
  CLEARED_RESULT_KIND,
  CLEARED_RESULT_PLACEHOLDER,
  type ClearedToolUse,
  type ClearToolUsesOptions,
  type ClearToolUsesResult,
  clearToolUses,
} from './core/clear-tool-uses.js';
export { type CompactionResult, type CompactOptions, compact, createSummaryMessage } from './core/compact.js';
export { DIGEST_PREFIX } from './core/compact-tool-results-in-recent.js';
export {
  type ContextUsage,
  type ContextUsageOptions,
  contextUsage,
  shouldCompact,
  type UsageLevel,
} from './core/context-usage.js';
export {
  type ContextTokenEstimate,
  describeContextTokens,
  type EstimateContextTokensOptions,
  estimateContextTokens,
} from './core/estimate-context-tokens.js';
export { type IsContextOverflowOptions, isContextOverflow } from './core/is-context-overflow.js';
export {
  COMPACTION_TOOL_RESULT_CHARS,
  type CompactionPlan,
  type PlanCompactionOptions,
  planCompaction,
  SUMMARY_PREFIX,
  summaryText,
} from './core/plan-compaction.js';
export {
  ARCHIVED_RESULT_PLACEHOLDER,
  MISSING_RESULT_TEXT,
  prepareModelMessages,
} from './core/prepare-model-messages.js';
export { type SerializeConversationOptions, serializeConversation } from './core/serialize-conversation.js';
export {
  type SplitByCountOptions,
  type SplitByTokenBudgetOptions,
  type SplitResult,
  splitByCount,
  splitByTokenBudget,
} from './core/split-by-token-budget.js';
export {
  HEURISTIC_SUMMARY_OUTPUT_CHARS,
  type SummarizeToolResultsOptions,
  type SummarizeToolResultsResult,
  summarizeToolResults,
  TOOL_SUMMARY_INPUT_CHARS,
  TOOL_SUMMARY_OUTPUT_CHARS,
  TOOL_SUMMARY_PREFIX,
} from './core/summarize-tool-results.js';
export {
  type TextSize,
  type TruncateResult,
  type TruncationStats,
  truncateToolContent,
} from './core/truncate-tool-content.js';
export {
  CompactionError,
  ConfigError,
  ContextError,
  type ContextErrorOptions,
  type ErrorCode,
  SessionError,
  StoreError,
} from './errors.js';
export { heuristicSummarizer, summarizeHeuristically } from './heuristic-summarizer.js';
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
  CompactionReason,
  CompactionStartEvent,
  ContextEvent,
  ContextWarningEvent,
  ToolOutputTruncatedEvent,
  ToolResultsSummarizedEvent,
} from './manager/events.js';
export {
  type ContextBreakdown,
  type ContextStats,
  formatContextStats,
  formatStatusLine,
  formatTokens,
} from './manager/stats.js';
export { type GetModelLimitsOptions, getModelLimits, MODEL_LIMITS, type ModelLimits } from './model-limits.js';
export {
  assistantMessageSchema,
  branchSummaryEntrySchema,
  compactionEntrySchema,
  customEntrySchema,
  customMessageEntrySchema,
  imageContentSchema,
  labelEntrySchema,
  messageEntrySchema,
  messageMetaSchema,
  messageSchema,
  modelChangeEntrySchema,
  sessionEntryInputSchema,
  sessionEntrySchema,
  sessionInfoEntrySchema,
  textContentSchema,
  thinkingContentSchema,
  thinkingLevelChangeEntrySchema,
  toolCallSchema,
  toolResultMessageSchema,
  usageSchema,
  userMessageSchema,
} from './schemas/entries.js';
export { type BranchSessionOptions, type BranchSessionResult, branchSession } from './session/branch-session.js';
export {
  type BuildContextFromBranchOptions,
  buildContextFromBranch,
  type ModelFacingFilter,
  type SessionContext,
} from './session/build-context-from-branch.js';
export { type CompactSessionOptions, type CompactSessionResult, compactSession } from './session/compact-session.js';
export { type CreateMemoryStoreOptions, createMemoryStore } from './session/create-memory-store.js';
export { BRANCH_SUMMARY_PREFIX, entryToMessage } from './session/entry-to-message.js';
export {
  type PlanSessionCompactionOptions,
  planSessionCompaction,
  type SessionCompactionPlan,
} from './session/plan-session-compaction.js';
export { type SessionEntries, type WalkBranchOptions, walkBranch } from './session/walk-branch.js';
export type { CreateSessionInit, SessionInfo, SessionStore, TranscriptMessage } from './session-store.js';
export {
  type ProcessedToolOutput,
  type ProcessToolOutputOptions,
  processToolOutput,
  type SpilledOutput,
  type SpillInfo,
  type SpillStore,
} from './spill-store.js';
export {
  type CompletionFunction,
  type CompletionInput,
  type CompletionOutput,
  type CreateSummarizerOptions,
  createSummarizer,
} from './summarizer.js';
export type { Summarizer, SummaryKind, SummaryOutput, SummaryRequest } from './summarizer-types.js';
export {
  SUMMARY_PROMPTS,
  SUMMARY_SECTIONS,
  SUMMARY_SYSTEM_PROMPT,
  type SummaryPromptBuilder,
} from './summary-prompts.js';
export {
  estimateMessageTokens,
  IMAGE_TOKENS,
  isAgentVisible,
  isUserVisible,
  referenceCounter,
  sumMessageTokens,
  type TokenCounter,
} from './token-counter.js';
export type {
  AssistantMessage,
  BranchSummaryEntry,
  CompactionEntry,
  CustomEntry,
  CustomMessageEntry,
  EntryBase,
  ImageContent,
  LabelEntry,
  Message,
  MessageEntry,
  MessageKind,
  MessageMeta,
  ModelChangeEntry,
  ProviderData,
  Role,
  SessionEntry,
  SessionEntryInput,
  SessionEntryType,
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
