import type { AssistantMessage, ImageContent, TextContent, ThinkingContent, ToolCall, UserMessage } from '../types.js';

// Providers reject empty messages and empty text blocks (Anthropic: "text content blocks must contain
// non-whitespace text", "all messages must have non-empty content"; OpenAI-compatible servers: an
// assistant message without content or tool calls). These helpers give the sendable form of a message:
// the same object when nothing is empty, a memoized copy without the empty parts, or `undefined` when
// nothing is left to send. Empty thinking that carries a signature or `providerData` is kept: the
// provider needs it back (an OpenAI reasoning item with no summary, for one).

const users = new WeakMap<UserMessage, UserMessage | null>();
const assistants = new WeakMap<AssistantMessage, AssistantMessage | null>();

type Part = TextContent | ImageContent | ThinkingContent | ToolCall;

/** Whether `code` is a UTF-16 unit that `\s` matches (and `String.prototype.trim` removes). */
function isWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * `/\S/.test(text)`: whether `text` holds a character `String.prototype.trim` would keep. A loop
 * that settles most text at its first unit, a few times faster than the regular expression, and
 * asked of every user message and text part a manager takes in.
 *
 * @internal
 */
export function hasNonWhitespace(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (!isWhitespace(text.charCodeAt(index))) return true;
  return false;
}

function isEmptyPart(part: Part): boolean {
  if (part.type === 'text') return !hasNonWhitespace(part.text);
  if (part.type === 'thinking') {
    return (
      part.thinking.trim() === '' && part.signature === undefined && !part.redacted && part.providerData === undefined
    );
  }
  return false;
}

/**
 * The user message as it can be sent: whitespace-only text parts removed, `undefined` when no content is left.
 * @internal
 */
export function sendableUser(message: UserMessage): UserMessage | undefined {
  let sendable = users.get(message);
  if (sendable === undefined) {
    sendable = withoutEmptyUserParts(message) ?? null;
    users.set(message, sendable);
  }
  return sendable ?? undefined;
}

/**
 * {@link sendableUser} without its memo, for callers that keep the result (the manager's projection).
 * @internal
 */
export function withoutEmptyUserParts(message: UserMessage): UserMessage | undefined {
  const { content } = message;
  if (typeof content === 'string') return hasNonWhitespace(content) ? message : undefined;
  if (!content.some(isEmptyPart)) return content.length === 0 ? undefined : message;
  const kept = content.filter((part) => !isEmptyPart(part));
  return kept.length === 0 ? undefined : { ...message, content: kept };
}

/**
 * {@link sendableAssistant} without its memo, for callers that keep the result (the manager's projection).
 * @internal
 */
export function withoutEmptyAssistantParts(message: AssistantMessage): AssistantMessage | undefined {
  const { content } = message;
  if (!content.some(isEmptyPart)) return content.length === 0 ? undefined : message;
  const kept = content.filter((part) => !isEmptyPart(part));
  return kept.length === 0 ? undefined : { ...message, content: kept };
}

/**
 * The assistant message as it can be sent: empty text and thinking parts removed, `undefined` when no
 * part is left (a turn with tool calls always keeps them, so pairing is unaffected).
 * @internal
 */
export function sendableAssistant(message: AssistantMessage): AssistantMessage | undefined {
  let sendable = assistants.get(message);
  if (sendable === undefined) {
    sendable = withoutEmptyAssistantParts(message) ?? null;
    assistants.set(message, sendable);
  }
  return sendable ?? undefined;
}
