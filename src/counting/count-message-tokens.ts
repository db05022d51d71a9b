import type { Message } from '../types.js';
import { safeJson } from './internal/safe-json.js';
import { IMAGE_TOKENS, type TokenCounter } from './token-counter.js';

/** Every piece of text in a message that reaches the model, and its number of images. */
function collectText(message: Message): { text: string; images: number } {
  const content = message.content;
  if (typeof content === 'string') return { text: content, images: 0 };
  let text = '';
  let images = 0;
  for (const part of content) {
    switch (part.type) {
      case 'text':
        text += part.text;
        break;
      case 'thinking':
        text += part.thinking;
        break;
      case 'toolCall':
        text += part.name + safeJson(part.arguments);
        break;
      case 'image':
        images++;
        break;
    }
  }
  return { text, images };
}

/**
 * {@link estimateMessageTokens} without its cache, for callers that keep the count themselves
 * (the manager's projection keeps one number per sent message, not a cache entry per object).
 *
 * @internal
 */
export function countMessageTokens(message: Message, counter: TokenCounter): number {
  let { text, images } = collectText(message);
  // A compaction made by `POST /responses/compact` goes to its maker with the user messages the
  // endpoint returned before its item (`native.leading`): counted too, so the estimate before the
  // provider's next usage is not short of them (any other model is sent less: the portable summary).
  const leading = message.meta?.native?.leading;
  if (leading !== undefined) for (const item of leading) text += safeJson(item);
  return (
    (text.length > 0 ? counter.count(text) : 0) +
    images * (counter.imageTokens ?? IMAGE_TOKENS) +
    (counter.messageOverhead ?? 0)
  );
}
