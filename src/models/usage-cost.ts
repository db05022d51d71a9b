import { ConfigError } from '../errors.js';
import type { Usage } from '../types.js';
import { checkPricing, type ModelPricing } from './model-pricing.js';

/**
 * Tokens or dollars split the way a provider bills them.
 *
 * @example
 * ```ts
 * const { cacheRead, total } = usageCost(usage, pricing);
 * ```
 */
export interface CostSplit {
  /** Input read without the cache (Anthropic's `input_tokens`, OpenAI's prompt minus cached). */
  uncachedInput: number;
  /** Input written to the cache (Anthropic's `cache_creation_input_tokens`). */
  cacheWrite: number;
  /** Input read from the cache. */
  cacheRead: number;
  /** Output, reasoning included. */
  output: number;
  /** The sum of the four. */
  total: number;
}

/**
 * What a run of calls cost: tokens and dollars by kind, and the cache's share of the input.
 *
 * @example
 * ```ts
 * const { dollars, cacheHitRate } = manager.stats(history).cost;
 * console.log(`$${dollars?.total.toFixed(2)}, ${Math.round(cacheHitRate * 100)}% from the cache`);
 * ```
 */
export interface SpendTally {
  /** Responses counted. */
  calls: number;
  tokens: CostSplit;
  /** Dollars, or `undefined` without a pricing. */
  dollars: CostSplit | undefined;
  /** Cache reads over all input (uncached, written and read); 0 before any input. */
  cacheHitRate: number;
}

const split = (uncachedInput: number, cacheWrite: number, cacheRead: number, output: number): CostSplit => ({
  uncachedInput,
  cacheWrite,
  cacheRead,
  output,
  total: uncachedInput + cacheWrite + cacheRead + output,
});

function tokensOf(usage: Usage, functionName: string): CostSplit {
  const count = (value: unknown, field: string): number => {
    if (value === undefined) return 0;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new ConfigError({
        message: `${functionName}: usage.${field} must be a non-negative number of tokens (got ${String(value)}).`,
        field: `usage.${field}`,
      });
    }
    return value;
  };
  if (typeof usage !== 'object' || usage === null) {
    throw new ConfigError({
      message: `${functionName}: usage must be a Usage object ({ input, output, cacheRead?, cacheWrite? }).`,
      field: 'usage',
    });
  }
  return split(
    count(usage.input, 'input'),
    count(usage.cacheWrite, 'cacheWrite'),
    count(usage.cacheRead, 'cacheRead'),
    count(usage.output, 'output'),
  );
}

function dollarsOf(tokens: CostSplit, pricing: ModelPricing): CostSplit {
  const perToken = pricing.input / 1_000_000;
  return split(
    tokens.uncachedInput * perToken,
    tokens.cacheWrite * perToken * pricing.cache.writeMultiplier,
    tokens.cacheRead * perToken * pricing.cache.readMultiplier,
    (tokens.output * pricing.output) / 1_000_000,
  );
}

/**
 * What one response cost, in dollars, split into uncached input, cache writes, cache reads and
 * output. `usage` is ctxkit's {@link Usage} as the adapters' converters give it (`fromAnthropicUsage`,
 * `fromOpenAIUsage`, `fromLanguageModelUsage`): `input` without the cache, `cacheRead` and
 * `cacheWrite` apart.
 *
 * @param usage - The response's usage.
 * @param pricing - The model's prices (see {@link getModelPricing}).
 * @returns Dollars by kind and their total.
 * @throws {@link ConfigError} when a count is not a non-negative number or the pricing is invalid.
 *
 * @example
 * ```ts
 * const pricing = getModelPricing('claude-sonnet-4-5')!;
 * usageCost({ input: 2_000, output: 300, cacheRead: 50_000, cacheWrite: 4_000 }, pricing);
 * // { uncachedInput: 0.006, cacheWrite: 0.015, cacheRead: 0.015, output: 0.0045, total: 0.0405 }
 * ```
 */
export function usageCost(usage: Usage, pricing: ModelPricing): CostSplit {
  return dollarsOf(tokensOf(usage, 'usageCost'), checkPricing('usageCost', pricing, 'pricing'));
}

/**
 * A tally with one more response added (a new object; `tally` is not changed). Start from
 * {@link emptySpend}.
 *
 * @param tally - What was spent so far.
 * @param usage - The new response's usage.
 * @param pricing - The model's prices, or `undefined` to count tokens only.
 * @returns The new tally.
 * @throws {@link ConfigError} when a count is not a non-negative number, the tally is not one
 * `emptySpend` / `addSpend` made, or the pricing is invalid.
 *
 * @example
 * ```ts
 * let spent = emptySpend();
 * spent = addSpend(spent, fromAnthropicUsage(response.usage), getModelPricing('claude-sonnet-4-5'));
 * ```
 */
export function addSpend(tally: SpendTally, usage: Usage, pricing: ModelPricing | undefined): SpendTally {
  checkTally(tally);
  return addSpendChecked(
    tally,
    usage,
    pricing === undefined ? undefined : checkPricing('addSpend', pricing, 'pricing'),
  );
}

function checkTally(tally: unknown): asserts tally is SpendTally {
  const value = tally as Partial<SpendTally> | null;
  const isSplit = (split: unknown) =>
    typeof split === 'object' &&
    split !== null &&
    (['uncachedInput', 'cacheWrite', 'cacheRead', 'output'] as const).every((key) =>
      Number.isFinite((split as Record<string, unknown>)[key]),
    );
  if (
    typeof value !== 'object' ||
    value === null ||
    !Number.isFinite(value.calls) ||
    !isSplit(value.tokens) ||
    !(value.dollars === undefined || isSplit(value.dollars))
  ) {
    throw new ConfigError({
      message: 'addSpend: tally must be a SpendTally (start from emptySpend(), then pass what addSpend returned).',
      field: 'tally',
    });
  }
}

/**
 * {@link addSpend} for a tally and pricing known valid (the manager's own, on every recorded usage).
 *
 * @internal
 */
export function addSpendChecked(tally: SpendTally, usage: Usage, pricing: ModelPricing | undefined): SpendTally {
  const tokens = tokensOf(usage, 'addSpend');
  const sum = (a: CostSplit, b: CostSplit) =>
    split(
      a.uncachedInput + b.uncachedInput,
      a.cacheWrite + b.cacheWrite,
      a.cacheRead + b.cacheRead,
      a.output + b.output,
    );
  const total = sum(tally.tokens, tokens);
  const input = total.uncachedInput + total.cacheWrite + total.cacheRead;
  return {
    calls: tally.calls + 1,
    tokens: total,
    dollars: pricing ? sum(tally.dollars ?? split(0, 0, 0, 0), dollarsOf(tokens, pricing)) : undefined,
    cacheHitRate: input === 0 ? 0 : total.cacheRead / input,
  };
}

/**
 * A tally of nothing spent yet.
 *
 * @param priced - Whether dollars are counted (a zero split) or not (`undefined`).
 * @returns The empty tally.
 *
 * @example
 * ```ts
 * const spent = emptySpend(true); // { calls: 0, tokens: { …: 0 }, dollars: { …: 0 }, cacheHitRate: 0 }
 * ```
 */
export function emptySpend(priced = false): SpendTally {
  const zero = split(0, 0, 0, 0);
  return { calls: 0, tokens: zero, dollars: priced ? { ...zero } : undefined, cacheHitRate: 0 };
}
