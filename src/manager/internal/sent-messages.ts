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
  // A loop, not a callback: a closure made per message is compiled again by V8 once it is hot. A
  // slice, not pushes onto an empty array: the copy is kept as long as the session, and pushing
  // gives it room for 17 parts (152 bytes) where a slice gives it exactly its own.
  const content = message.content.slice();
  let rank = 0;
  for (let index = 0; index < content.length; index++) {
    const part = content[index]!;
    if (part.type === 'toolCall') content[index] = { ...part, id: ids[rank++]!.id };
  }
  return { ...message, content };
}
