// ctxkit/ai-sdk: the AI SDK's message formats and a language-model middleware, with no runtime
// dependency on `ai` or `@ai-sdk/provider`.

export {
  type CreateGenerateTextSummarizerOptions,
  createGenerateTextSummarizer,
  type GenerateTextFunction,
} from './create-generate-text-summarizer.js';
export {
  type CallOptionsLike,
  type CtxkitMiddleware,
  ctxkitMiddleware,
  type LanguageModelLike,
  type WrapOptions,
} from './ctxkit-middleware.js';
export {
  type AISDKResponseResult,
  fromFinishReason,
  fromGenerateTextResult,
  fromLanguageModelUsage,
  fromStepResult,
  fromStreamTextResult,
  type GenerateTextResultLike,
  type StepResultLike,
  type StreamTextResultLike,
} from './from-generate-text-result.js';
export {
  type FromModelMessagesResult,
  fromModelMessages,
  type ToModelMessagesInput,
  toModelMessages,
} from './from-model-messages.js';
export type {
  AISDKMessage,
  AISDKMessageInput,
  ConversionWarning,
  DataContent,
  GenerateTextUsage,
  JSONValue,
  ModelFilePart,
  ModelImagePart,
  ModelOtherPart,
  ModelReasoningPart,
  ModelTextPart,
  ModelToolCallPart,
  ModelToolResultPart,
  ProviderOptions,
  ProviderUsage,
  ToolResultContentItem,
  ToolResultOutput,
} from './types.js';
