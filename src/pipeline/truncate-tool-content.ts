import {
  DEFAULT_TOOL_OUTPUT_LIMITS,
  type ToolOutputLimits,
  type TruncateMode,
  toolOutputSchema,
} from '../config/index.js';
import { ConfigError } from '../errors.js';
import { parseOptions } from '../validation/parse-options.js';

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

/**
 * What {@link truncateToolContent} did.
 *
 * @example
 * ```ts
 * const { stats } = truncateToolContent(output);
 * if (stats.limitedBy.length > 0) console.log(`cut by ${stats.limitedBy.join(', ')}`);
 * ```
 */
export interface TruncationStats {
  /** The size of the input. */
  original: TextSize;
  /** The size of the returned text, notice included. */
  result: TextSize;
  /** The limits the input exceeded, in the order they were applied. */
  limitedBy: Array<'lines' | 'chars' | 'bytes'>;
}

/**
 * The result of {@link truncateToolContent}.
 *
 * @example
 * ```ts
 * const result: TruncateResult = truncateToolContent(output, { maxLines: 100 });
 * ```
 */
export interface TruncateResult {
  /** The text to store: the input when it fit, else the kept part followed by a notice. */
  text: string;
  /** Whether anything was cut. */
  truncated: boolean;
  /** The input is over `largeOutputThreshold`: save it in full with a `SpillStore` before dropping it. */
  needsSpill: boolean;
  /** Sizes before and after. */
  stats: TruncationStats;
}

/**
 * What {@link processToolOutput} adds to the notice: where the full output was saved, or why it
 * could not be. @internal
 */
export interface TruncateNoticeOptions {
  /** The full output was saved here: the notice keeps the path (and the hash) as long as it fits. */
  spilled?: { path: string; sha256: string };
  /** Saving the full output failed for this reason. */
  spillError?: string;
  /** Append the notice even when the text fits (the text was spilled). */
  always?: boolean;
  /** The public function whose limits these are, for error messages. @default 'truncateToolContent' */
  functionName?: string;
}

/** How much of the input the kept text shows. */
type Shown = 'all' | 'beginning' | 'beginning and end' | 'nothing';

/** One wording of the notice, for each way the input can have been kept. */
type Notice = (shown: Shown) => string;

/** The separators between the kept text and the notice, from the most readable to the shortest. */
const SEPARATORS = ['\n\n', '\n', ' '] as const;
const SHORT_NOTICE = '[output truncated]';

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

function fits(size: TextSize, limits: ToolOutputLimits): boolean {
  return size.lines <= limits.maxLines && size.chars <= limits.maxChars && size.bytes <= limits.maxBytes;
}

function formatCount(value: number, unit: string): string {
  return `${value.toLocaleString('en-US')} ${unit}${value === 1 ? '' : 's'}`;
}

/**
 * The notices to try, from the most to the least informative; `[output truncated]` is the last,
 * unless the text fits (`fitted`: it was only spilled) and the notice is only there for the path.
 */
