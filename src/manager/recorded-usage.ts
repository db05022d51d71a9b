import type { Usage } from '../types.js';
import type { SentProjection } from './sent-projection.js';

interface Request {
  /** Changes each time the projection is rebuilt (a compaction, a history the host replaced). */
  generation: number;
  /** Messages sent in the request. */
  sentLength: number;
  /** The projection's estimate of them then. */
  estimate: number;
}

interface Recorded extends Request {
  /** Tokens of the request: input plus cache reads and writes (system prompt and tools included). */
  prompt: number;
  /** Tokens of the response, which the host appends after the request's messages. */
  output: number;
}

/**
 * The usage a host reported with `recordUsage`, kept as an anchor for later calls.
 *
 * The count of a later call is the request's prompt plus how much the projection's estimate moved
 * since: the messages added after it, less what archiving removed from it (a placeholder instead
 * of the tool output the provider counted). So archiving keeps the provider's count, corrected by
 * the tokens it removed, where it used to drop it. A response reported by usage is counted once:
 * its `output` stands for the first assistant message after the request, whose estimate is then
 * left out. A compaction, or a history the host replaced, makes the anchor unusable
 * ({@link RecordedUsage.invalidate}); usage reported for a request prepared before that is refused.
 * Each usage taken is reported to `observe` (the request's prompt tokens and its estimate), from
 * which the manager learns how the provider's count drifts from the counter's; what the estimate
 * moved since is passed through the calibration's `scale` when measured.
 *
 * @internal
 */
export class RecordedUsage {
  private recorded: Recorded | undefined;
  private generation = 0;
  private request: Request | undefined;

  /** @param observe - Told of each usage taken: its prompt tokens and the estimate of the messages sent. */
  constructor(private readonly observe?: (prompt: number, estimate: number) => void) {}

  /** Notes the request the host is about to send (the projection `prepare` returned). */
  prepared(projection: SentProjection): void {
    this.request = { generation: this.generation, sentLength: projection.sent.length, estimate: projection.estimate };
  }

  /** The projection was rebuilt: usage measured before now no longer applies. */
  invalidate(): void {
    this.generation++;
    this.recorded = undefined;
  }

  /** Records a response's usage, unless the projection was rebuilt since its request was prepared. */
  record(usage: Usage): void {
    const prompt = usage.input + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
    const total = Math.max(prompt + usage.output, usage.total ?? 0);
    // Counts beyond 2^53 are not token counts (1e308 printed "Context: Infinity%"): ignore them.
    if (![prompt, usage.output, total].every((value) => value >= 0 && value <= Number.MAX_SAFE_INTEGER)) return;
    if (this.request === undefined || this.request.generation !== this.generation) return;
    this.recorded = { ...this.request, prompt, output: total - prompt };
    this.observe?.(prompt, this.request.estimate);
  }

  /**
   * Tokens of the projection by the recorded usage, and whether any of it rests on estimates
   * (messages after the response); what the estimate moved since passes through `scale` (the
   * calibration). `undefined` when no usage applies.
   */
  measure(
    projection: SentProjection,
    scale: (tokens: number) => number = (tokens) => tokens,
  ): { tokens: number; estimated: boolean } | undefined {
    const recorded = this.recorded;
    if (recorded === undefined || projection.sent.length < recorded.sentLength) return undefined;
    let reply = -1;
    for (let index = recorded.sentLength; index < projection.sent.length; index++) {
      if (projection.sent[index]!.role === 'assistant') {
        reply = index;
        break;
      }
    }
    const moved = projection.estimate - recorded.estimate;
    const tokens =
      reply < 0
        ? recorded.prompt + scale(moved)
        : recorded.prompt + recorded.output + scale(moved - projection.tokensAt(reply));
    const after = projection.sent.length - recorded.sentLength - (reply < 0 ? 0 : 1);
    return { tokens: Math.max(0, tokens), estimated: after > 0 };
  }
}
