/**
 * The Chat Completions wire format, written against the HTTP API so `ctxkit/openai` has no runtime
 * dependency on the `openai` package. Each type mirrors the SDK's param type of the same role closely
 * enough that an SDK `ChatCompletionMessageParam[]` is accepted where these are expected, and what the
 * converters return can be passed straight to `client.chat.completions.create`.
 */

/** Text inside a Chat Completions message. */
export interface OpenAIChatTextPart {
  type: 'text';
  text: string;
}

/** An image in a user message: a URL or a base64 `data:` URL. */
export interface OpenAIChatImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

/** Audio in a user message, base64-encoded. */
export interface OpenAIChatAudioPart {
  type: 'input_audio';
  input_audio: { data: string; format: 'wav' | 'mp3' };
}

/** A file in a user message, inline (`file_data`) or uploaded (`file_id`). */
export interface OpenAIChatFilePart {
  type: 'file';
  file: { file_data?: string; file_id?: string; filename?: string };
}

/** A refusal inside an assistant message's content. */
export interface OpenAIChatRefusalPart {
  type: 'refusal';
  refusal: string;
}

/** Any part of a user message. */
export type OpenAIChatUserPart = OpenAIChatTextPart | OpenAIChatImagePart | OpenAIChatAudioPart | OpenAIChatFilePart;

/** Instructions from the application (`system`). */
export interface OpenAIChatSystemMessage {
  role: 'system';
  content: string | OpenAIChatTextPart[];
  name?: string;
}

/** Instructions from the application for reasoning models (`developer`). */
export interface OpenAIChatDeveloperMessage {
  role: 'developer';
  content: string | OpenAIChatTextPart[];
  name?: string;
}

/** A message from the user. */
export interface OpenAIChatUserMessage {
  role: 'user';
  content: string | OpenAIChatUserPart[];
  name?: string;
}

/** A function tool call made by the assistant; `arguments` is a JSON string. */
export interface OpenAIChatFunctionToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A custom (free-form input) tool call made by the assistant. */
export interface OpenAIChatCustomToolCall {
  id: string;
  type: 'custom';
  custom: { name: string; input: string };
}

/** Any tool call of an assistant message. */
export type OpenAIChatToolCall = OpenAIChatFunctionToolCall | OpenAIChatCustomToolCall;

/** A message from the model, as sent back in a later request. */
export interface OpenAIChatAssistantMessage {
  role: 'assistant';
  content?: string | (OpenAIChatTextPart | OpenAIChatRefusalPart)[] | null;
  refusal?: string | null;
  tool_calls?: OpenAIChatToolCall[];
  audio?: { id: string } | null;
  function_call?: { name: string; arguments: string } | null;
  name?: string;
}

/** The output of one tool call, answering the call with the same `tool_call_id`. */
export interface OpenAIChatToolMessage {
  role: 'tool';
  content: string | OpenAIChatTextPart[];
  tool_call_id: string;
}

/** The output of a legacy `function_call` (deprecated by OpenAI in favour of tools). */
export interface OpenAIChatFunctionMessage {
  role: 'function';
  content: string | null;
  name: string;
}

/**
 * One message of a Chat Completions request, structurally compatible with the `openai` SDK's
 * `ChatCompletionMessageParam`.
 *
 * @example
 * ```ts
 * const messages: OpenAIChatMessage[] = [
 *   { role: 'system', content: 'You are terse.' },
 *   { role: 'user', content: 'List the files' },
 * ];
 * ```
 */
export type OpenAIChatMessage =
  | OpenAIChatSystemMessage
  | OpenAIChatDeveloperMessage
  | OpenAIChatUserMessage
  | OpenAIChatAssistantMessage
  | OpenAIChatToolMessage
  | OpenAIChatFunctionMessage;

/** Token usage of a Chat Completions response (`prompt_tokens` includes `cached_tokens`). */
export interface OpenAIChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
}

/** The assistant message of a Chat Completions response choice. */
export interface OpenAIChatResponseMessage {
  role: 'assistant';
  content: string | null;
  refusal?: string | null;
  tool_calls?: OpenAIChatToolCall[];
  audio?: { id: string; data?: string; expires_at?: number; transcript?: string } | null;
  function_call?: { name: string; arguments: string } | null;
  annotations?: unknown[];
}

/**
 * A Chat Completions response, structurally compatible with the `openai` SDK's `ChatCompletion`.
 *
 * @example
 * ```ts
 * const completion: OpenAIChatCompletion = await client.chat.completions.create({ model, messages });
 * ```
 */
export interface OpenAIChatCompletion {
  id: string;
  model: string;
  choices: {
    index: number;
    message: OpenAIChatResponseMessage;
    finish_reason: 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call' | (string & {}) | null;
  }[];
  usage?: OpenAIChatUsage;
}
