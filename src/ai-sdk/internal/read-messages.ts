import { expectObject, expectStringField, invalid, type WireObject } from '../../internal/wire-object.js';
import type { AssistantMessage, Message, UserMessage } from '../../types.js';
import type { AISDKMessageInput, ConversionWarning } from '../message-types.js';
import { withData } from './provider-data.js';
import { passthrough, providerOptionsOf, readAssistantPart, readUserPart } from './read-parts.js';
import { readToolResult } from './read-tool-results.js';

// AI SDK messages (ModelMessage, or the provider-level prompt) to ctxkit messages. Every field ctxkit
// does not model goes to `providerData['ai-sdk']` so the writer rebuilds the message exactly.

/** What the reader returns. @internal */
export interface ReadResult {
  /** The leading system messages, as they came. */
  system: WireObject[];
  messages: Message[];
  warnings: ConversionWarning[];
}

/** Adds message-level data to a converted message. */
function withMessageData<T extends Message>(message: T, data: WireObject): T {
  const extra = withData(data).providerData?.['ai-sdk'] as WireObject | undefined;
  if (extra === undefined) return message;
  const existing = (message.providerData?.['ai-sdk'] as WireObject | undefined) ?? {};
  return { ...message, providerData: { ...message.providerData, 'ai-sdk': { ...existing, ...extra } } };
}

function readTool(message: WireObject, index: number, where: string, separate: boolean): Message[] {
  const content = message['content'];
  if (!Array.isArray(content)) invalid(where, `messages[${index}].content`, 'must be an array of tool results');
  const out: Message[] = content.map((value, position): Message => {
    const place = { where, path: `messages[${index}].content[${position}]` };
    const part = expectObject(value, where, place.path);
    if (expectStringField(part, 'type', where, place.path) === 'tool-result') return readToolResult(part, place);
    const carried: UserMessage = { role: 'user', content: [passthrough(part, place)] };
    return withMessageData(carried, { role: 'tool' });
  });
  if (out.length === 0) {
    return [
      withMessageData({ role: 'user', content: [] } as UserMessage, {
        role: 'tool',
        messageOptions: providerOptionsOf(message),
      }),
    ];
  }
  out[0] = withMessageData(out[0]!, {
    toolMessage: separate ? 'new' : undefined,
    messageOptions: providerOptionsOf(message),
  });
  return out;
}

/**
 * Reads AI SDK messages (`ModelMessage[]` or the provider-level prompt). Leading system messages are
 * returned apart (unless `leadingSystem` is false, for a continuation); later ones become user
 * messages that the writer turns back into system messages.
 *
 * @internal
 */
export function readMessages(input: readonly AISDKMessageInput[], where: string, leadingSystem = true): ReadResult {
  if (!Array.isArray(input)) invalid(where, 'messages', 'must be an array of messages');
  const system: WireObject[] = [];
  const messages: Message[] = [];
  let leading = leadingSystem;
  let previousRole: unknown;
  input.forEach((value, index) => {
    const message = expectObject(value, where, `messages[${index}]`);
    const role = message['role'];
    const content = message['content'];
    const path = `messages[${index}]`;
    if (role === 'system') {
      if (typeof content !== 'string') invalid(where, `${path}.content`, 'must be a string');
      if (leading) system.push(message);
      else
        messages.push(
          withMessageData({ role: 'user', content }, { role: 'system', providerOptions: providerOptionsOf(message) }),
        );
    } else if (role === 'tool') {
      messages.push(...readTool(message, index, where, previousRole === 'tool'));
    } else if (role === 'user' || role === 'assistant') {
      if (typeof content !== 'string' && !Array.isArray(content)) {
        invalid(where, `${path}.content`, 'must be a string or an array of parts');
      }
      messages.push(role === 'user' ? readUser(message, index, where) : readAssistant(message, index, where));
    } else {
      invalid(where, `${path}.role`, "must be 'system', 'user', 'assistant' or 'tool'");
    }
    if (role !== 'system') leading = false;
    previousRole = role;
  });
  return { system, messages, warnings: [] };
}

function readUser(message: WireObject, index: number, where: string): UserMessage {
  const content = message['content'] as string | unknown[];
  const user: UserMessage =
    typeof content === 'string'
      ? { role: 'user', content }
      : {
          role: 'user',
          content: content.map((part, position) =>
            readUserPart(part, { where, path: `messages[${index}].content[${position}]` }),
          ),
        };
  return withMessageData(user, { providerOptions: providerOptionsOf(message) });
}

function readAssistant(message: WireObject, index: number, where: string): AssistantMessage {
  const content = message['content'] as string | unknown[];
  const assistant: AssistantMessage =
    typeof content === 'string'
      ? { role: 'assistant', content: [{ type: 'text', text: content }] }
      : {
          role: 'assistant',
          content: content.map((part, position) =>
            readAssistantPart(part, { where, path: `messages[${index}].content[${position}]` }),
          ),
        };
  return withMessageData(assistant, {
    content: typeof content === 'string' ? 'string' : undefined,
    providerOptions: providerOptionsOf(message),
  });
}
