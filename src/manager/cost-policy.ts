import { ANTHROPIC_CACHE_5M, type ModelPricing, type PromptCacheRules } from '../models/model-pricing.js';

/** What archiving the archivable tool results would change, as {@link CostPolicy.shouldArchive} weighs it. @internal */
interface ArchiveCandidate {
  /** Tokens of the visible results past `toolCallCutoff` (the ones a batch would archive). */
  archivable: number;
  /** Tokens sent from the first of them to the end: the prompt cache re-written when they change. */
  tail: number;
  /** Tokens of the whole request. */
  context: number;
}

/** What {@link CostPolicy} weighs with. @internal */
interface CostPolicyOptions {
  /** The model's prices and cache rules; Anthropic's 5-minute cache at 5× output without. */
  pricing: ModelPricing | undefined;
  now: () => number;
  /** Tokens a compaction keeps verbatim (the effective `keepRecentTokens`). */
  keep: number;
}

/** Tokens a summary call writes, for the estimate. */
const SUMMARY_OUTPUT_TOKENS = 1_200;
/** Below this many archivable tokens a summary call is not worth making early. */
const MIN_ARCHIVABLE_TOKENS = 2_000;

/**
 * The cost-aware policy: rent or buy, for archiving tool results and for compacting. Prices are in
 * units of one uncached input token.
 *
 * Every request re-reads what it carries from the prompt cache (`readMultiplier` × input per
 * token). Archiving the results past the cutoff once costs the re-write of the cache from the first
 * of them on (`writeMultiplier` − `readMultiplier` per token: a write instead of a read) and the
 * summary call; compacting costs the re-write of what it keeps and the summary call. Each is done
 * when the rent paid for carrying what it would drop, since it became droppable, reaches its price:
 * the rent-or-buy rule, which never pays more than twice the cost of the best choice in hindsight,
 * whatever the session does next. When the cache has gone cold (no request for longer than its
 * TTL) the whole prompt is written again anyway, so both are done at once. The manager's threshold
 * and `toolCallCutoff + toolSummaryBatch` stay the bounds: the policy only acts earlier.
 *
 * @internal
 */
export class CostPolicy {
  private archiveRent = 0;
  private compactRent = 0;
  private lastRequest: number | undefined;
  private readonly cache: Readonly<PromptCacheRules>;
  /** An output token's price in input tokens. */
  private readonly outputRatio: number;
  /** What writing a token costs: an automatic cache writes free, but a changed prefix is read at full price once. */
  private readonly write: number;
  private readonly read: number;

  constructor(private readonly options: CostPolicyOptions) {
    const { pricing } = options;
    this.cache = pricing?.cache ?? ANTHROPIC_CACHE_5M;
    this.outputRatio = pricing && pricing.input > 0 ? pricing.output / pricing.input : 5;
    this.read = this.cache.readMultiplier;
    this.write = this.cache.mode === 'breakpoints' ? this.cache.writeMultiplier : 1;
  }

  /** Whether the prompt cache has gone cold since the last request. */
  cold(): boolean {
    return this.lastRequest !== undefined && this.options.now() - this.lastRequest > this.cache.ttlMs;
  }

  /** The smallest context worth compacting: twice what a compaction keeps, and a summary's room. */
  private get compactFloor(): number {
    return this.options.keep + 8_000;
  }

  /**
   * Asked once per intake with what archiving would change (`undefined` when nothing is
   * archivable): whether to archive now.
   */
  shouldArchive(candidate: ArchiveCandidate | undefined): boolean {
    if (candidate === undefined || candidate.archivable < MIN_ARCHIVABLE_TOKENS) {
      this.archiveRent = 0;
      return false;
    }
    // Cold: archive now, unless a compaction is about to take it all.
    if (this.cold()) return candidate.context < this.compactFloor;
    this.archiveRent += this.read * candidate.archivable;
    const price = (this.write - this.read) * candidate.tail + this.summaryCall(candidate.context);
    return this.archiveRent >= price;
  }

  /** Asked once per request with its tokens: whether compacting now costs less than carrying on. */
  shouldCompact(tokens: number): boolean {
    if (tokens < this.compactFloor) {
      this.compactRent = 0;
      return false;
    }
    if (this.cold()) return true;
    const { keep } = this.options;
    this.compactRent += this.read * (tokens - keep);
    return this.compactRent >= this.write * keep + this.summaryCall(tokens);
  }

  /** A summary call that reuses the conversation's cached prefix: `context` read, a summary written. */
  private summaryCall(context: number): number {
    return this.read * context + SUMMARY_OUTPUT_TOKENS * this.outputRatio;
  }

  /** A request is sent now (the cache is warm from here). */
  requested(): void {
    this.lastRequest = this.options.now();
  }

  /** A batch was archived: its rent starts again. */
  archived(): void {
    this.archiveRent = 0;
  }

  /** The history was compacted: both rents start again. */
  compacted(): void {
    this.archiveRent = 0;
    this.compactRent = 0;
  }
}