function noticesFor(original: TextSize, options: TruncateNoticeOptions, fitted: boolean): Notice[] {
  const full = `${formatCount(original.lines, 'line')}, ${formatCount(original.chars, 'character')}, ${formatCount(original.bytes, 'byte')}`;
  const { spilled, spillError } = options;
  const saved = spilled && `Full output saved to ${spilled.path} (SHA-256 ${spilled.sha256}).`;
  const extra = saved ?? (spillError === undefined ? '' : `The full output could not be saved: ${spillError}.`);
  const stats: Notice = (shown) => {
    if (shown === 'all') return `[Output kept in full (${full}).${extra ? ` ${extra}` : ''}]`;
    const kept =
      shown === 'nothing' ? '' : `; showing the ${shown === 'beginning' ? 'beginning' : 'beginning and the end'}`;
    return `[Output truncated: the full output had ${full}${kept}.${extra ? ` ${extra}` : ''}]`;
  };
  if (spilled === undefined) return [stats, () => SHORT_NOTICE];
  const { path, sha256 } = spilled;
  const prefix = (shown: Shown) => (shown === 'all' ? 'Full output' : 'Output truncated; full output');
  const notices: Notice[] = [
    stats,
    (shown) => `[${prefix(shown)} saved to ${path} (SHA-256 ${sha256})]`,
    (shown) => `[${prefix(shown)} saved to ${path}]`,
    () => `[Full output: ${path}]`,
  ];
  // Text that fits was only spilled, not cut: saying it was truncated would be wrong.
  return fitted ? notices : [...notices, () => SHORT_NOTICE];
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
function cutLines(text: string, lines: number, count: number, marker: boolean): Kept {
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

type Unit = 'chars' | 'bytes';

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
function cutBy(text: string, max: number, mode: TruncateMode, unit: Unit): Kept {
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
function trimNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  return text.slice(0, end);
}

/** Limits already checked: the frozen `toolOutput` of a resolved config, or ones parsed before. */
const checkedLimits = new WeakSet<object>([DEFAULT_TOOL_OUTPUT_LIMITS]);

function resolveLimits(limits: Partial<ToolOutputLimits> | undefined, functionName: string): ToolOutputLimits {
  if (limits !== undefined && checkedLimits.has(limits)) return { ...DEFAULT_TOOL_OUTPUT_LIMITS, ...limits };
  const parsed = parseOptions(functionName, toolOutputSchema, limits ?? {}, 'limits');
  const given = Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== undefined));
  const resolved: ToolOutputLimits = { ...DEFAULT_TOOL_OUTPUT_LIMITS, ...given };
  if (limits !== undefined && Object.isFrozen(limits)) checkedLimits.add(limits);
  return resolved;
}

/** The largest size of any wording of a notice, behind a separator. */
function reserveFor(notice: Notice, separator: string): TextSize {
  const sizes = (['all', 'beginning', 'beginning and end'] as const).map((shown) =>
    measureText(separator + notice(shown)),
  );
  return {
    lines: Math.max(...sizes.map((size) => size.lines)),
    chars: Math.max(...sizes.map((size) => size.chars)),
    bytes: Math.max(...sizes.map((size) => size.bytes)),
  };
}

/**
 * Applies the limits in the reference order (lines, code points, UTF-8 bytes) and appends the
 * notice after the separator; `undefined` when the notice leaves no room for any of the text.
 * With `needMarker`, a line cut must keep its head/tail marker or the attempt fails (so that a
 * shorter separator can make room for it).
 */
function cutWithNotice(
  text: string,
  original: TextSize,
  limits: ToolOutputLimits,
  notice: Notice | undefined,
  separator: string,
  needMarker: boolean,
): string | undefined {
  const reserved = notice === undefined ? { lines: 1, chars: 0, bytes: 0 } : reserveFor(notice, separator);
  // The separator's first line is the kept text's last line.
  const lineRoom = limits.maxLines - (reserved.lines - 1);
  const charRoom = limits.maxChars - reserved.chars;
  const byteRoom = limits.maxBytes - reserved.bytes;
  if (lineRoom < 1 || charRoom < 1 || byteRoom < 1) return undefined;
  // The reference keeps the head and the tail around a marker line when the line limit is at least 4.
  const marker = limits.truncateMode === 'head_tail' && limits.maxLines >= 4;
  if (marker && needMarker && original.lines > lineRoom && lineRoom < 3) return undefined;
  const byLines = cutLines(text, original.lines, lineRoom, marker && lineRoom >= 3);
  const byChars = cutBy(byLines.text, charRoom, limits.truncateMode, 'chars');
  const byBytes = cutBy(byChars.text, byteRoom, limits.truncateMode, 'bytes');
  let result = byBytes.text;
  if (notice !== undefined) {
    const kept = trimNewlines(byBytes.text);
    if (kept === '') return undefined;
    const shown: Shown =
      byBytes.text === text ? 'all' : byLines.end && byChars.end && byBytes.end ? 'beginning and end' : 'beginning';
    result = kept + separator + notice(shown);
  }
  // An inline marker in a byte cut can hold more code points than the middle it replaced.
  return fits(measureText(result), limits) ? result : undefined;
}

