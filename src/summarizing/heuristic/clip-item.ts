// Cutting a checkpoint item short without cutting a word. Internal.
import { clipText, wordBoundary } from '../../internal/clip-text.js';

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
  return `${head.slice(0, wordBoundary(head)).trimEnd()}${CUT_MARK}`;
}
