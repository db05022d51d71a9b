import { DEFAULT_CONFIG, type ToolOutputLimits } from '../config/index.js';
import { assertOptionalObjectArgument, assertStringArgument } from '../validation/assert-argument.js';

const encoder = new TextEncoder();

/**
 * Checks that a text is within tool-output limits, measured independently of ctxkit's own code:
 * lines (newlines, plus one for a last line without a newline), Unicode code points, and UTF-8
 * bytes (a lone surrogate counts as the 3 bytes of U+FFFD).
 *
 * @param text - The text to measure, e.g. `truncateToolContent(output, limits).text`.
 * @param limits - The limits; missing fields, and fields set to `undefined`, take the reference
 *   defaults, as in `truncateToolContent`.
 * @returns One problem per limit exceeded; empty when the text fits.
 *
 * @example
 * ```ts
 * const limits = { maxLines: 20, maxChars: 500, maxBytes: 800 };
 * expect(checkWithinLimits(truncateToolContent(output, limits).text, limits)).toEqual([]);
 * ```
 */
export function checkWithinLimits(text: string, limits: Partial<ToolOutputLimits> = {}): string[] {
  assertStringArgument(text, 'checkWithinLimits', 'text');
  assertOptionalObjectArgument(limits, 'checkWithinLimits', 'limits');
  const given = Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
  const { maxLines, maxChars, maxBytes } = { ...DEFAULT_CONFIG.toolOutput, ...given };
  let newlines = 0;
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) === 10) newlines++;
  const lines = text.length === 0 ? 0 : newlines + (text.endsWith('\n') ? 0 : 1);
  const chars = Array.from(text).length;
  const bytes = encoder.encode(text).length;
  const problems: string[] = [];
  if (lines > maxLines) problems.push(`${lines} lines, over maxLines ${maxLines}`);
  if (chars > maxChars) problems.push(`${chars} code points, over maxChars ${maxChars}`);
  if (bytes > maxBytes) problems.push(`${bytes} UTF-8 bytes, over maxBytes ${maxBytes}`);
  return problems;
}

/**
 * Checks that a text has no lone (unpaired) UTF-16 surrogate, the mark of a string cut in the
 * middle of an astral character such as an emoji.
 *
 * @param text - The text to check.
 * @returns One problem per lone surrogate (at most 10); empty when the text is well formed.
 *
 * @example
 * ```ts
 * expect(checkWellFormedText(truncateToolContent('😀'.repeat(100), { maxBytes: 9 }).text)).toEqual([]);
 * ```
 */
export function checkWellFormedText(text: string): string[] {
  assertStringArgument(text, 'checkWellFormedText', 'text');
  const problems: string[] = [];
  for (let index = 0; index < text.length && problems.length < 10; index++) {
    const code = text.charCodeAt(index);
    if (code < 0xd800 || code > 0xdfff) continue;
    const next = text.charCodeAt(index + 1);
    if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      index++;
      continue;
    }
    problems.push(`lone surrogate 0x${code.toString(16)} at index ${index}`);
  }
  return problems;
}
