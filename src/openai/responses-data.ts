// The conversation the Responses converters take and return, and what they keep in
// `providerData.openai.responses` (internal).

import type { Message, ProviderData } from '../types.js';
import type { WireObject } from './internal/wire-object.js';

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
