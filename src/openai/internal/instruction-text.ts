import { isObject } from '../../internal/wire-object.js';

/** What a system or developer message says: its text, or its text parts joined. @internal */
export function instructionText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join('');
}
