// What the model sees of a context, as the fidelity benches check it for facts.
import type { Message } from '../src/index.js';
import { normalizeForCheck } from '../src/summarizing/anchors/normalize.js';
import { summarizeToolOutput } from '../src/summarizing/index.js';

/**
 * What the model sees, normalized for the check. A tool result kept verbatim counts with its parsed
 * form too, so `src/a.ts(14,23)` in raw tsc output matches the key `src/a.ts:14:23`; `notation`
 * rewrites the text before it is normalized (the unseen-output bench accepts the tools' own forms).
 */
export function visibleText(messages: readonly Message[], notation: (text: string) => string = (text) => text): string {
  const parts: string[] = [];
  for (const message of messages) {
    if (message.meta?.agentVisible === false) continue;
    if (message.role === 'toolResult') {
      const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
      parts.push(text, summarizeToolOutput(text, { maxChars: 100_000 }));
    } else if (typeof message.content === 'string') parts.push(message.content);
    else
      for (const part of message.content) {
        if (part.type === 'text') parts.push(part.text);
        else if (part.type === 'toolCall') parts.push(JSON.stringify(part.arguments));
      }
  }
  return normalizeForCheck(notation(parts.join('\n')));
}
