// The result of cutting a tool output: truncateToolContent's return value and its sizes.
import type { TextSize } from './internal/text-cuts.js';

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
