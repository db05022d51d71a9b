// Measuring and cutting text by lines, code points or UTF-8 bytes, never inside a character: the
// pieces truncateToolContent and processToolOutput are built from. @internal
import type { TruncateMode } from '../../config/index.js';
import { isHighSurrogate, isLowSurrogate } from '../../internal/clip-text.js';
import { clipLine } from '../../summarizing/tool-output/lines.js';
import { lineRank } from '../../summarizing/tool-output-highlights.js';

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

/** `1 line`, `2,000 lines`. */
export function formatCount(value: number, unit: string): string {
  return `${value.toLocaleString('en-US')} ${unit}${value === 1 ? '' : 's'}`;
}

/** The line ending an output uses: `\r\n` when its first line break is one, else `\n`. @internal */
export function lineEndingOf(text: string): '\n' | '\r\n' {
  const first = text.indexOf('\n');
  return first > 0 && text.charCodeAt(first - 1) === 13 ? '\r\n' : '\n';
}

/** Where a line cut put its `... [N lines omitted] ...` marker, to keep it whole through later cuts. */
interface LineMarker {
  /** UTF-16 offsets of the marker in the kept text (the line break after the head ends at `start`). */
  start: number;
  end: number;
}

/** A cut: the kept text, whether it still ends with the end of what was cut, and its line marker. */
export interface Kept {
  text: string;
  end: boolean;
  marker?: LineMarker;
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

/** The line marker for `count` omitted lines. @internal */
function lineMarker(count: number): string {
  return `... [${formatCount(count, 'line')} omitted] ...`;
}

/** A line of an output that states an error (`ERROR …`, `Traceback`, `FAILED`), by its index. @internal */
export interface ErrorLine {
  index: number;
  rank: number;
  text: string;
}

/** Words that say something failed, counted to tell error lines of one rank apart. */
const FAILURE_WORDS = /error|fail|exception|refused|denied|fatal|panic/gi;

/** Error lines of the omitted middle a marker names at most, each within so many code points. */
const MARKED_ERRORS = 3;
const MARKED_ERROR_CHARS = 200;
/** Error lines read out of one output at most: the first ones, which a marker picks from. */
const ERROR_LINES_READ = 1000;

/**
 * The lines of an output that state an error or a failure (ranked 5 and up as the summarizer ranks
 * them), in order, at most {@link ERROR_LINES_READ}: what a head-and-tail cut names of the middle it
 * omits, so a log's errors in its middle are not lost with it. One pass over the text.
 *
 * @internal
 */
export function errorLinesOf(text: string): ErrorLine[] {
  const found: ErrorLine[] = [];
  let start = 0;
  for (let index = 0; start < text.length && found.length < ERROR_LINES_READ; index++) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end);
    const rank = lineRank(line);
    // Among lines of one rank, the one with more words of failure says more than a name that holds
    // one (`libgpg-error-dev` in a listing beside `ERROR … upload failed: Connection refused`).
    if (rank >= 5)
      found.push({ index, rank: rank * 10 + Math.min(9, line.match(FAILURE_WORDS)?.length ?? 0), text: line });
    start = end + 1;
  }
  return found;
}

/**
 * Keeps `count` lines of a text of `lines` lines: the first ones, or with `marker` the first and
 * last around a marker line. Reads only the lines it keeps; a `\r\n` output keeps `\r\n` around the
 * marker and never ends in a lone `\r`. With `errors` (see {@link errorLinesOf}) and room for ten
 * lines or more, the marker names up to three of the omitted lines that state an error, one a line,
 * in place of as many kept lines.
 */
export function cutLines(
  text: string,
  lines: number,
  count: number,
  marker: boolean,
  errors: readonly ErrorLine[] = [],
): Kept {
  if (lines <= count) return { text, end: true };
  if (!marker) return { text: dropFinalReturn(text.slice(0, afterNewlines(text, count) - 1)), end: false };
  let room = count - 1;
  let head = Math.ceil(room / 2);
  let tail = room - head;
  let named: ErrorLine[] = [];
  if (count >= 10 && errors.length > 0) {
    const omitted = errors.filter((error) => error.index >= head && error.index < lines - tail);
    named = omitted
      .sort((left, right) => right.rank - left.rank || left.index - right.index)
      .slice(0, MARKED_ERRORS)
      .sort((left, right) => left.index - right.index);
    // Each named line takes a kept line's place; fewer kept lines only widen what is omitted.
    room -= named.length;
    head = Math.ceil(room / 2);
    tail = room - head;
  }
  let textEnd = text.endsWith('\n') ? text.length - 1 : text.length;
  if (textEnd < text.length && text.charCodeAt(textEnd - 1) === 13) textEnd--;
  let tailStart = textEnd;
  for (let found = 0; found < tail; found++) tailStart = text.lastIndexOf('\n', tailStart - 1);
  // The `\r` of a `\r\n` belongs with its `\n`, after the marker.
  if (tail > 0 && tailStart > 0 && text.charCodeAt(tailStart - 1) === 13) tailStart--;
  const kept = text.slice(0, afterNewlines(text, head));
  const eol = lineEndingOf(text);
  const omitted =
    named.length === 0
      ? lineMarker(lines - head - tail)
      : `... [${formatCount(lines - head - tail, 'line')} omitted; among them:${named
          .map(
            (error) =>
              `${eol}line ${error.index + 1}: ${clipLine(error.text.replace(/\r$/, '').trim(), MARKED_ERROR_CHARS)}`,
          )
          .join('')}] ...`;
  return {
    text: `${kept}${omitted}${tail > 0 ? text.slice(tailStart, textEnd) : ''}`,
    end: tail > 0,
    marker: { start: kept.length, end: kept.length + omitted.length },
  };
}

