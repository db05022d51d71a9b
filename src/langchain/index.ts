// The `ctxkit/langchain` entry: a LangChain.js v1 agent middleware and converters between LangChain
// messages and ctxkit's, with no runtime dependency on `langchain` or `@langchain/core`.

export {
  type CreateLangChainSummarizerOptions,
  createLangChainSummarizer,
  type LangChainChatModel,
} from './create-langchain-summarizer.js';
export {
  type CtxkitLangChainMiddleware,
  type CtxkitMiddlewareOptions,
  ctxkitMiddleware,
  type LangChainModelRequest,
} from './ctxkit-middleware.js';
export { type FromLangChainMessagesResult, fromLangChainMessages } from './from-langchain-messages.js';
export { fromLangChainUsage } from './from-langchain-usage.js';
export type {
  ConversionWarning,
  LangChainContentBlock,
  LangChainMessage,
  LangChainMessageFields,
  LangChainToolCall,
  LangChainUsageMetadata,
} from './message-types.js';
export {
  type ToLangChainMessagesOptions,
  type ToLangChainMessagesResult,
  toLangChainMessages,
} from './to-langchain-messages.js';
