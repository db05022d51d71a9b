// ctxkit/anthropic: the Anthropic Messages API wire format, with no runtime dependency on the SDK.

export {
  ANTHROPIC_NONSTREAMING_MAX_TOKENS,
  ANTHROPIC_NONSTREAMING_MODEL_LIMITS,
  type AnthropicClientLike,
  type AnthropicSummaryRequest,
  type CreateAnthropicSummarizerOptions,
  createAnthropicSummarizer,
} from './create-anthropic-summarizer.js';
export { type FromAnthropicInput, type FromAnthropicResult, fromAnthropic } from './from-anthropic.js';
export {
  type AnthropicResponseResult,
  type FromAnthropicMessageOptions,
  fromAnthropicMessage,
} from './from-anthropic-message.js';
export { fromAnthropicStopReason } from './from-anthropic-stop-reason.js';
export { fromAnthropicUsage } from './from-anthropic-usage.js';
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
