// Measuring and cutting text by lines, code points or UTF-8 bytes, never inside a character: the
// pieces truncateToolContent and processToolOutput are built from. @internal
import type { TruncateMode } from '../../config/index.js';

/**
 * The size of a text in the three units the tool-output limits use.
 *
 * @example
 * ```ts
 * const size: TextSize = { lines: 2, chars: 5, bytes: 5 }; // "ab\ncd"
 * ```
 */
export interface TextSize {
  /** Lines, counted as `wc -l` would plus one for a last line without a newline. */
  lines: number;
  /** Unicode code points. */
  chars: number;
  /** UTF-8 bytes. */
  bytes: number;
}

/** Measures a text in lines, code points and UTF-8 bytes in one pass. @internal */
export function measureText(text: string): TextSize {
  let chars = 0;
  let bytes = 0;
  let newlines = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    chars++;
    if (code < 0x80) {
      bytes += 1;
      if (code === 10) newlines++;
    } else if (code < 0x800) {
      bytes += 2;
    } else if (isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index++;
    } else {
      bytes += 3; // a BMP character, or a lone surrogate encoded as U+FFFD
    }
  }
  const lines = text.length === 0 ? 0 : newlines + (text.endsWith('\n') ? 0 : 1);
  return { lines, chars, bytes };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** `1 line`, `2,000 lines`. */
export function formatCount(value: number, unit: string): string {
  return `${value.toLocaleString('en-US')} ${unit}${value === 1 ? '' : 's'}`;
}

/** A cut: the kept text, and whether it still ends with the end of what was cut. */
interface Kept {
  text: string;
  end: boolean;
}

/** The index just past the `count`-th newline from `start` (or the text's length). */
function afterNewlines(text: string, count: number): number {
  let index = -1;
  for (let found = 0; found < count; found++) {
    index = text.indexOf('\n', index + 1);
    if (index === -1) return text.length;
  }
  return index + 1;
}

/**
 * Keeps `count` lines of a text of `lines` lines: the first ones, or with `marker` the first and
 * last around a marker line. Reads only the lines it keeps.
 */
export function cutLines(text: string, lines: number, count: number, marker: boolean): Kept {
  if (lines <= count) return { text, end: true };
  if (!marker) return { text: text.slice(0, afterNewlines(text, count) - 1), end: false };
  const room = count - 1;
  const head = Math.ceil(room / 2);
  const tail = room - head;
  const textEnd = text.endsWith('\n') ? text.length - 1 : text.length;
  let tailStart = textEnd;
  for (let found = 0; found < tail; found++) tailStart = text.lastIndexOf('\n', tailStart - 1);
  const omitted = `... [${formatCount(lines - head - tail, 'line')} omitted] ...`;
  const kept = `${text.slice(0, afterNewlines(text, head))}${omitted}${tail > 0 ? text.slice(tailStart, textEnd) : ''}`;
  return { text: kept, end: tail > 0 };
}

export type Unit = 'chars' | 'bytes';

/** The code point at `index` (a UTF-16 offset): its width in UTF-16 units and its size in `unit`. */
function pointAt(text: string, index: number, unit: Unit): { width: number; units: number } {
  const code = text.charCodeAt(index);
  const pair = isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(index + 1));
  if (unit === 'chars') return { width: pair ? 2 : 1, units: 1 };
  return { width: pair ? 2 : 1, units: pair ? 4 : code < 0x80 ? 1 : code < 0x800 ? 2 : 3 };
}

/** Like {@link pointAt} for the code point that ends just before `end`. */
function pointBefore(text: string, end: number, unit: Unit): { width: number; units: number } {
  const code = text.charCodeAt(end - 1);
  const pair = isLowSurrogate(code) && end >= 2 && isHighSurrogate(text.charCodeAt(end - 2));
  return pair ? { width: 2, units: unit === 'chars' ? 1 : 4 } : pointAt(text, end - 1, unit);
}

/** The UTF-16 offset where the head of at most `max` units ends, and the units it holds. */
function headEnd(text: string, max: number, unit: Unit): { end: number; used: number } {
  let end = 0;
  let used = 0;
  while (end < text.length) {
    const point = pointAt(text, end, unit);
    if (used + point.units > max) break;
    used += point.units;
    end += point.width;
  }
  return { end, used };
}

const INLINE_MARKER = ' … [middle omitted] … ';
const INLINE_MARKER_SIZE = measureText(INLINE_MARKER);

/**
 * Keeps as many whole code points as fit in `max` units (code points or UTF-8 bytes): the head, or
 * the head and the tail around an inline marker. Never splits a surrogate pair, and reads only the
 * parts it keeps, so a multi-megabyte line costs no more than a short one.
 */
export function cutBy(text: string, max: number, mode: TruncateMode, unit: Unit): Kept {
  // UTF-16 length bounds both sizes: code points <= length, bytes <= 3 × length.
  if (text.length * (unit === 'chars' ? 1 : 3) <= max) return { text, end: true };
  const markerUnits = unit === 'chars' ? INLINE_MARKER_SIZE.chars : INLINE_MARKER_SIZE.bytes;
  const headTail = mode === 'head_tail' && max >= markerUnits * 3;
  const room = headTail ? max - markerUnits : max;
  // Does the whole text fit? Read at most `max + 1` units to find out.
  const whole = headEnd(text, max, unit);
  if (whole.end === text.length) return { text, end: true };
  const head = headTail ? headEnd(text, Math.ceil(room / 2), unit) : whole;
  if (!headTail) return { text: text.slice(0, head.end), end: false };
  let start = text.length;
  let tailUsed = 0;
  while (start > head.end) {
    const point = pointBefore(text, start, unit);
    if (head.used + tailUsed + point.units > room) break;
    tailUsed += point.units;
    start -= point.width;
  }
  return { text: text.slice(0, head.end) + INLINE_MARKER + text.slice(start), end: start < text.length };
}

/** Drops trailing newlines, which would add a line before a notice that the room did not count. */
export function trimNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  return text.slice(0, end);
}
