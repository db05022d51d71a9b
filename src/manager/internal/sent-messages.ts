import { isAgentVisible } from '../../counting/is-agent-visible.js';
import { createArchivedPlaceholder } from '../../messages/internal/kept-tool-results.js';
import type { AssistantMessage, ToolCall, ToolResultMessage } from '../../types.js';

/** What is sent for a result: itself when visible, else its placeholder; under the call's sent id. @internal */
export function sendable(result: ToolResultMessage, id: string): ToolResultMessage {
  if (isAgentVisible(result)) return result.toolCallId === id ? result : { ...result, toolCallId: id };
  return createArchivedPlaceholder(result, id);
}

/**
 * The assistant message with its tool calls under the ids they are sent with (`ids`, in call
 * order). The copies are kept as long as the session, thousands at once in a first call on a long
 * history with reused ids: the parts and the content array of the common shapes are object and
 * array literals, which V8 can allocate straight into the old generation once it sees they live
 * long (allocation-site pretenuring); copies made by a spread or a slice are always copied out of
 * the young generation by the next collections (at 200k messages with reused ids, about 40 ms of a
 * first call went to those collections).
 *
 * @internal
 */
export function withCallIds(message: AssistantMessage, ids: readonly { id: string }[]): AssistantMessage {
  const parts = message.content;
  let content: AssistantMessage['content'];
  if (parts.length === 1) content = [renamed(parts[0]!, ids, 0)];
  else if (parts.length === 2) {
    const first = parts[0]!;
    content = [renamed(first, ids, 0), renamed(parts[1]!, ids, first.type === 'toolCall' ? 1 : 0)];
  } else {
    // A loop over a slice, not a map: exactly the parts' room, no callback made per message.
    content = parts.slice();
    let rank = 0;
    for (let index = 0; index < content.length; index++) {
      const part = content[index]!;
      if (part.type === 'toolCall') content[index] = renamedCall(part, ids[rank++]!.id);
    }
  }
  return { ...message, content };
}

/** `part` under the id of rank `rank` when it is a tool call, else itself. */
function renamed(
  part: AssistantMessage['content'][number],
  ids: readonly { id: string }[],
  rank: number,
): AssistantMessage['content'][number] {
  return part.type === 'toolCall' ? renamedCall(part, ids[rank]!.id) : part;
}

/** The keys of a tool call that {@link renamedCall} copies into a literal of their own shape, in order. */
const CALL_KEYS = ['type', 'id', 'name', 'arguments', 'providerData'] as const;

/** `{ ...call, id }`: as an object literal when the call's keys are the usual ones, in their usual order. */
function renamedCall(call: ToolCall, id: string): ToolCall {
  let keys = 0;
  for (const key in call) {
    if (CALL_KEYS[keys] !== key) return { ...call, id };
    keys++;
  }
  if (keys === 4) return { type: call.type, id, name: call.name, arguments: call.arguments };
  if (keys === 5)
    return { type: call.type, id, name: call.name, arguments: call.arguments, providerData: call.providerData };
  return { ...call, id };
}
