// The conversation the Chat Completions converters take and return, and what they keep in
// `providerData.openai.chat` (internal).

import type { Message, ProviderData } from '../types.js';
import type { OpenAIChatMessage } from './chat-types.js';
import type { WireObject } from './internal/wire-object.js';

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
