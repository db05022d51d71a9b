import * as fc from 'fast-check';
import type { ToolOutputLimits } from '../config/index.js';
import { assertOptionalObjectArgument } from '../validation/assert-argument.js';

/**
 * Options of {@link arbitraryToolOutput}.
 *
 * @example
 * ```ts
 * const options: ArbitraryToolOutputOptions = { maxLines: 200 };
 * ```
 */
export interface ArbitraryToolOutputOptions {
  /** Lines at most in the ordinary outputs (one variant always produces a few hundred short lines). @default 60 */
  maxLines?: number;
}

function fromCodePoints(min: number, max: number, maxLength: number): fc.Arbitrary<string> {
  return fc.array(fc.integer({ min, max }), { maxLength }).map((codes) => String.fromCodePoint(...codes));
}

/** One line of output in one of several scripts and shapes. */
const line: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 80 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fromCodePoints(0x4e00, 0x9fff, 40) }, // CJK ideographs
  { weight: 1, arbitrary: fromCodePoints(0x3040, 0x30ff, 40) }, // Japanese kana
  { weight: 2, arbitrary: fromCodePoints(0x1f300, 0x1faff, 20) }, // emoji (astral: surrogate pairs)
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }), fc.integer({ min: 40, max: 400 }))
      .map(([unit, times]) => unit.repeat(times)), // one long line
  },
);

/**
 * Random tool output to exercise truncation and summarization: ASCII, any Unicode (including
 * astral characters such as emoji, never a lone surrogate), Chinese and Japanese text, long lines,
 * blank lines, with or without a trailing newline, and sometimes hundreds of lines.
 *
 * @param options - The usual number of lines at most.
 * @returns An arbitrary of strings.
 *
 * @example
 * ```ts
 * test.prop([arbitraryToolOutput()])('stays within the limits', (output) => {
 *   expect(checkWithinLimits(truncateToolContent(output, limits).text, limits)).toEqual([]);
 * });
 * ```
 */
export function arbitraryToolOutput(options: ArbitraryToolOutputOptions = {}): fc.Arbitrary<string> {
  assertOptionalObjectArgument(options, 'arbitraryToolOutput', 'options');
  const ordinary = fc
    .tuple(fc.array(line, { maxLength: options.maxLines ?? 60 }), fc.boolean())
    .map(([lines, trailing]) => lines.join('\n') + (trailing && lines.length > 0 ? '\n' : ''));
  const many = fc
    .tuple(fc.integer({ min: 100, max: 600 }), fc.constantFrom('ok', 'ERROR: failed', '→ 完成 ✓', '🚀 step'))
    .map(([count, word]) => Array.from({ length: count }, (_, index) => `${index + 1} ${word}`).join('\n'));
  return fc.oneof({ weight: 5, arbitrary: ordinary }, { weight: 1, arbitrary: many });
}

/**
 * Random, small tool-output limits (so that random outputs are often over them), in both
 * truncation modes. One in four is tiny (1 to 6 lines, a few dozen code points or bytes), around
 * the sizes where the truncation notice has to shrink or no longer fits.
 *
 * @returns An arbitrary of complete {@link ToolOutputLimits}.
 *
 * @example
 * ```ts
 * test.prop([arbitraryToolOutput(), arbitraryToolOutputLimits()])('idempotent', (output, limits) => {
 *   const once = truncateToolContent(output, limits).text;
 *   expect(truncateToolContent(once, limits).text).toBe(once);
 * });
 * ```
 */
export function arbitraryToolOutputLimits(): fc.Arbitrary<ToolOutputLimits> {
  const truncateMode = fc.constantFrom('head' as const, 'head_tail' as const);
  const small = fc.record({
    maxLines: fc.integer({ min: 1, max: 80 }),
    maxChars: fc.integer({ min: 1, max: 2_000 }),
    maxBytes: fc.integer({ min: 1, max: 4_000 }),
    largeOutputThreshold: fc.integer({ min: 1, max: 4_000 }),
    truncateMode,
  });
  const tiny = fc.record({
    maxLines: fc.integer({ min: 1, max: 6 }),
    maxChars: fc.integer({ min: 1, max: 60 }),
    maxBytes: fc.integer({ min: 1, max: 90 }),
    largeOutputThreshold: fc.integer({ min: 1, max: 200 }),
    truncateMode,
  });
  return fc.oneof({ weight: 3, arbitrary: small }, { weight: 1, arbitrary: tiny });
}
