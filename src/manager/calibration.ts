/**
 * How the provider's count of a request compares with the counter's: `ratio` is the provider's
 * reported prompt tokens over the counter's estimate of the same request, learned from the usage
 * the manager sees; `samples` how many reports it rests on (1 and 0 before the first).
 *
 * @example
 * ```ts
 * const { ratio, samples } = manager.stats(history).calibration;
 * if (samples > 0 && ratio > 1.2) console.warn(`the provider counts ${ratio.toFixed(2)}× the estimate`);
 * ```
 */
export interface TokenCalibration {
  /**
   * The factor the manager applies to what the provider has not counted yet (messages after the
   * newest usage, a history with no usage, a compaction's kept tail): from 1 to 4. Never below 1:
   * a provider that counts less than the counter leaves the estimate as it is.
   */
  ratio: number;
  /** Usage reports it was learned from (a report seen twice, as recorded and on its message, once). */
  samples: number;
}

/** The range of the ratio: up only (under-counting is what overflows a window), at most 4×. */
const MIN_RATIO = 1;
const MAX_RATIO = 4;
/**
 * Below this estimate a report says little about drift: a provider's fixed framing (a tool-use
 * system prompt of a few hundred tokens) is most of it, and scaling a big tool result by it would
 * compact for nothing.
 */
const MIN_SAMPLE_TOKENS = 2_048;
/** Weight of the reports before the newest: the sums halve with each new report. */
const DECAY = 0.5;

/**
 * The manager's calibration to the provider's tokenizer. Each report adds the provider's prompt
 * tokens and the counter's estimate of the same request to two sums that halve with each new
 * report; the ratio is their quotient, clamped to [1, 4]. Weighted by size, a large request
 * counts for more than a small one, and the newest reports for more than old ones. A report beyond
 * 4× its estimate counts as 4×: past that it covers more than a tokenizer's drift (images, files
 * the counter cannot see), and scaling every new message by it would compact for nothing.
 *
 * It is applied upward only ({@link Calibration.scale}): estimates of what the provider has not
 * counted grow by the ratio, what the provider counted stays as it counted it, and tokens an
 * archive or a cut removed are subtracted as estimated. So with it the manager never measures
 * a context smaller than without it, and with a provider that counts at most the estimate nothing
 * changes.
 *
 * @internal
 */
export class Calibration {
  private provider = 0;
  private estimated = 0;
  private count = 0;
  /** The newest report's prompt tokens: the same report seen again (recorded, then on its message) is taken once. */
  private last = -1;

  /** Off: the ratio stays 1 whatever is reported. */
  constructor(private readonly enabled = true) {}

  /**
   * Learns from a report: `provider` prompt tokens (input with cache reads and writes) for a
   * request the counter estimated at `estimate` (system prompt and tools included).
   */
  observe(provider: number, estimate: number): void {
    if (!this.enabled || !(estimate >= MIN_SAMPLE_TOKENS) || !(provider > 0) || provider === this.last) return;
    this.last = provider;
    this.provider = this.provider * DECAY + Math.min(provider, estimate * MAX_RATIO);
    this.estimated = this.estimated * DECAY + estimate;
    this.count++;
  }

  /** The factor from 1 to 4 (1 before the first report). */
  get ratio(): number {
    if (this.estimated === 0) return MIN_RATIO;
    return Math.min(MAX_RATIO, Math.max(MIN_RATIO, this.provider / this.estimated));
  }

  /** Estimated tokens the provider has not counted, as it would count them: grown by the ratio; a decrease as estimated. */
  scale(tokens: number): number {
    const ratio = this.ratio;
    return tokens <= 0 || ratio === 1 ? tokens : Math.ceil(tokens * ratio);
  }

  /** What `stats()` reports. */
  snapshot(): TokenCalibration {
    return { ratio: this.ratio, samples: this.count };
  }
}
