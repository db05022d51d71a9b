// A summary held to the output budget it was asked for, cut where a line or a sentence ends. @internal
import type { TokenCounter } from '../../counting/token-counter.js';
import { clipText, codePointLength } from '../../internal/clip-text.js';

/**
 * How far past its budget (by the counter) a summary may run before it is cut: a model that honours
 * `maxOutputTokens` by its own tokenizer may still measure somewhat more by the host's counter.
 */
export const SUMMARY_OVERRUN = 1.5;

/** Where a sentence ends: `.`, `!`, `?` (or their CJK forms) before a space or the end. */
const SENTENCE_END = /[.!?。！？](?=\s|$)/g;

/**
 * The head of `text` within `tokens` by `counter`, ending where a line ends, else where a sentence
 * ends, else between words (the last resort for one unbroken paragraph): never inside a word.
 *
 * @internal
 */
export function cutToBudget(text: string, tokens: number, counter: TokenCounter): string {
  let chars = codePointLength(text);
  let cut = text;
  for (let attempt = 0; attempt < 12 && counter.count(cut) > tokens; attempt++) {
    const measured = counter.count(cut);
    chars = Math.max(1, Math.floor((chars * tokens) / measured) - (attempt === 0 ? 0 : Math.ceil(chars / 20)));
    cut = atBoundary(clipText(text, chars, 'head'));
  }
  return cut;
}

/** `head` back to its last line end, sentence end or space, whichever keeps at least half of it. */
function atBoundary(head: string): string {
  const half = head.length / 2;
  const line = head.lastIndexOf('\n');
  if (line >= half) return head.slice(0, line).trimEnd();
  let sentence = -1;
  for (const match of head.matchAll(SENTENCE_END)) sentence = match.index + 1;
  if (sentence >= half) return head.slice(0, sentence);
  const space = head.search(/\s\S*$/);
  return (space >= half ? head.slice(0, space) : head).trimEnd();
}
