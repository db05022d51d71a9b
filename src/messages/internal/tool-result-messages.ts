// The tool results ctxkit writes or rewrites: archived, placeholder, missing, cleared.
import type { ToolCall, ToolResultMessage } from '../../types.js';
import { ARCHIVED_RESULT_PLACEHOLDER, CLEARED_RESULT_KIND, MISSING_RESULT_TEXT } from '../wire-strings.js';
import { onlyText } from './message-text.js';

/** Archives a tool result: hidden from the model, `userVisible` kept, kind `tool_result_archived`. @internal */
export function archiveToolResult(result: ToolResultMessage): ToolResultMessage {
  return { ...result, meta: { ...result.meta, agentVisible: false, kind: 'tool_result_archived' } };
}

/** What the model sees in place of an archived tool result. @internal */
export function createArchivedPlaceholder(result: ToolResultMessage): ToolResultMessage {
  return {
    role: 'toolResult',
    toolCallId: result.toolCallId,
    toolName: result.toolName,
    content: [{ type: 'text', text: ARCHIVED_RESULT_PLACEHOLDER }],
    ...(result.isError === undefined ? {} : { isError: result.isError }),
    meta: { ...result.meta, agentVisible: true, kind: 'tool_result_archived' },
  };
}

/** The error result added for a tool call that has none. @internal */
export function createMissingResult(call: ToolCall): ToolResultMessage {
  return {
    role: 'toolResult',
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: 'text', text: MISSING_RESULT_TEXT }],
    isError: true,
    meta: { kind: 'tool_result', userVisible: false },
  };
}

/** A tool result emptied down to `placeholder`, of kind `tool_result_cleared`. @internal */
export function clearToolResult(message: ToolResultMessage, placeholder: string): ToolResultMessage {
  return {
    ...message,
    content: [{ type: 'text', text: placeholder }],
    meta: { ...message.meta, kind: CLEARED_RESULT_KIND },
  };
}

/** Whether a tool result was already cleared (by kind, or by its text when `meta` was lost). @internal */
export function isClearedToolResult(message: ToolResultMessage, placeholder: string): boolean {
  return message.meta?.kind === CLEARED_RESULT_KIND || onlyText(message) === placeholder;
}
