import { DEFAULT_TOOL_OUTPUT_LIMITS, type ToolOutputLimits, type TruncateMode } from '../config.js';
import { ConfigError } from '../errors.js';

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

/** How the notice is phrased; `extra` is a line the caller adds (a spill location, say). @internal */
export interface TruncateNoticeOptions {
  extra?: string;
  /** Append the notice even when the text fits (the text was spilled). */
  always?: boolean;
}

const SEPARATOR = '\n\n';
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
    } else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index++;
    } else {
      bytes += 3; // a BMP character, or a lone surrogate encoded as U+FFFD
    }
  }
  const lines = text.length === 0 ? 0 : newlines + (text.endsWith('\n') ? 0 : 1);
  return { lines, chars, bytes };
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

function describe(size: TextSize, mode: TruncateMode, extra: string | undefined): string {
  const kept = mode === 'head_tail' ? 'showing the beginning and the end' : 'showing the beginning';
  const full = `${formatCount(size.lines, 'line')}, ${formatCount(size.chars, 'character')}, ${formatCount(size.bytes, 'byte')}`;
  return `[Output truncated: the full output had ${full}; ${kept}.${extra ? ` ${extra}` : ''}]`;
}

/** Keeps `count` lines: the first ones, or the first and last around a marker line. */
function cutLines(text: string, count: number, mode: TruncateMode): string {
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  if (lines.length <= count) return text;
  if (mode === 'head_tail' && count >= 4) {
    const room = count - 1;
    const head = Math.ceil(room / 2);
    const tail = room - head;
    const omitted = lines.length - head - tail;
    return [
      ...lines.slice(0, head),
      `... [${formatCount(omitted, 'line')} omitted] ...`,
      ...lines.slice(lines.length - tail),
    ].join('\n');
  }
  return lines.slice(0, count).join('\n');
}

type Unit = 'chars' | 'bytes';

/** The code point at `index` (a UTF-16 offset): its width in UTF-16 units and its size in `unit`. */
function pointAt(text: string, index: number, unit: Unit): { width: number; units: number } {
  const code = text.charCodeAt(index);
  const pair = code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1));
  if (unit === 'chars') return { width: pair ? 2 : 1, units: 1 };
  return { width: pair ? 2 : 1, units: pair ? 4 : code < 0x80 ? 1 : code < 0x800 ? 2 : 3 };
}

