// The `ctxkit/openai` entry: converters between ctxkit's messages and the OpenAI wire formats
// (Chat Completions and Responses), with no runtime dependency on the `openai` package.

export { createToolResultMessage, type ToolOutcome } from '../internal/create-tool-result-message.js';
export type {
  ConversionWarning,
  OpenAIChatAssistantMessage,
  OpenAIChatAudioPart,
  OpenAIChatCompletion,
  OpenAIChatConversation,
  OpenAIChatCustomToolCall,
  OpenAIChatDeveloperMessage,
  OpenAIChatFilePart,
  OpenAIChatFunctionMessage,
  OpenAIChatFunctionToolCall,
  OpenAIChatImagePart,
  OpenAIChatMessage,
  OpenAIChatMessageInput,
  OpenAIChatRefusalPart,
  OpenAIChatResponseMessage,
  OpenAIChatSystemMessage,
  OpenAIChatTextPart,
  OpenAIChatToolCall,
  OpenAIChatToolMessage,
  OpenAIChatUsage,
  OpenAIChatUserMessage,
  OpenAIChatUserMessageInput,
  OpenAIChatUserPart,
  OpenAIPromptCacheBreakpoint,
} from './chat-types.js';
export {
  type CreateOpenAISummarizerOptions,
  createOpenAISummarizer,
  type OpenAIChatTool,
  type OpenAIConversationReuse,
  type OpenAIResponsesTool,
  type OpenAISummarizerClient,
} from './create-openai-summarizer.js';
export {
  type FromOpenAIChatResult,
  type FromOpenAIResponseOptions,
  fromOpenAIChat,
  fromOpenAIChatCompletion,
  type OpenAIResponseResult,
  type ReadOpenAIResponseOptions,
  readOpenAIChatCompletion,
} from './from-openai-chat.js';
export {
  type FromOpenAIResponsesResult,
  fromOpenAIResponse,
  fromOpenAIResponses,
  readOpenAIResponse,
} from './from-openai-responses.js';
export { fromOpenAIUsage, type OpenAIUsage } from './from-openai-usage.js';
export { type OpenAICompactionOptions, openaiCompactionParams } from './native-compaction.js';
export {
  type OpenAICompactedResponse,
  type ReadOpenAICompactionOptions,
  readOpenAICompaction,
} from './read-openai-compaction.js';
export type {
  OpenAIResponse,
  OpenAIResponsesAnnotation,
  OpenAIResponsesConversation,
  OpenAIResponsesFunctionCall,
  OpenAIResponsesFunctionCallOutput,
  OpenAIResponsesInputFile,
  OpenAIResponsesInputImage,
  OpenAIResponsesInputMessage,
  OpenAIResponsesInputPart,
  OpenAIResponsesInputText,
  OpenAIResponsesItem,
  OpenAIResponsesItemInput,
  OpenAIResponsesOutputMessage,
  OpenAIResponsesOutputText,
  OpenAIResponsesReasoning,
  OpenAIResponsesRefusal,
  OpenAIResponsesUsage,
} from './responses-types.js';
export { type ToOpenAIChatOptions, type ToOpenAIChatResult, toOpenAIChat } from './to-openai-chat.js';
export {
  type ToOpenAIResponsesOptions,
  type ToOpenAIResponsesResult,
  toOpenAIResponses,
} from './to-openai-responses.js';
