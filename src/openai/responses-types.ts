import type { WireObject } from '../internal/wire-object.js';
import type { Message, ProviderData } from '../types.js';
import type { OpenAIPromptCacheBreakpoint } from './chat-types.js';

/**
 * The Responses API wire format for the items ctxkit models, written against the HTTP API so
 * `ctxkit/openai` has no runtime dependency on the `openai` package. What the converters return can be
 * passed as `input` to `client.responses.create`; items of other types (web search calls, item
 * references, MCP calls…) pass through the converters verbatim.
 */

/** Text in an input message or a function call's output. */
export interface OpenAIResponsesInputText {
  type: 'input_text';
  text: string;
  prompt_cache_breakpoint?: OpenAIPromptCacheBreakpoint;
}

/** An image in an input message or a function call's output: a URL, a `data:` URL or an uploaded file. */
export interface OpenAIResponsesInputImage {
  type: 'input_image';
  detail: 'low' | 'high' | 'auto' | 'original';
  image_url?: string | null;
  file_id?: string | null;
  prompt_cache_breakpoint?: OpenAIPromptCacheBreakpoint;
}

/** A file in an input message. */
export interface OpenAIResponsesInputFile {
  type: 'input_file';
  file_data?: string;
  file_id?: string | null;
  file_url?: string;
  filename?: string;
  prompt_cache_breakpoint?: OpenAIPromptCacheBreakpoint;
}

/** Any part of an input message. */
export type OpenAIResponsesInputPart = OpenAIResponsesInputText | OpenAIResponsesInputImage | OpenAIResponsesInputFile;

/** A message from the user, the application (`system`, `developer`) or, in easy form, the assistant. */
export interface OpenAIResponsesInputMessage {
  role: 'user' | 'assistant' | 'system' | 'developer';
  content: string | OpenAIResponsesInputPart[];
  type?: 'message';
}

/** A citation inside the model's text. */
export type OpenAIResponsesAnnotation =
  | { type: 'file_citation'; file_id: string; filename: string; index: number }
  | { type: 'url_citation'; url: string; title: string; start_index: number; end_index: number }
  | {
      type: 'container_file_citation';
      container_id: string;
      file_id: string;
      filename: string;
      start_index: number;
      end_index: number;
    }
  | { type: 'file_path'; file_id: string; index: number };

/** Text the model wrote, with its citations. */
export interface OpenAIResponsesOutputText {
  type: 'output_text';
  text: string;
  annotations: OpenAIResponsesAnnotation[];
}

/** A refusal the model wrote. */
export interface OpenAIResponsesRefusal {
  type: 'refusal';
  refusal: string;
}

/** A message the model wrote, as returned in `response.output` and sent back as input. */
export interface OpenAIResponsesOutputMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  status: 'in_progress' | 'completed' | 'incomplete';
  content: (OpenAIResponsesOutputText | OpenAIResponsesRefusal)[];
}

/** A function call the model made; `arguments` is a JSON string and `call_id` pairs it with its output. */
export interface OpenAIResponsesFunctionCall {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
  id?: string;
  status?: 'in_progress' | 'completed' | 'incomplete';
}

/** The output of a function call, answering the call with the same `call_id`. */
export interface OpenAIResponsesFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string | (OpenAIResponsesInputText | OpenAIResponsesInputImage | OpenAIResponsesInputFile)[];
  id?: string | null;
  status?: 'in_progress' | 'completed' | 'incomplete' | null;
}

/**
 * The model's reasoning. With `store: false` (or zero data retention) it must be sent back with its
 * `encrypted_content` (request it with `include: ['reasoning.encrypted_content']`).
 */
export interface OpenAIResponsesReasoning {
  type: 'reasoning';
  id: string;
  summary: { type: 'summary_text'; text: string }[];
  content?: { type: 'reasoning_text'; text: string }[];
  encrypted_content?: string | null;
  status?: 'in_progress' | 'completed' | 'incomplete';
}

