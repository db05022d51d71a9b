// The `ctxkit/openai` entry: converters between ctxkit's messages and the OpenAI wire formats
// (Chat Completions and Responses), with no runtime dependency on the `openai` package.

export type {
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
  type OpenAISummarizerClient,
} from './create-openai-summarizer.js';
export {
  type FromOpenAIChatResult,
  type FromOpenAIResponseOptions,
  fromOpenAIChat,
  fromOpenAIChatCompletion,
  type OpenAIResponseResult,
} from './from-openai-chat.js';
export { type FromOpenAIResponsesResult, fromOpenAIResponse, fromOpenAIResponses } from './from-openai-responses.js';
export { fromOpenAIUsage, type OpenAIUsage } from './from-openai-usage.js';
export { type OpenAICompactionOptions, openaiCompactionParams } from './native-compaction.js';
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
