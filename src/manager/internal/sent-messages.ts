import { isAgentVisible } from '../../counting/is-agent-visible.js';
import { ARCHIVED_RESULT_PLACEHOLDER, MISSING_RESULT_TEXT } from '../../messages/wire-strings.js';
import type { AssistantMessage, TextContent, ToolResultMessage } from '../../types.js';

/** The content of every archived result's placeholder: one frozen array, shared. @internal */
export const PLACEHOLDER_CONTENT: readonly TextContent[] = Object.freeze([
  Object.freeze({ type: 'text' as const, text: ARCHIVED_RESULT_PLACEHOLDER }),
]);
/** The content of every synthetic result of an unanswered call: one frozen array, shared. @internal */
export const MISSING_CONTENT: readonly TextContent[] = Object.freeze([
  Object.freeze({ type: 'text' as const, text: MISSING_RESULT_TEXT }),
]);
const PLACEHOLDER_META = Object.freeze({ agentVisible: true, kind: 'tool_result_archived' });
const MISSING_META = Object.freeze({ kind: 'tool_result', userVisible: false });
const ARCHIVED_META = Object.freeze({ agentVisible: false, kind: 'tool_result_archived' });

/**
 * An archived copy of a tool result, equal to `archiveToolResult`'s: hidden from the model, kind
 * `tool_result_archived`, every other field kept. Built without an object spread followed by a new
 * key, which makes V8 give each copy a dictionary (about 320 bytes instead of 70), and with one
 * shared frozen `meta` when the result has none: the manager keeps one per archived result.
 *
 * @internal
 */
export function archivedCopy(result: ToolResultMessage): ToolResultMessage {
  const meta =
    result.meta === undefined
      ? ARCHIVED_META
      : Object.assign({}, result.meta, { agentVisible: false, kind: 'tool_result_archived' });
  return Object.assign({}, result, { meta });
}

/** What is sent for a result: itself when visible, else its placeholder; under the call's sent id. @internal */
export function sendable(result: ToolResultMessage, id: string): ToolResultMessage {
  if (isAgentVisible(result)) return result.toolCallId === id ? result : { ...result, toolCallId: id };
  return {
    role: 'toolResult',
    toolCallId: id,
    toolName: result.toolName,
    content: PLACEHOLDER_CONTENT as TextContent[],
    ...(result.isError === undefined ? {} : { isError: result.isError }),
    meta: placeholderMeta(result),
  };
}

function placeholderMeta(result: ToolResultMessage): ToolResultMessage['meta'] {
  const meta = result.meta;
  if (meta === undefined) return PLACEHOLDER_META;
  for (const key in meta) if (key !== 'agentVisible' && key !== 'kind') return { ...meta, ...PLACEHOLDER_META };
  return PLACEHOLDER_META;
}

/** The synthetic error result sent for a call until its result arrives. @internal */
export function missingResult(id: string, name: string): ToolResultMessage {
  return {
    role: 'toolResult',
    toolCallId: id,
    toolName: name,
    content: MISSING_CONTENT as TextContent[],
    isError: true,
    meta: MISSING_META,
  };
}

/** The assistant message with its tool calls under the ids they are sent with (`ids`, in call order). @internal */
export function withCallIds(message: AssistantMessage, ids: readonly { id: string }[]): AssistantMessage {
  let rank = 0;
  return {
    ...message,
    content: message.content.map((part) => (part.type === 'toolCall' ? { ...part, id: ids[rank++]!.id } : part)),
  };
}