function dropFinalReturn(text: string): string {
  return text.charCodeAt(text.length - 1) === 13 ? text.slice(0, -1) : text;
}

/** Room in both units at once: code points and UTF-8 bytes. @internal */
interface Room {
  chars: number;
  bytes: number;
}

/** The UTF-16 width and UTF-8 size of the code point at `index`. */
function pointAt(text: string, index: number): { width: number; bytes: number } {
  const code = text.charCodeAt(index);
  if (isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(index + 1))) return { width: 2, bytes: 4 };
  return { width: 1, bytes: code < 0x80 ? 1 : code < 0x800 ? 2 : 3 };
}

/** Like {@link pointAt} for the code point that ends just before `end`. */
function pointBefore(text: string, end: number): { width: number; bytes: number } {
  const code = text.charCodeAt(end - 1);
  if (isLowSurrogate(code) && end >= 2 && isHighSurrogate(text.charCodeAt(end - 2))) return { width: 2, bytes: 4 };
  return pointAt(text, end - 1);
}

let segmenter: Intl.Segmenter | undefined;
/** Code units read either side of a cut to find the grapheme cluster it falls in. */
const CLUSTER_WINDOW = 64;

/**
 * The grapheme cluster around a cut at `index` (family emoji, flags, letters with combining marks,
 * `\r\n`): its start and end, or `undefined` when the cut is between two clusters. Looks only at a
 * window around the cut, so it costs the same on a long text as on a short one.
 */
function clusterAround(text: string, index: number): { start: number; end: number } | undefined {
  if (index <= 0 || index >= text.length) return undefined;
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  // Two ASCII characters are two clusters, except `\r\n`.
  if (before < 0x80 && after < 0x80)
    return before === 13 && after === 10 ? { start: index - 1, end: index + 1 } : undefined;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const from = Math.max(0, index - CLUSTER_WINDOW);
  const window = text.slice(from, Math.min(text.length, index + CLUSTER_WINDOW));
  const segment = segmenter.segment(window).containing(index - from);
  if (segment === undefined || from + segment.index === index) return undefined;
  return { start: from + segment.index, end: from + segment.index + segment.segment.length };
}

/** Units of a piece of text in both measures. */
function roomOf(text: string): Room {
  const size = measureText(text);
  return { chars: size.chars, bytes: size.bytes };
}

/** The UTF-16 offset where the longest head of whole clusters within `room` ends. */
function headWithin(text: string, room: Room): number {
  let end = 0;
  let chars = 0;
  let bytes = 0;
  while (end < text.length) {
    const point = pointAt(text, end);
    if (chars + 1 > room.chars || bytes + point.bytes > room.bytes) break;
    chars++;
    bytes += point.bytes;
    end += point.width;
  }
  return end === text.length ? end : (clusterAround(text, end)?.start ?? end);
}

/** The UTF-16 offset where the longest tail of whole clusters within `room` starts (not before `floor`). */
function tailWithin(text: string, room: Room, floor = 0): number {
  let start = text.length;
  let chars = 0;
  let bytes = 0;
  while (start > floor) {
    const point = pointBefore(text, start);
    if (chars + 1 > room.chars || bytes + point.bytes > room.bytes) break;
    chars++;
    bytes += point.bytes;
    start -= point.width;
  }
  return start === floor ? start : (clusterAround(text, start)?.end ?? start);
}

const INLINE_MARKER = ' … [middle omitted] … ';
const INLINE_MARKER_SIZE = /* @__PURE__ */ measureText(INLINE_MARKER);

