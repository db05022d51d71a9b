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

/** The cost-aware kept tail's share of the effective token limit, and its bounds. */
const KEEP_SHARE = 0.03;
const MIN_KEEP_TOKENS = 4_000;
const MAX_KEEP_TOKENS = 20_000;
/** The cost-aware checkpoint's share of the effective token limit (its pinned facts included), and its floor. */
const CHECKPOINT_SHARE = 0.15;
const MIN_CHECKPOINT_TOKENS = 2_000;

/**
 * The kept tail of a cost-aware manager whose host sets no `keepRecentTokens`: 3% of the effective
 * token limit, from 4,000 to 20,000 tokens (4,000 for a 64k window, 5,508 for 200k). The tail is
 * re-written in the prompt cache at every compaction and re-read on every request, so a small one
 * is cheaper; the reference 20,000 stays selectable with `config.keepRecentTokens`.
 *
 * @internal
 */
export function costAwareKeepRecentTokens(limit: number | undefined): number {
  if (limit === undefined) return MAX_KEEP_TOKENS;
  return Math.min(MAX_KEEP_TOKENS, Math.max(MIN_KEEP_TOKENS, Math.floor(limit * KEEP_SHARE)));
}

/**
 * The most tokens a cost-aware compaction's checkpoint may take, pinned facts included: 15% of the
 * effective token limit, at least 2,000 (7,142 for a 64k window, 27,542 for 200k); `undefined`
 * without a limit. The checkpoint is re-read on every request and re-written at every compaction,
 * and its pinned facts are written by their keys when the room is short.
 *
 * @internal
 */
export function costAwareCheckpointTokens(limit: number | undefined): number | undefined {
  if (limit === undefined) return undefined;
  return Math.max(MIN_CHECKPOINT_TOKENS, Math.floor(limit * CHECKPOINT_SHARE));
}

/** What a compaction's summary is expected to write and to weigh before the first one is seen. */
const FIRST_SUMMARY_TOKENS = 1_200;
/** Below this many archivable tokens a summary call is not worth making early. */
const MIN_ARCHIVABLE_TOKENS = 2_000;
/** Below this many tokens freed a compaction is not worth making early. */
const MIN_COMPACTION_GAIN = 4_000;

/**
 * The cost-aware policy: rent or buy, for archiving tool results and for compacting. Prices are in
 * units of one uncached input token.
 *
 * Every request re-reads what it carries from the prompt cache (`readMultiplier` × input per
 * token). Archiving the results past the cutoff once costs the re-write of the cache from the first
 * of them on (`writeMultiplier` − `readMultiplier` per token: a write instead of a read) and the
 * summary call; compacting costs the write of what it leaves (the kept tail and the summary, whose
 * size is the last summary's) and the summary call, and saves the rent of what it removes (the
 * context less what it leaves). Each is done when the rent paid for carrying what it would drop,
 * since it became droppable, reaches its price: the rent-or-buy rule, which never pays more than
 * twice the cost of the best choice in hindsight, whatever the session does next. When the cache
 * has gone cold (no request for longer than its TTL) the next request writes the whole prompt
 * anyway: a compaction then costs its summary call (the conversation sent uncached) less the
 * re-write it spares, and archiving costs only its summary call, so both are done at once when
 * that pays. The manager's threshold and `toolCallCutoff + toolSummaryBatch` stay the bounds: the
 * policy only acts earlier.
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
  /** Tokens the last compaction's summary took in the context (its pinned facts included). */
  private summaryTokens = FIRST_SUMMARY_TOKENS;
  /** Tokens the summarizer wrote for it (the summary without the facts ctxkit pinned). */
  private summaryOutput = FIRST_SUMMARY_TOKENS;

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
    if (this.cold()) return !this.compactPays(candidate.context, 0);
    this.archiveRent += this.read * candidate.archivable;
    const price = (this.write - this.read) * candidate.tail + this.summaryCall(candidate.context, this.read);
    return this.archiveRent >= price;
  }

  /** Asked once per request with its tokens: whether compacting now costs less than carrying on. */
  shouldCompact(tokens: number): boolean {
    const after = this.after;
    if (tokens - after < MIN_COMPACTION_GAIN) {
      this.compactRent = 0;
      return false;
    }
    this.compactRent += this.read * (tokens - after);
    return this.compactPays(tokens, this.compactRent);
  }

  /** Tokens a compaction leaves: the kept tail and the summary. */
  private get after(): number {
    return this.options.keep + this.summaryTokens;
  }

  /** Whether compacting a context of `tokens` now costs no more than `rent` (what carrying it has cost). */
  private compactPays(tokens: number, rent: number): boolean {
    const after = this.after;
    if (tokens - after < MIN_COMPACTION_GAIN) return false;
    if (!this.cold()) return rent >= (this.write - this.read) * after + this.summaryCall(tokens, this.read);
    // Cold: the summary call reads the conversation at full price, and the re-write of the whole
    // context the next request would pay is spared but for what the compaction leaves.
    return rent >= this.summaryCall(tokens, 1) - this.write * (tokens - after);
  }

  /** A summary call that reads `context` tokens at `perToken` and writes a summary. */
  private summaryCall(context: number, perToken: number): number {
    return perToken * context + this.summaryOutput * this.outputRatio;
  }

  /** A request is sent now (the cache is warm from here). */
  requested(): void {
    this.lastRequest = this.options.now();
  }

  /** A batch was archived: its rent starts again. */
  archived(): void {
    this.archiveRent = 0;
  }

  /**
   * The history was compacted, leaving a summary of `summaryTokens` of which the summarizer wrote
   * `outputTokens`: both rents start again, and the next compaction is weighed with this one's summary.
   */
  compacted(summaryTokens?: number, outputTokens?: number): void {
    this.archiveRent = 0;
    this.compactRent = 0;
    if (summaryTokens !== undefined) this.summaryTokens = summaryTokens;
    if (outputTokens !== undefined) this.summaryOutput = outputTokens;
  }
}