/** Like {@link pointAt} for the code point that ends just before `end`. */
function pointBefore(text: string, end: number, unit: Unit): { width: number; units: number } {
  const code = text.charCodeAt(end - 1);
  const pair = isLowSurrogate(code) && end >= 2 && isHighSurrogate(text.charCodeAt(end - 2));
  return pair ? { width: 2, units: unit === 'chars' ? 1 : 4 } : pointAt(text, end - 1, unit);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Keeps as many whole code points as fit in `max` units (code points or UTF-8 bytes): the head, or
 * the head and the tail around an inline marker. Never splits a surrogate pair, and reads only the
 * parts it keeps, so a multi-megabyte line costs no more than a short one.
 */
function cutBy(text: string, max: number, mode: TruncateMode, unit: Unit): string {
  const size = measureText(text);
  if ((unit === 'chars' ? size.chars : size.bytes) <= max) return text;
  const marker = ' … [middle omitted] … ';
  const markerUnits = unit === 'chars' ? measureText(marker).chars : measureText(marker).bytes;
  const headTail = mode === 'head_tail' && max >= markerUnits * 3;
  const room = headTail ? max - markerUnits : max;
  const headRoom = headTail ? Math.ceil(room / 2) : room;
  let end = 0;
  let used = 0;
  while (end < text.length) {
    const point = pointAt(text, end, unit);
    if (used + point.units > headRoom) break;
    used += point.units;
    end += point.width;
  }
  if (!headTail) return text.slice(0, end);
  let start = text.length;
  let tailUsed = 0;
  while (start > end) {
    const point = pointBefore(text, start, unit);
    if (used + tailUsed + point.units > room) break;
    tailUsed += point.units;
    start -= point.width;
  }
  return text.slice(0, end) + marker + text.slice(start);
}

function resolveLimits(limits: Partial<ToolOutputLimits> | undefined): ToolOutputLimits {
  const resolved = { ...DEFAULT_TOOL_OUTPUT_LIMITS, ...limits };
  for (const field of ['maxLines', 'maxBytes', 'maxChars', 'largeOutputThreshold'] as const) {
    const value = resolved[field];
    if (!Number.isInteger(value) || value < 1) {
      throw new ConfigError(
        `toolOutput.${field} must be a whole number greater than 0 (got ${value}).`,
        `toolOutput.${field}`,
      );
    }
  }
  if (resolved.truncateMode !== 'head' && resolved.truncateMode !== 'head_tail') {
    throw new ConfigError(`toolOutput.truncateMode must be "head" or "head_tail".`, 'toolOutput.truncateMode');
  }
  return resolved;
}

/** Applies the limits with the given notice, or reports that the notice leaves no room. */
function cutWithNotice(text: string, limits: ToolOutputLimits, notice: string): string | undefined {
  const suffix = notice === '' ? '' : SEPARATOR + notice;
  const reserved = measureText(suffix);
  // The separator starts a blank line and the notice's lines follow it.
  const lineRoom = limits.maxLines - (notice === '' ? 0 : reserved.lines - 1);
  const charRoom = limits.maxChars - reserved.chars;
  const byteRoom = limits.maxBytes - reserved.bytes;
  if (lineRoom < 1 || charRoom < 1 || byteRoom < 1) return undefined;
  let kept = cutLines(text, lineRoom, limits.truncateMode);
  kept = cutBy(kept, charRoom, limits.truncateMode, 'chars');
  kept = cutBy(kept, byteRoom, limits.truncateMode, 'bytes');
  // A trailing newline before the separator would add a line the room above did not count.
  if (suffix !== '' && kept.endsWith('\n')) kept = kept.slice(0, -1);
  const result = kept + suffix;
  return fits(measureText(result), limits) ? result : undefined;
}

/** Truncation with a caller-supplied notice line. @internal */
export function truncateWithNotice(
  text: string,
  limitsInput: Partial<ToolOutputLimits> | undefined,
  options: TruncateNoticeOptions = {},
): TruncateResult {
  const limits = resolveLimits(limitsInput);
  const original = measureText(text);
  const needsSpill = original.chars > limits.largeOutputThreshold;
  const limitedBy: TruncationStats['limitedBy'] = [];
  if (original.lines > limits.maxLines) limitedBy.push('lines');
  if (original.chars > limits.maxChars) limitedBy.push('chars');
  if (original.bytes > limits.maxBytes) limitedBy.push('bytes');
  if (limitedBy.length === 0 && !options.always) {
    return { text, truncated: false, needsSpill, stats: { original, result: original, limitedBy } };
  }
  const notices = [describe(original, limits.truncateMode, options.extra), SHORT_NOTICE, ''];
  let result = '';
  for (const notice of notices) {
    const attempt = cutWithNotice(text, limits, notice);
    if (attempt !== undefined) {
      result = attempt;
      break;
    }
  }
  if (result === '' && text !== '') {
    // Limits too small for any notice: keep the head that fits.
    result = cutBy(
      cutLines(text, limits.maxLines, 'head'),
      Math.min(limits.maxChars, limits.maxBytes),
      'head',
      'bytes',
    );
  }
  return {
    text: result,
    truncated: result !== text,
    needsSpill,
    stats: { original, result: measureText(result), limitedBy },
  };
}

/**
 * Cuts one tool output to the tool-output limits, the reference way: lines first (keeping the first
 * and last lines around a marker in `head_tail` mode when the line limit is at least 4), then Unicode
 * code points, then UTF-8 bytes, and appends a notice with the full output's size.
 *
 * The returned text, notice included, is within every limit, so the function is idempotent:
 * truncating its output again returns it unchanged. It never splits a surrogate pair or a UTF-8
 * sequence. It does not save anything: when `needsSpill` is true, hand the original to a
 * `SpillStore` (or use {@link processToolOutput}, which does both).
 *
 * @param text - The tool output.
 * @param limits - Limits to apply; missing fields take the reference defaults (2,000 lines,
 *   50 KiB, 200 Ki code points, spill threshold 200 Ki code points, `head_tail`).
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
