import type { WireObject } from '../internal/wire-object.js';
import type { Message, ProviderData } from '../types.js';

/**
 * The Chat Completions wire format, written against the HTTP API so `ctxkit/openai` has no runtime
 * dependency on the `openai` package. Each type mirrors the SDK's param type of the same role closely
 * enough that an SDK `ChatCompletionMessageParam[]` is accepted where these are expected, and what the
 * converters return can be passed straight to `client.chat.completions.create`.
 */

/**
 * The end of a reusable prompt prefix, marked on a content part (added in `openai` 7). ctxkit carries it
 * verbatim on the part it marks; a part that compaction summarizes away takes its mark with it.
 */
export interface OpenAIPromptCacheBreakpoint {
  /** Always `explicit`. */
  mode: 'explicit';
  /** The least lifetime of the cached prefix; the request's own TTL when absent. */
  ttl?: '30m' | '12h';
}

/** Text inside a Chat Completions message. */
export interface OpenAIChatTextPart {
  type: 'text';
  text: string;
  prompt_cache_breakpoint?: OpenAIPromptCacheBreakpoint;
}

/**
 * An image in a user message: a URL or a base64 `data:` URL. `detail` is typed as `openai` 6 accepts it
 * so what ctxkit writes type-checks against both majors; `openai` 7's `'original'` is read (see
 * {@link OpenAIChatMessageInput}) and written back verbatim.
 */
export interface OpenAIChatImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
  prompt_cache_breakpoint?: OpenAIPromptCacheBreakpoint;
}

/** Audio in a user message, base64-encoded. */
export interface OpenAIChatAudioPart {
  type: 'input_audio';
  input_audio: { data: string; format: 'wav' | 'mp3' };
  prompt_cache_breakpoint?: OpenAIPromptCacheBreakpoint;
}

/** A file in a user message, inline (`file_data`) or uploaded (`file_id`). */
export interface OpenAIChatFilePart {
  type: 'file';
  file: { file_data?: string; file_id?: string; filename?: string };
  prompt_cache_breakpoint?: OpenAIPromptCacheBreakpoint;
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

/**
 * A user message as {@link fromOpenAIChat} reads it: besides what {@link OpenAIChatUserMessage}
 * allows, images with `openai` 7's `detail: 'original'` (the image as it is, not resized).
 */
export interface OpenAIChatUserMessageInput {
  role: 'user';
  content:
    | string
    | (
        | OpenAIChatUserPart
        | (Omit<OpenAIChatImagePart, 'image_url'> & {
            image_url: { url: string; detail?: 'auto' | 'low' | 'high' | 'original' };
          })
      )[];
  name?: string;
}

/**
 * What {@link fromOpenAIChat} reads: an `openai` 6 or 7 `ChatCompletionMessageParam`. It is wider than
 * {@link OpenAIChatMessage}, what ctxkit writes, by the `openai` 7 values `openai` 6 would refuse.
 *
 * @example
 * ```ts
 * const history: OpenAIChatMessageInput[] = [
 *   { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'original' } }] },
 * ];
 * ```
 */
export type OpenAIChatMessageInput = OpenAIChatMessage | OpenAIChatUserMessageInput;

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

// The conversation the Chat Completions converters take and return, and what they keep in
// `providerData.openai.chat` (internal).

/** On a message. @internal */
export interface ChatMessageData {
  /** Wire fields ctxkit does not model (`name`, `audio`, `refusal: null`, future fields), verbatim. */
  fields?: WireObject;
  /** A user message standing in for a system, developer or function message in the middle of the list. */
  role?: 'system' | 'developer' | 'function';
  /** How the content was spelled, when the default spelling would differ. */
  content?: 'parts' | 'null' | 'absent';
}

/** On a content part or tool call. @internal */
export interface ChatPartData {
  /** Wire fields of the part ctxkit does not model, verbatim. */
  fields?: WireObject;
  /** A part ctxkit does not model (audio, file), carried whole behind a placeholder text. */
  raw?: WireObject;
  /** A refusal content part, or the message's `refusal` field. */
  refusal?: 'part' | 'field';
  /** The `image_url` fields besides `url` (`detail`). */
  image?: WireObject;
  /** An image URL without a scheme, so it is not taken for base64 data. */
  opaque?: true;
  /** The tool call's arguments as the wire spelled them, when `JSON.stringify` would differ. */
  arguments?: string;
  /** The tool call's `function` (or `custom`) fields besides name and arguments. */
  function?: WireObject;
  /** A custom tool call: its free-form input is `arguments.input`. */
  custom?: true;
}

/**
 * A Chat Completions conversation in ctxkit's terms: the system prompt apart, the rest as ctxkit
 * messages. What {@link fromOpenAIChat} returns and {@link toOpenAIChat} takes.
 *
 * @example
 * ```ts
 * const conversation: OpenAIChatConversation = { systemPrompt: 'Be terse.', messages: [{ role: 'user', content: 'hi' }] };
 * ```
 */
export interface OpenAIChatConversation {
  /**
   * The text of the leading system and developer messages, joined by a blank line; `undefined` when
   * there are none.
   */
  systemPrompt?: string;
  /** Every other message, in order. */
  messages: Message[];
  /**
   * The leading instruction messages verbatim (`providerData.openai.chat.system`), when they are more
   * than one plain system message; reused by {@link toOpenAIChat} while `systemPrompt` is unchanged.
   */
  providerData?: ProviderData;
}

/** The system messages kept verbatim on a conversation. @internal */
export interface ChatConversationData {
  system?: OpenAIChatMessage[];
}

/**
 * Something a conversion could not carry exactly, with where it happened: the same shape in
 * `ctxkit/openai`, `ctxkit/anthropic` and `ctxkit/ai-sdk`.
 *
 * @example
 * ```ts
 * const warning: ConversionWarning = { index: 3, message: 'messages[3].content[1] is a file; ctxkit carries it verbatim…' };
 * for (const { index, message } of fromOpenAIChat(history).warnings) console.warn(`message ${index}: ${message}`);
 * ```
 */
export interface ConversionWarning {
  /** The index of the message (or item, or response output) in the converter's input the warning is about. */
  index: number;
  /** What was lost or changed, in words, naming the field. */
  message: string;
}
