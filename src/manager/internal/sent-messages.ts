import { isAgentVisible } from '../../counting/is-agent-visible.js';
import { createArchivedPlaceholder } from '../../messages/kept-tool-results.js';
import type { AssistantMessage, ToolResultMessage } from '../../types.js';

/** What is sent for a result: itself when visible, else its placeholder; under the call's sent id. @internal */
export function sendable(result: ToolResultMessage, id: string): ToolResultMessage {
  if (isAgentVisible(result)) return result.toolCallId === id ? result : { ...result, toolCallId: id };
  return createArchivedPlaceholder(result, id);
}

/**
 * The assistant message with its tool calls under the ids they are sent with (`ids`, in call order).
 *
 * @internal
 */
export function withCallIds(message: AssistantMessage, ids: readonly { id: string }[]): AssistantMessage {
  let rank = 0;
  const content = message.content.map((part) => (part.type === 'toolCall' ? { ...part, id: ids[rank++]!.id } : part));
  return { ...message, content };
}
