import type { Message, ToolResultMessage } from '../../types.js';

/** `meta.kind` of a tool result the manager archived (its copy in the history keeps the whole output). */
const ARCHIVED_KIND = 'tool_result_archived';

/** Whether `message` is the archived copy of a tool result (hidden from the model, output kept). @internal */
export function isArchivedResult(message: Message): boolean {
  return message.role === 'toolResult' && message.meta?.kind === ARCHIVED_KIND && message.meta.agentVisible === false;
}

/** The text of a tool result: its text parts joined by newlines, other parts named. @internal */
export function resultText(result: ToolResultMessage): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}
