// Cutting a tool output to the limits with a notice that says what was cut (and where the full
// output was saved): the engine of truncateToolContent and processToolOutput. @internal
import {
  checkedToolOutputs,
  DEFAULT_TOOL_OUTPUT_LIMITS,
  type ToolOutputLimits,
  toolOutputSchema,
} from '../../config/index.js';
import { parseOptions } from '../../validation/parse-options.js';
import type { TruncateResult, TruncationStats } from '../truncate-result.js';
import {
  cutLineCut,
  cutLines,
  cutToRoom,
  type ErrorLine,
  errorLinesOf,
  formatCount,
  type Kept,
  lineEndingOf,
  measureText,
  type TextSize,
  trimNewlines,
} from './text-cuts.js';

/**
 * What {@link processToolOutput} adds to the notice: where the full output was saved, or why it
 * could not be. @internal
 */
interface TruncateNoticeOptions {
  /** The full output was saved here: the notice keeps the path (and the hash) as long as it fits. */
  spilled?: { path: string; sha256: string };
  /** The recall id the notice names beside the spill path, so the model can read the output back. */
  recallId?: string;
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

function fits(size: TextSize, limits: ToolOutputLimits): boolean {
  return size.lines <= limits.maxLines && size.chars <= limits.maxChars && size.bytes <= limits.maxBytes;
}

/**
 * The notices to try, from the most to the least informative; `[output truncated]` is the last,
 * unless the text fits (`fitted`: it was only spilled) and the notice is only there for the path.
 */
function noticesFor(original: TextSize, options: TruncateNoticeOptions, fitted: boolean): Notice[] {
  const full = `${formatCount(original.lines, 'line')}, ${formatCount(original.chars, 'character')}, ${formatCount(original.bytes, 'byte')}`;
  const { spilled, spillError, recallId } = options;
  const recall = spilled !== undefined && recallId !== undefined ? `; recall ${recallId}` : '';
  const saved = spilled && `Full output saved to ${spilled.path} (SHA-256 ${spilled.sha256})${recall}.`;
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
    (shown) => `[${prefix(shown)} saved to ${path} (SHA-256 ${sha256})${recall}]`,
    (shown) => `[${prefix(shown)} saved to ${path}${recall}]`,
    ...(recall === '' ? [] : [(shown: Shown) => `[${prefix(shown)} saved${recall}]`]),
    () => `[Full output: ${path}]`,
  ];
  // Text that fits was only spilled, not cut: saying it was truncated would be wrong.
  return fitted ? notices : [...notices, () => SHORT_NOTICE];
}

function resolveLimits(limits: Partial<ToolOutputLimits> | undefined, functionName: string): ToolOutputLimits {
  if (typeof limits === 'object' && limits !== null && checkedToolOutputs.has(limits))
    return { ...DEFAULT_TOOL_OUTPUT_LIMITS, ...limits };
  const parsed = parseOptions(functionName, toolOutputSchema, limits ?? {}, 'limits');
  const given = Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== undefined));
  const resolved: ToolOutputLimits = { ...DEFAULT_TOOL_OUTPUT_LIMITS, ...given };
  if (typeof limits === 'object' && limits !== null && Object.isFrozen(limits)) checkedToolOutputs.add(limits);
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
  errorLines: () => readonly ErrorLine[],
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
  const room = { chars: charRoom, bytes: byteRoom };
  const byLines = cutToLines(text, original, lineRoom, marker && lineRoom >= 3, room, errorLines);
  // Code points and bytes are cut together, around the line marker (never into it); when not even
  // the marker fits, the head alone is kept.
  const cut = cutLineCut(byLines, original.lines, room, limits.truncateMode) ?? headOnly(byLines, room);
  let result = cut.text;
  if (notice !== undefined) {
    const kept = trimNewlines(cut.text);
    if (kept === '') return undefined;
    const shown: Shown = cut.text === text ? 'all' : byLines.end && cut.end ? 'beginning and end' : 'beginning';
    result = kept + separator + notice(shown);
  }
  // An inline marker in a byte cut can hold more code points than the middle it replaced.
  return fits(measureText(result), limits) ? result : undefined;
}

/**
 * The line cut. When it keeps the head and the tail around a `[N lines omitted]` marker and the
 * code-point or byte room is smaller still, fewer whole lines are kept around the marker (with its
 * count updated) rather than letting the character cut splice two unrelated lines and drop the
 * marker; only when even one line each side does not fit is the character cut left to do it.
 */
function cutToLines(
  text: string,
  original: TextSize,
  lineRoom: number,
  marker: boolean,
  room: { chars: number; bytes: number },
  errorLines: () => readonly ErrorLine[],
): ReturnType<typeof cutLines> {
  if (!marker || original.lines <= lineRoom) return cutLines(text, original.lines, lineRoom, marker);
  const errors = errorLines();
  const byLines = cutLines(text, original.lines, lineRoom, marker, errors);
  const fitsRoom = (kept: string) => {
    const size = measureText(kept);
    return size.chars <= room.chars && size.bytes <= room.bytes;
  };
  if (fitsRoom(byLines.text)) return byLines;
  let low = 3;
  let high = lineRoom - 1;
  let best: ReturnType<typeof cutLines> | undefined;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const attempt = cutLines(text, original.lines, middle, true, errors);
    if (fitsRoom(attempt.text)) {
      best = attempt;
      low = middle + 1;
    } else high = middle - 1;
  }
  return best ?? byLines;
}

/** The head of a line cut before its marker, within the room: what is left when the marker does not fit. */
function headOnly(byLines: Kept, room: { chars: number; bytes: number }): Kept {
  const head = byLines.text.slice(0, byLines.marker?.start ?? byLines.text.length);
  return { text: cutToRoom(head, room, 'head').text, end: byLines.marker === undefined && byLines.end };
}

/** The head that fits, with no notice: the last resort, always within the limits. */
function cutHead(text: string, original: TextSize, limits: ToolOutputLimits): string {
  const byLines = cutLines(text, original.lines, limits.maxLines, false).text;
  return cutToRoom(byLines, { chars: limits.maxChars, bytes: limits.maxBytes }, 'head').text;
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
  // The output's error lines, read once however many notices and separators a cut is tried with.
  let errors: readonly ErrorLine[] | undefined;
  const errorLines = () => (errors ??= errorLinesOf(text));
  // A `\r\n` output keeps `\r\n` between its text and the notice.
  const separators =
    lineEndingOf(text) === '\r\n' ? SEPARATORS.map((separator) => separator.replace(/\n/g, '\r\n')) : SEPARATORS;
  const result =
    firstOf(notices, (notice) =>
      firstOf(separators, (separator, index) =>
        cutWithNotice(text, original, limits, notice, separator, index < separators.length - 1, errorLines),
      ),
    ) ??
    firstOf(notices, (notice) => noticeAlone(notice, limits)) ??
    cutWithNotice(text, original, limits, undefined, '', false, errorLines) ??
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
