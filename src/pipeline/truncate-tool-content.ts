import type { ToolOutputLimits } from '../config/index.js';
import { ContextError } from '../errors.js';
import { truncateWithNotice } from './internal/truncate-with-notice.js';
import type { TruncateResult } from './truncate-result.js';

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
 * truncating its output again returns it unchanged. Code points and bytes are cut together, and
 * never inside a grapheme cluster (a family emoji, a flag, a letter with its combining marks, a
 * `\r\n`) nor inside its own markers: when a later limit cuts further into a line cut, the head
 * and the tail are shortened around the whole `... [N lines omitted] ...` marker and its count
 * says how many lines are gone entirely (too little room even for the marker keeps the head
 * alone). Output with `\r\n` line endings gets `\r\n` around the marker and before the notice. It does not save anything: when `needsSpill` is true, hand the original to a
 * `SpillStore` (or use {@link processToolOutput}, which does both).
 *
 * @param text - The tool output.
 * @param limits - Limits to apply; missing fields and fields set to `undefined` take the reference
 *   defaults (2,000 lines, 50 KiB, 200 Ki code points, spill threshold 200 Ki code points, `head_tail`).
 * @returns The text to store, whether it was cut, whether it should be spilled, and sizes.
 * @throws {@link ConfigError} when a limit is not a whole number greater than 0; `ContextError`
 * (`INPUT_INVALID`) when `text` is not a string.
 *
 * @example
 * ```ts
 * const result = truncateToolContent(buildLog, { maxLines: 200 });
 * if (result.truncated) console.log(result.stats.original.lines, '→', result.stats.result.lines);
 * ```
 */
export function truncateToolContent(text: string, limits?: Partial<ToolOutputLimits>): TruncateResult {
  if (typeof text !== 'string') {
    throw new ContextError({
      message: `truncateToolContent: text must be a string (the tool output), received ${text === null ? 'null' : typeof text}.`,
      code: 'INPUT_INVALID',
    });
  }
  return truncateWithNotice(text, limits);
}
