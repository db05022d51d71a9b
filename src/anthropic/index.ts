// ctxkit/anthropic: the Anthropic Messages API wire format, with no runtime dependency on the SDK.

export { createToolResultMessage, type ToolOutcome } from '../internal/create-tool-result-message.js';
export {
  ANTHROPIC_NONSTREAMING_MAX_TOKENS,
  ANTHROPIC_NONSTREAMING_MODEL_LIMITS,
  type AnthropicClientLike,
  type AnthropicConversationReuse,
  type AnthropicSummaryRequest,
  type AnthropicToolParam,
  type CreateAnthropicSummarizerOptions,
  createAnthropicSummarizer,
} from './create-anthropic-summarizer.js';
export {
  type AnthropicResponseResult,
  type FromAnthropicInput,
  type FromAnthropicMessageOptions,
  type FromAnthropicResult,
  fromAnthropic,
  fromAnthropicMessage,
  fromAnthropicStopReason,
  fromAnthropicUsage,
  type ReadAnthropicMessageOptions,
  readAnthropicMessage,
} from './from-anthropic.js';
export { type AnthropicCompactionOptions, anthropicCompactionParams } from './native-compaction.js';
export { type ToAnthropicInput, type ToAnthropicResult, toAnthropic } from './to-anthropic.js';
export type {
  AnthropicCacheControl,
  AnthropicContentBlockInput,
  AnthropicContentBlockParam,
  AnthropicImageBlockParam,
  AnthropicImageMediaType,
  AnthropicMessageInput,
  AnthropicMessageParam,
  AnthropicRedactedThinkingBlockParam,
  AnthropicResponse,
  AnthropicSystemParam,
  AnthropicTextBlockParam,
  AnthropicThinkingBlockParam,
  AnthropicToolResultBlockParam,
  AnthropicToolUseBlockParam,
  AnthropicUsage,
  ConversionWarning,
} from './types.js';
