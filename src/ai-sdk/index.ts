// ctxkit/ai-sdk: the AI SDK's message formats and a language-model middleware, with no runtime
// dependency on `ai` or `@ai-sdk/provider`.

export {
  type CreateGenerateTextSummarizerOptions,
  createGenerateTextSummarizer,
  type GenerateTextConversationReuse,
  type GenerateTextFunction,
} from './create-generate-text-summarizer.js';
export { createToolResultMessage, type ToolOutcome } from './create-tool-result-message.js';
export {
  type CallOptionsLike,
  type ConversationStart,
  type CtxkitMiddleware,
  type CtxkitMiddlewareOptions,
  ctxkitMiddleware,
  type LanguageModelLike,
  type WrapOptions,
} from './ctxkit-middleware.js';
export { fromFinishReason } from './from-finish-reason.js';
export { fromGenerateTextResult } from './from-generate-text-result.js';
export { fromLanguageModelUsage } from './from-language-model-usage.js';
export { type FromModelMessagesResult, fromModelMessages } from './from-model-messages.js';
export { fromStepResult } from './from-step-result.js';
export { fromStreamTextResult } from './from-stream-text-result.js';
export type { AISDKMessage, AISDKMessageInput, ConversionWarning } from './message-types.js';
export type {
  DataContent,
  JSONValue,
  ModelFilePart,
  ModelImagePart,
  ModelOtherPart,
  ModelReasoningPart,
  ModelTextPart,
  ModelToolCallPart,
  ModelToolResultPart,
  ProviderOptions,
  ToolResultContentItem,
  ToolResultOutput,
} from './part-types.js';
export type {
  AISDKResponseResult,
  GenerateTextResultLike,
  GenerateTextUsage,
  ProviderUsage,
  StepResultLike,
  StreamTextResultLike,
} from './result-types.js';
export { type ToModelMessagesInput, toModelMessages } from './to-model-messages.js';
