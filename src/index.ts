// The root entry of ctxkit: no `node:` imports, no tokenizer or database code.

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
export { CompactionError, ConfigError, ContextError, type ContextErrorOptions, type ErrorCode, SessionError, StoreError } from './errors.js';
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
  estimateMessageTokens,
  IMAGE_TOKENS,
  isAgentVisible,
  isUserVisible,
  referenceCounter,
  sumMessageTokens,
  type TokenCounter,
} from './token-counter.js';
export type { Summarizer, SummaryKind, SummaryOutput, SummaryRequest } from './summarizer-types.js';
export {
  type ContextTokenEstimate,
  describeContextTokens,
  type EstimateContextTokensOptions,
  estimateContextTokens,
} from './core/estimate-context-tokens.js';
export { type ContextUsage, type ContextUsageOptions, contextUsage, shouldCompact, type UsageLevel } from './core/context-usage.js';
export {
  type SplitByCountOptions,
  type SplitByTokenBudgetOptions,
  type SplitResult,
  splitByCount,
  splitByTokenBudget,
} from './core/split-by-token-budget.js';
export { ARCHIVED_RESULT_PLACEHOLDER, MISSING_RESULT_TEXT, prepareModelMessages } from './core/prepare-model-messages.js';
export {
  type ApproximateCounterOptions,
  approximateCounter,
  createApproximateCounter,
} from './approximate-counter.js';
