// A summary held to the output budget it was asked for, cut where a line or a sentence ends. @internal
import type { TokenCounter } from '../../counting/token-counter.js';
import { clipText, codePointLength, wordBoundary } from '../../internal/clip-text.js';
import { checkpointCut, leastCut } from '../../summarizing/checkpoint-cut.js';

/** A Markdown heading: a structured checkpoint, cut by its sections rather than from its end. */
const HEADING_LINE = /^\s{0,3}#{1,6}\s+\S/m;

/**
 * How far past its budget (by the counter) a summary may run before it is cut: a model that honours
 * `maxOutputTokens` by its own tokenizer may still measure somewhat more by the host's counter.
 */
export const SUMMARY_OVERRUN = 1.5;

/**
 * `text` within `tokens` by `counter`. A checkpoint with headings loses what a resumer needs least
 * first (done items and old progress, whole lines or back to a sentence's end; the goal, next steps
 * and critical context last). Other text keeps its head, ending where a line ends, else where a
 * sentence ends, else between words (the last resort for one unbroken paragraph): never inside a word.
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
  if (measured > tokens && HEADING_LINE.test(text)) {
    const cut = leastCut(
      checkpointCut(text),
      (head) => head,
      (head) => counter.count(head) <= tokens,
    );
    // Only the headings left (or less): the sections held too little to be worth the structure.
    if (cut.trim() && !cut.split('\n').every((line) => !line.trim() || HEADING_LINE.test(line))) return cut;
  }
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