/** The head that fits, with no notice: the last resort, always within the limits. */
function cutHead(text: string, original: TextSize, limits: ToolOutputLimits): string {
  const byLines = cutLines(text, original.lines, limits.maxLines, false).text;
  // Every code point is at least one byte, so this many bytes also fits the code-point limit.
  return cutBy(byLines, Math.min(limits.maxChars, limits.maxBytes), 'head', 'bytes').text;
}

/** The notice alone, when no part of the text fits beside it. */
function noticeAlone(notice: Notice, limits: ToolOutputLimits): string | undefined {
  const result = notice('nothing');
  return fits(measureText(result), limits) ? result : undefined;
}

/**
 * Truncation with the notice degrading as the limits shrink: the full notice, then shorter ones
 * (keeping a spill path as long as one fits), each after a blank line, a newline or a space, then a
 * notice alone, and no notice only when not even `[output truncated]` fits. @internal
 */
export function truncateWithNotice(
  text: string,
  limitsInput: Partial<ToolOutputLimits> | undefined,
  options: TruncateNoticeOptions = {},
): TruncateResult {
  const limits = resolveLimits(limitsInput, options.functionName ?? 'truncateToolContent');
  const original = measureText(text);
  const needsSpill = original.chars > limits.largeOutputThreshold;
  const limitedBy: TruncationStats['limitedBy'] = [];
  if (original.lines > limits.maxLines) limitedBy.push('lines');
  if (original.chars > limits.maxChars) limitedBy.push('chars');
  if (original.bytes > limits.maxBytes) limitedBy.push('bytes');
  if (limitedBy.length === 0 && !options.always) {
    return { text, truncated: false, needsSpill, stats: { original, result: original, limitedBy } };
  }
  const notices = noticesFor(original, options, limitedBy.length === 0);
  const result =
    firstOf(notices, (notice) =>
      firstOf(SEPARATORS, (separator, index) =>
        cutWithNotice(text, original, limits, notice, separator, index < SEPARATORS.length - 1),
      ),
    ) ??
    firstOf(notices, (notice) => noticeAlone(notice, limits)) ??
    cutWithNotice(text, original, limits, undefined, '', false) ??
    cutHead(text, original, limits);
  return {
    text: result,
    truncated: result !== text,
    needsSpill,
    stats: { original, result: measureText(result), limitedBy },
  };
}

/** The first defined result of `attempt` over `items`, in order. */
function firstOf<T>(items: readonly T[], attempt: (item: T, index: number) => string | undefined): string | undefined {
  for (const [index, item] of items.entries()) {
    const result = attempt(item, index);
    if (result !== undefined) return result;
  }
  return undefined;
}

/**
 * Cuts one tool output to the tool-output limits, the reference way: lines first (keeping the first
 * and last lines around a marker in `head_tail` mode when the line limit is at least 4), then Unicode
 * code points, then UTF-8 bytes, and appends a notice with the full output's size that says
 * whether the end was kept.
 *
 * The model is always told that output was cut when the limits leave room to say so: under small
 * limits the notice moves closer (a newline, then a space instead of a blank line), then shrinks to
 * `[output truncated]`, alone if need be; only limits too small even for that (under 18 code
 * points or bytes) get the bare head of the output.
 *
 * The returned text, notice included, is within every limit, so the function is idempotent:
 * truncating its output again returns it unchanged. It never splits a surrogate pair or a UTF-8
 * sequence. It does not save anything: when `needsSpill` is true, hand the original to a
 * `SpillStore` (or use {@link processToolOutput}, which does both).
 *
 * @param text - The tool output.
 * @param limits - Limits to apply; missing fields and fields set to `undefined` take the reference
 *   defaults (2,000 lines, 50 KiB, 200 Ki code points, spill threshold 200 Ki code points, `head_tail`).
 * @returns The text to store, whether it was cut, whether it should be spilled, and sizes.
 * @throws {@link ConfigError} when a limit is not a whole number greater than 0.
 *
 * @example
 * ```ts
 * const result = truncateToolContent(buildLog, { maxLines: 200 });
 * if (result.truncated) console.log(result.stats.original.lines, '→', result.stats.result.lines);
 * ```
 */
export function truncateToolContent(text: string, limits?: Partial<ToolOutputLimits>): TruncateResult {
  return truncateWithNotice(text, limits);
}
