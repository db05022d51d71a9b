import type { Message, ToolResultMessage } from '../../types.js';

/**
 * The text parts of a message joined (images, thinking and tool calls left out).
 *
 * @internal
 */
export function textOf(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * The text of a tool result made of one text part, else `undefined`.
 *
 * @internal
 */
export function onlyText(message: ToolResultMessage): string | undefined {
  const only = message.content.length === 1 ? message.content[0] : undefined;
  return only?.type === 'text' ? only.text : undefined;
}
