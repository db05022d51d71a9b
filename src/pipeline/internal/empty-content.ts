import type {
  AssistantMessage,
  ImageContent,
  TextContent,
  ThinkingContent,
  ToolCall,
  UserMessage,
} from '../../types.js';

// Providers reject empty messages and empty text blocks (Anthropic: "text content blocks must contain
// non-whitespace text", "all messages must have non-empty content"; OpenAI-compatible servers: an
// assistant message without content or tool calls). These helpers give the sendable form of a message:
// the same object when nothing is empty, a memoized copy without the empty parts, or `undefined` when
// nothing is left to send. Empty thinking that carries a signature or `providerData` is kept: the
// provider needs it back (an OpenAI reasoning item with no summary, for one).

const users = new WeakMap<UserMessage, UserMessage | null>();
const assistants = new WeakMap<AssistantMessage, AssistantMessage | null>();

type Part = TextContent | ImageContent | ThinkingContent | ToolCall;

function isEmptyPart(part: Part): boolean {
  if (part.type === 'text') return part.text.trim() === '';
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
    const { content } = message;
    if (typeof content === 'string') sendable = content.trim() === '' ? null : message;
    else {
      const kept = content.filter((part) => !isEmptyPart(part));
      sendable = kept.length === 0 ? null : kept.length === content.length ? message : { ...message, content: kept };
    }
    users.set(message, sendable);
  }
  return sendable ?? undefined;
}

/**
 * The assistant message as it can be sent: empty text and thinking parts removed, `undefined` when no
 * part is left (a turn with tool calls always keeps them, so pairing is unaffected).
 * @internal
 */
export function sendableAssistant(message: AssistantMessage): AssistantMessage | undefined {
  let sendable = assistants.get(message);
  if (sendable === undefined) {
    const kept = message.content.filter((part) => !isEmptyPart(part));
    sendable =
      kept.length === 0 ? null : kept.length === message.content.length ? message : { ...message, content: kept };
    assistants.set(message, sendable);
  }
  return sendable ?? undefined;
}
