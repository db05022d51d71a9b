import type { Message } from '../types.js';

/**
 * The text of a message as a transcript shows it: text parts, thinking, tool calls as
 * `name {arguments}`, images as a marker.
 *
 * @internal
 */
export function messageText(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  const parts: string[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        parts.push(part.text);
        break;
      case 'image':
        parts.push(`[image ${part.mimeType}]`);
        break;
      case 'thinking':
        parts.push(part.redacted ? '[thinking, redacted]' : `[thinking] ${part.thinking}`);
        break;
      case 'toolCall':
        parts.push(`→ ${part.name} ${JSON.stringify(part.arguments)}`);
        break;
    }
  }
  return parts.join('\n');
}

/**
 * The first `length` code points of a message's text on one line, with an ellipsis when cut.
 *
 * @internal
 */
export function preview(text: string, length = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const points = Array.from(flat);
  return points.length <= length ? flat : `${points.slice(0, length - 1).join('')}…`;
}

/**
 * A short label for a message: its role, or the tool a result comes from.
 *
 * @internal
 */
export function messageLabel(message: Message): string {
  if (message.role === 'toolResult') return `toolResult(${message.toolName})`;
  return message.role;
}
