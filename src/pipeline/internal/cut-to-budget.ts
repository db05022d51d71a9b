// A summary held to the output budget it was asked for, cut where a line or a sentence ends. @internal
import type { TokenCounter } from '../../counting/token-counter.js';
import { clipText, codePointLength, wordBoundary } from '../../internal/clip-text.js';

/**
 * How far past its budget (by the counter) a summary may run before it is cut: a model that honours
 * `maxOutputTokens` by its own tokenizer may still measure somewhat more by the host's counter.
 */
export const SUMMARY_OVERRUN = 1.5;

/**
 * The head of `text` within `tokens` by `counter`, ending where a line ends, else where a sentence
 * ends, else between words (the last resort for one unbroken paragraph): never inside a word.
 * `measured` is the text's count when the caller has it.
 *
 * @internal
 */
export function cutToBudget(
  text: string,
  tokens: number,
  counter: TokenCounter,
  measured = counter.count(text),
): string {
  let chars = codePointLength(text);
  let cut = text;
  for (let attempt = 0; attempt < 12 && measured > tokens; attempt++) {
    chars = Math.max(1, Math.floor((chars * tokens) / measured) - (attempt === 0 ? 0 : Math.ceil(chars / 20)));
    const head = clipText(text, chars, 'head');
    cut = head.slice(0, wordBoundary(head, { lines: true })).trimEnd();
    measured = counter.count(cut);
  }
  return cut;
}