/**
 * Keeps as many whole grapheme clusters as fit in both rooms at once (code points and UTF-8 bytes):
 * the head, or in `head_tail` mode the head and the tail around an inline marker. Never splits a
 * cluster (a family emoji, a flag, a letter and its combining marks, `\r\n`), and reads only the
 * parts it keeps, so a multi-megabyte line costs no more than a short one.
 */
export function cutToRoom(text: string, room: Room, mode: TruncateMode): Kept {
  if (fitsWithin(text, room)) return { text, end: true };
  const headTail =
    mode === 'head_tail' && room.chars >= INLINE_MARKER_SIZE.chars * 3 && room.bytes >= INLINE_MARKER_SIZE.bytes * 3;
  if (!headTail) return { text: dropFinalReturn(text.slice(0, headWithin(text, room))), end: false };
  const free = { chars: room.chars - INLINE_MARKER_SIZE.chars, bytes: room.bytes - INLINE_MARKER_SIZE.bytes };
  const headEnd = headWithin(text, { chars: Math.ceil(free.chars / 2), bytes: Math.ceil(free.bytes / 2) });
  const used = roomOf(text.slice(0, headEnd));
  const tailStart = tailWithin(text, { chars: free.chars - used.chars, bytes: free.bytes - used.bytes }, headEnd);
  return {
    text: text.slice(0, headEnd) + INLINE_MARKER + text.slice(tailStart),
    end: tailStart < text.length,
  };
}

/** Whether a text fits the room, reading at most one code point past it. */
function fitsWithin(text: string, room: Room): boolean {
  if (text.length <= room.chars && text.length * 3 <= room.bytes) return true;
  return (
    headWithin(text, { chars: room.chars + 1, bytes: room.bytes + 4 }) === text.length && fitsIn(roomOf(text), room)
  );
}

function fitsIn(size: Room, room: Room): boolean {
  return size.chars <= room.chars && size.bytes <= room.bytes;
}

/** Lines a piece of kept text shows (a leading line break starts no line of its own). */
function linesShown(text: string): number {
  return measureText(text.replace(/^\r?\n/, '')).lines;
}

/**
 * A line cut that does not fit the code-point or byte room, cut further without ever cutting into
 * its `... [N lines omitted] ...` marker: the head's start and the tail's end are kept (whole
 * clusters) around the whole marker, whose count then says how many lines are gone entirely. A
 * line cut without a marker is cut as any text. `undefined` when not even the marker fits.
 *
 * @internal
 */
export function cutLineCut(cut: Kept, totalLines: number, room: Room, mode: TruncateMode): Kept | undefined {
  if (!cut.marker) return cutToRoom(cut.text, room, mode);
  if (fitsWithin(cut.text, room)) return cut;
  const eol = lineEndingOf(cut.text);
  const head = cut.text.slice(0, cut.marker.start);
  const tail = cut.text.slice(cut.marker.end);
  let omitted = Number(/\[([\d,]+) line/.exec(cut.text.slice(cut.marker.start, cut.marker.end))![1]!.replace(/,/g, ''));
  // The count can grow by a digit as fewer lines are shown: measure again with the new count.
  for (let attempt = 0; attempt < 3; attempt++) {
    const marker = lineMarker(omitted);
    const markerSize = roomOf(eol + marker + eol);
    const free = { chars: room.chars - markerSize.chars, bytes: room.bytes - markerSize.bytes };
    if (free.chars < 1 || free.bytes < 1) return undefined;
    const headEnd = headWithin(head, { chars: Math.ceil(free.chars / 2), bytes: Math.ceil(free.bytes / 2) });
    let kept = dropFinalReturn(head.slice(0, headEnd).replace(/\r?\n$/, ''));
    const used = roomOf(kept);
    const tailStart = tailWithin(tail, { chars: free.chars - used.chars, bytes: free.bytes - used.bytes });
    const shownTail = tail.slice(tailStart).replace(/^\r?\n/, '');
    const gone = totalLines - (kept ? linesShown(kept) : 0) - (shownTail ? linesShown(shownTail) : 0);
    if (gone !== omitted) {
      omitted = gone;
      continue;
    }
    kept = kept ? `${kept}${eol}` : '';
    const text = `${kept}${marker}${shownTail ? `${eol}${shownTail}` : ''}`;
    if (!fitsWithin(text, room)) return undefined;
    return { text, end: shownTail.length > 0, marker: { start: kept.length, end: kept.length + marker.length } };
  }
  return undefined;
}

/** Drops trailing line breaks (`\n`, `\r\n`), which would add a line before a notice that the room did not count. */
export function trimNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && (text.charCodeAt(end - 1) === 10 || text.charCodeAt(end - 1) === 13)) end--;
  return text.slice(0, end);
}
