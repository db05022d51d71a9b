import type { ContextConfig } from '../config/index.js';
import { type ContextUsage, measureUsage } from '../counting/context-usage.js';
import type { ContextEvent } from './events.js';
import { RecordedUsage } from './recorded-usage.js';
import type { SentProjection } from './sent-projection.js';

/** What {@link TokenAccounting} needs from the manager. @internal */
interface TokenAccountingOptions {
  config: ContextConfig;
  /** Tokens of the system prompt and tools. */
  extras: () => number;
  emit: (event: ContextEvent) => void;
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
  readonly recorded = new RecordedUsage();
  private warned = false;

  constructor(private readonly options: TokenAccountingOptions) {}

  /**
   * Usage of a projection: the provider's count where one applies (corrected by what changed
   * since), else the estimate. `recorded`: whether usage the host recorded may apply (the
   * projection is the manager's, or continues it).
   */
  measure(projection: SentProjection, recorded: boolean): ContextUsage {
    let tokens = projection.anchored;
    let source: ContextUsage['source'] = projection.estimatedAfterAnchor ? 'mixed' : 'usage';
    if (tokens === undefined) {
      tokens = projection.estimate + this.options.extras();
      source = 'estimate';
    }
    const fromRecorded = recorded ? this.recorded.measure(projection) : undefined;
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
