import { isAgentVisible } from '../../counting/is-agent-visible.js';
import { createArchivedPlaceholder } from '../../messages/internal/kept-tool-results.js';
import type { AssistantMessage, ToolResultMessage } from '../../types.js';

/** What is sent for a result: itself when visible, else its placeholder; under the call's sent id. @internal */
export function sendable(result: ToolResultMessage, id: string): ToolResultMessage {
  if (isAgentVisible(result)) return result.toolCallId === id ? result : { ...result, toolCallId: id };
  return createArchivedPlaceholder(result, id);
}

/** The assistant message with its tool calls under the ids they are sent with (`ids`, in call order). @internal */
export function withCallIds(message: AssistantMessage, ids: readonly { id: string }[]): AssistantMessage {
  // A loop, not a callback: a closure made per message is compiled again by V8 once it is hot.
  const content: AssistantMessage['content'] = [];
  let rank = 0;
  for (const part of message.content) content.push(part.type === 'toolCall' ? { ...part, id: ids[rank++]!.id } : part);
  return { ...message, content };
}
