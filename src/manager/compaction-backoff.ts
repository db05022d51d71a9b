import type { ContextUsage } from '../counting/context-usage.js';

/**
 * Keeps threshold compaction from repeating turn after turn when it cannot help: after a
 * compaction that failed, or that left the context at or above the limit, the next attempt waits
 * until the context has grown by a step (tokens under a token limit, messages under the message
 * limit), and each further failure doubles the step. A compaction that gets below the limit clears
 * it. Overflow recovery and manual compaction do not wait.
 *
 * @internal
 */
export class CompactionBackoff {
  private blocked: { tokens: number; messages: number; failures: number } | undefined;

  /**
   * @param tokenStep - Growth in tokens before a retry, under a token limit.
   * @param messageStep - Growth in messages before a retry, under the message limit.
   */
  constructor(
    private readonly tokenStep: number,
    private readonly messageStep: number,
  ) {}

  /** Whether a threshold compaction may run now. */
  allows(usage: ContextUsage): boolean {
    const blocked = this.blocked;
    if (blocked === undefined) return true;
    const factor = 2 ** (blocked.failures - 1);
    return usage.limit !== undefined
      ? usage.tokens >= blocked.tokens + this.tokenStep * factor
      : usage.messageCount >= blocked.messages + this.messageStep * factor;
  }

  /** A compaction failed or did not get below the limit; `usage` is the context it left. */
  failed(usage: ContextUsage): void {
    this.blocked = {
      tokens: usage.tokens,
      messages: usage.messageCount,
      failures: Math.min((this.blocked?.failures ?? 0) + 1, 16),
    };
  }

  /** A compaction got the context below the limit. */
  succeeded(): void {
    this.blocked = undefined;
  }
}
