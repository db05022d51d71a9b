// The tool results ctxkit clears (archived, placeholder and missing results: kept-tool-results.ts).
import type { ToolResultMessage } from '../types.js';
import { onlyText } from './internal/message-text.js';
import { CLEARED_RESULT_KIND } from './wire-strings.js';

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
