import type { ContextConfig } from '../config/index.js';
import { type ContextUsage, measureUsage } from '../counting/context-usage.js';
import type { Calibration } from './calibration.js';
import type { ContextEvent } from './events.js';
import { RecordedUsage } from './recorded-usage.js';
import type { SentProjection } from './sent-projection.js';

/** What {@link TokenAccounting} needs from the manager. @internal */
interface TokenAccountingOptions {
  config: ContextConfig;
  /** Tokens of the system prompt and tools. */
  extras: () => number;
  emit: (event: ContextEvent) => void;
  /** How the provider's count drifts from the counter's, learned from the usage seen. */
  calibration: Calibration;
}

/**
 * The stage "account tokens": the usage of what is sent, from the newest provider count that
 * still applies (an assistant message's `usage`, kept by the projection as its anchor, or usage
 * the host recorded for the request), corrected by what changed since, else the estimate; placed
 * against the limit by `measureUsage`, the rule every function shares. It also owns the warning:
 * `context-warning` once the level leaves `ok`, again only after the context was back below it.
 *
 * @internal
 */
export class TokenAccounting {
  /** Usage the host recorded with `recordUsage`, and the request it covers. */
  readonly recorded: RecordedUsage;
  private warned = false;
  /** Grows an estimate the provider has not counted by the calibration's ratio. */
  private readonly scale: (tokens: number) => number;

  constructor(private readonly options: TokenAccountingOptions) {
    this.recorded = new RecordedUsage(this.observe);
    this.scale = (tokens) => options.calibration.scale(tokens);
  }

  /**
   * Learns the drift from a provider's count of a request: `prompt` tokens for sent messages the
   * counter estimated at `estimate` (the system prompt and tools are added here).
   */
  readonly observe = (prompt: number, estimate: number): void => {
    this.options.calibration.observe(prompt, estimate + this.options.extras());
  };

  /**
   * Usage of a projection: the provider's count where one applies (corrected by what changed
   * since, grown by the calibration), else the estimate grown by the calibration. `recorded`:
   * whether usage the host recorded may apply (the projection is the manager's, or continues it).
   */
  measure(projection: SentProjection, recorded: boolean): ContextUsage {
    let tokens = projection.anchored(this.scale);
    let source: ContextUsage['source'] = projection.estimatedAfterAnchor ? 'mixed' : 'usage';
    if (tokens === undefined) {
      tokens = this.scale(projection.estimate + this.options.extras());
      source = 'estimate';
    }
    const fromRecorded = recorded ? this.recorded.measure(projection, this.scale) : undefined;
    if (fromRecorded !== undefined && (fromRecorded.tokens > tokens || source === 'estimate')) {
      tokens = fromRecorded.tokens;
      source = fromRecorded.estimated ? 'mixed' : 'usage';
    }
    return measureUsage(this.options.config, tokens, source, projection.sent.length);
  }

  /** Reports `context-warning` when usage left `ok` and was not reported since it was last back below. */
  warn(usage: ContextUsage): void {
    if (usage.level === 'ok' || this.warned) return;
    this.warned = true;
    this.options.emit({ type: 'context-warning', usage });
  }

  /** The context is back below the warning threshold (a compaction brought it there). */
  belowWarning(): void {
    this.warned = false;
  }
}
