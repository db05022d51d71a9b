import { estimateMessageTokens, isAgentVisible, type TokenCounter } from '../counting/token-counter.js';
import type { Message, Usage } from '../types.js';

interface Recorded {
  /** Tokens of the request: input plus cache reads and writes (system prompt and tools included). */
  prompt: number;
  /** Tokens of the response, which the host appends after `anchor`. */
  output: number;
  /** The last message of the history the request was prepared from. */
  anchor: Message;
}

/**
 * The usage a host reported with `recordUsage`, valid only for the context it was measured on.
 *
 * The manager calls {@link RecordedUsage.invalidate} whenever it shrinks the context (a
 * compaction, archived tool results): usage measured before that would overstate the new context,
 * and a usage figure reported for a request prepared before the change is refused for the same
 * reason. A response reported by usage is counted once: its `output` stands for the first
 * assistant message after the anchor, whose estimate is then skipped.
 *
 * @internal
 */
export class RecordedUsage {
  private recorded: Recorded | undefined;
  /** Changes each time the context shrinks. */
  private generation = 0;
  /** The generation and last message of the latest prepared request. */
  private request: { generation: number; anchor: Message | undefined } = { generation: 0, anchor: undefined };

  /** Notes the request the host is about to send (the history `prepare` returned). */
  prepared(history: readonly Message[]): void {
    this.request = { generation: this.generation, anchor: history[history.length - 1] };
  }

  /** The context shrank: usage measured before now no longer applies. */
  invalidate(): void {
    this.generation++;
    this.recorded = undefined;
  }

  /** Records a response's usage, unless the context changed since its request was prepared. */
  record(usage: Usage): void {
    const prompt = usage.input + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
    const total = Math.max(prompt + usage.output, usage.total ?? 0);
    // Counts beyond 2^53 are not token counts (1e308 printed "Context: Infinity%"): ignore them.
    if (![prompt, usage.output, total].every((value) => value >= 0 && value <= Number.MAX_SAFE_INTEGER)) return;
    if (this.request.generation !== this.generation || this.request.anchor === undefined) return;
    this.recorded = { prompt, output: total - prompt, anchor: this.request.anchor };
  }

  /**
   * Tokens of `projected` according to the recorded usage: the request's prompt, the response's
   * output for the first assistant message after the anchor, and estimates for the rest.
   * `estimated` is the part that rests on estimates. `undefined` when no usage applies (none recorded, or its anchor is no longer in the context).
   */
  measure(projected: readonly Message[], counter: TokenCounter): { tokens: number; estimated: number } | undefined {
    if (this.recorded === undefined) return undefined;
    const start = projected.lastIndexOf(this.recorded.anchor);
    if (start < 0) return undefined;
    let reply = 0;
    let estimated = 0;
    let replied = false;
    for (let index = start + 1; index < projected.length; index++) {
      const message = projected[index]!;
      if (!isAgentVisible(message)) continue;
      if (!replied && message.role === 'assistant') {
        replied = true;
        reply = this.recorded.output;
      } else {
        estimated += estimateMessageTokens(message, counter);
      }
    }
    return { tokens: this.recorded.prompt + reply + estimated, estimated };
  }
}
