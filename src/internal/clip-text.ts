/**
 * Code-point-safe clipping shared by the summarization paths. Internal.
 */

/** Splits text into code points (an astral character is one element). @internal */
export function codePoints(text: string): string[] {
  return Array.from(text);
}

/** Whether a UTF-16 code unit starts a surrogate pair. @internal */
export const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
/** Whether a UTF-16 code unit ends a surrogate pair. @internal */
export const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/**
 * Counts Unicode code points (not UTF-16 units), so that an emoji or a rare CJK character is one
 * character, as it is to a reader; a lone surrogate counts as one. Counted without building them.
 *
 * @internal
 */
export function codePointLength(text: string): number {
  let count = text.length;
  for (let index = 0; index + 1 < text.length; index++) {
    if (isHighSurrogate(text.charCodeAt(index)) && isLowSurrogate(text.charCodeAt(index + 1))) {
      count--;
      index++;
    }
  }
  return count;
}

/** The UTF-16 index where the first `count` code points of `text` end (a surrogate pair is one). */
function headEnd(text: string, count: number): number {
  let index = 0;
  for (let taken = 0; taken < count && index < text.length; taken++) {
    index += isHighSurrogate(text.charCodeAt(index)) && isLowSurrogate(text.charCodeAt(index + 1)) ? 2 : 1;
  }
  return index;
}

/** The UTF-16 index where the last `count` code points of `text` start. */
function tailStart(text: string, count: number): number {
  let index = text.length;
  for (let taken = 0; taken < count && index > 0; taken++) {
    index -=
      index >= 2 && isLowSurrogate(text.charCodeAt(index - 1)) && isHighSurrogate(text.charCodeAt(index - 2)) ? 2 : 1;
  }
  return index;
}

/**
 * Keeps at most `max` code points: the head only, or the head and the tail around a marker.
 * The marker counts toward `max`; when there is no room for it, only the head is kept. Cut by
 * index, without splitting the text into code points.
 *
 * @internal
 */
export function clipText(text: string, max: number, mode: 'head' | 'head_tail' = 'head_tail'): string {
  if (text.length <= max) return text; // UTF-16 length bounds the code-point count from above
  const points = codePointLength(text);
  if (points <= max) return text;
  const marker = '\n[…]\n';
  // Counts as `Array.prototype.slice` reads them (truncated), so a fractional `max` cuts as before.
  if (mode === 'head' || max < marker.length + 2) return text.slice(0, headEnd(text, Math.trunc(max)));
  const room = max - marker.length;
  const head = Math.ceil(room / 2);
  const tail = room - head;
  const tailText = tail > 0 ? text.slice(tailStart(text, points - Math.trunc(points - tail))) : '';
  return text.slice(0, headEnd(text, Math.trunc(head))) + marker + tailText;
}

/** Where a sentence ends: `.`, `!` or `?` before whitespace, or a CJK full stop, `！` or `？` (no space follows those). */
const SENTENCE_END = /[.!?](?=\s)|[。！？]/g;

/**
 * Where to end `head`, the start of a longer text, so no word is cut: after its last line (with
 * `lines`), else its last sentence, else its last word, the first of these that keeps at least half
 * of it; `head.length` when none does (one unbroken run, such as Chinese without punctuation).
 *
 * @example
 * ```ts
 * wordBoundary('First sentence. Second sen'); // 15: after "First sentence."
 * ```
 */
export function wordBoundary(head: string, { lines = false }: { lines?: boolean } = {}): number {
  const half = head.length / 2;
  if (lines) {
    const line = head.lastIndexOf('\n');
    if (line >= half) return line;
  }
  let sentence = -1;
  for (const match of head.matchAll(SENTENCE_END)) sentence = match.index + 1;
  if (sentence >= half) return sentence;
  const space = head.search(/\s\S*$/);
  return space >= half ? space : head.length;
}