/**
 * One input item of a Responses request that ctxkit models, structurally compatible with the `openai`
 * SDK's `ResponseInputItem`.
 *
 * @example
 * ```ts
 * const items: OpenAIResponsesItem[] = [
 *   { role: 'user', content: 'List the files' },
 *   { type: 'function_call', call_id: 'call_1', name: 'ls', arguments: '{}' },
 *   { type: 'function_call_output', call_id: 'call_1', output: 'a.ts' },
 * ];
 * ```
 */
export type OpenAIResponsesItem =
  | OpenAIResponsesInputMessage
  | OpenAIResponsesOutputMessage
  | OpenAIResponsesFunctionCall
  | OpenAIResponsesFunctionCallOutput
  | OpenAIResponsesReasoning;

/**
 * Any input or output item as the converters accept it: the ones ctxkit models, or another item type
 * (carried verbatim). An SDK `ResponseInputItem[]` or `response.output` is accepted as it is.
 *
 * @example
 * ```ts
 * const items: OpenAIResponsesItemInput[] = [...history, ...response.output];
 * ```
 */
export type OpenAIResponsesItemInput = OpenAIResponsesItem | { type?: string | null };

/** Token usage of a Responses response (`input_tokens` includes `cached_tokens`). */
export interface OpenAIResponsesUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens?: number;
  input_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
  output_tokens_details?: { reasoning_tokens?: number } | null;
}

/**
 * A Responses API response, structurally compatible with the `openai` SDK's `Response`.
 *
 * @example
 * ```ts
 * const response: OpenAIResponse = await client.responses.create({ model, input: items, store: false });
 * ```
 */
export interface OpenAIResponse {
  id: string;
  model: string;
  output: OpenAIResponsesItemInput[];
  status?: 'completed' | 'failed' | 'in_progress' | 'cancelled' | 'queued' | 'incomplete' | (string & {});
  incomplete_details?: { reason?: string } | null;
  error?: { code?: string; message?: string } | null;
  usage?: OpenAIResponsesUsage;
}

// The conversation the Responses converters take and return, and what they keep in
// `providerData.openai.responses` (internal).

/** On a message. @internal */
export interface ResponsesMessageData {
  /** Item fields ctxkit does not model (`type`, `id`, `status`, future fields), verbatim. */
  fields?: WireObject;
  /** A user message standing in for a system or developer message in the middle of the list. */
  role?: 'system' | 'developer';
  /** A function call output spelled as a list of parts. */
  content?: 'parts';
}

/** On a content part of a message, or on the part an assistant-side item became. @internal */
export interface ResponsesPartData {
  /** Fields of the part ctxkit does not model (`type`, `annotations`, `detail`…), verbatim. */
  fields?: WireObject;
  /** A part or item ctxkit does not model, carried whole behind a placeholder text. */
  raw?: WireObject;
  /** The fields of the item this part starts (all but its content), verbatim. */
  item?: WireObject;
  /** A later part of the same output message as the part before it. */
  continues?: true;
  /** The item's content was a string (an easy-form assistant message), which this text is. */
  string?: true;
  /** A refusal part. */
  refusal?: true;
  /** The function call's arguments as the wire spelled them, when `JSON.stringify` would differ. */
  arguments?: string;
  /** An image URL without a scheme, so it is not taken for base64 data. */
  opaque?: true;
}

/**
 * A Responses input in ctxkit's terms: the system prompt apart, the rest as ctxkit messages. What
 * {@link fromOpenAIResponses} returns and {@link toOpenAIResponses} takes.
 *
 * @example
 * ```ts
 * const conversation: OpenAIResponsesConversation = { messages: [{ role: 'user', content: 'hi' }] };
 * ```
 */
export interface OpenAIResponsesConversation {
  /**
   * The text of the leading system and developer messages, joined by a blank line; `undefined` when
   * there are none (the request's `instructions` parameter is the host's own).
   */
  systemPrompt?: string;
  /** Every other item, as ctxkit messages, in order. */
  messages: Message[];
  /**
   * The leading instruction messages verbatim (`providerData.openai.responses.system`), when they are
   * more than one plain system message; reused by {@link toOpenAIResponses} while `systemPrompt` is
   * unchanged.
   */
  providerData?: ProviderData;
}

/** The system messages kept verbatim on a conversation. @internal */
export interface ResponsesConversationData {
  system?: WireObject[];
}
