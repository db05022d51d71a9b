// Cutting a checkpoint item short without cutting a word. Internal.
import { clipText } from '../../internal/clip-text.js';

/** Where a sentence ends: `.`, `!` or `?` before a space, or a CJK full stop, `！` or `？`. */
const SENTENCE_END = /[.!?](?=\s)|[。！？]/g;
/** What an item cut short ends with. */
const CUT_MARK = ' …';

/**
 * An item within `max` code points, cut where a sentence ends (whole sentences kept when they fill
 * at least half of it), else between words, else where the room ends, and marked ` …` as cut.
 *
 * @internal
 */
export function clipItem(item: string, max: number): string {
  if (item.length <= max) return item;
  const head = clipText(item, max - CUT_MARK.length, 'head');
  if (head === item) return item;
  let sentence = -1;
  for (const match of head.matchAll(SENTENCE_END)) sentence = match.index + 1;
  const space = head.lastIndexOf(' ');
  const end = sentence >= head.length / 2 ? sentence : space >= head.length / 2 ? space : head.length;
  return `${head.slice(0, end).trimEnd()}${CUT_MARK}`;
}
