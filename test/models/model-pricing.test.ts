import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { fromAnthropicUsage } from '../../src/anthropic/index.js';
import {
  ANTHROPIC_CACHE_1H,
  ANTHROPIC_CACHE_5M,
  addSpend,
  ConfigError,
  emptySpend,
  getModelPricing,
  MODEL_PRICING,
  MODEL_PRICING_DATE,
  type ModelPricing,
  OPENAI_AUTOMATIC_CACHE,
  usageCost,
} from '../../src/index.js';
import { fromOpenAIUsage } from '../../src/openai/index.js';

const sonnet = getModelPricing('claude-sonnet-4-5')!;

describe('getModelPricing', () => {
  it('finds dated, regional and hosted spellings of a model', () => {
    expect(getModelPricing('claude-sonnet-4-5-20250929')).toBe(sonnet);
    expect(getModelPricing('us.anthropic.claude-sonnet-4-5-20250929-v1:0')).toBe(sonnet);
    expect(getModelPricing('anthropic/claude-sonnet-4.5')).toBe(sonnet);
    expect(getModelPricing('gpt-5-2025-08-07')).toEqual({ input: 1.25, output: 10, cache: OPENAI_AUTOMATIC_CACHE });
    expect(getModelPricing('gpt-5-mini-2025-08-07')?.input).toBe(0.25);
    expect(getModelPricing('gpt-4o-2024-08-06')?.cache.readMultiplier).toBe(0.5);
  });

  it('knows each provider’s cache rules', () => {
    expect(sonnet.cache).toMatchObject({
      mode: 'breakpoints',
      maxBreakpoints: 4,
      writeMultiplier: 1.25,
      readMultiplier: 0.1,
    });
    expect(getModelPricing('claude-haiku-4-5')?.cache.minPrefixTokens).toBe(4_096);
    expect(getModelPricing('gemini-2.5-flash')?.cache).toMatchObject({ mode: 'automatic', readMultiplier: 0.1 });
    expect(ANTHROPIC_CACHE_1H).toMatchObject({ ttlMs: 3_600_000, writeMultiplier: 2 });
    expect(MODEL_PRICING_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('returns undefined for an unknown model, and lets a host add or correct one', () => {
    expect(getModelPricing('my-local-model')).toBeUndefined();
    const mine: ModelPricing = { input: 0.5, output: 1, cache: OPENAI_AUTOMATIC_CACHE };
    expect(getModelPricing('my-local-model-q4', { overrides: { 'my-local-model': mine } })).toEqual(mine);
    const discounted = { ...sonnet, input: 2.4 };
    expect(getModelPricing('claude-sonnet-4-5', { overrides: { 'claude-sonnet-4-5': discounted } })?.input).toBe(2.4);
    // The table's longer key still wins for the model it names more precisely.
    expect(getModelPricing('gpt-5-mini', { overrides: { 'gpt-5': mine } })?.input).toBe(0.25);
  });

  it('refuses an override that is not a pricing, naming the field', () => {
    const bad = { input: -1, output: 1, cache: ANTHROPIC_CACHE_5M } as ModelPricing;
    expect(() => getModelPricing('x', { overrides: { x: bad } })).toThrow(ConfigError);
    expect(() => getModelPricing('x', { overrides: { x: bad } })).toThrow(/overrides\.x\.input/);
    const noCache = { input: 1, output: 1 } as ModelPricing;
    expect(() => getModelPricing('x', { overrides: { x: noCache } })).toThrow(/cache/);
    expect(() => getModelPricing(42 as unknown as string)).toThrow(/modelId/);
  });

  it('every built-in entry is a valid pricing', () => {
    for (const [id, pricing] of Object.entries(MODEL_PRICING)) {
      expect(getModelPricing(id, { overrides: { [id]: pricing } })).toEqual(pricing);
      expect(pricing.output).toBeGreaterThanOrEqual(pricing.input);
    }
  });
});

describe('usageCost', () => {
  it('prices Anthropic usage by its four kinds', () => {
    const usage = fromAnthropicUsage({
      input_tokens: 2_000,
      output_tokens: 300,
      cache_read_input_tokens: 50_000,
      cache_creation_input_tokens: 4_000,
    });
    const cost = usageCost(usage, sonnet);
    expect(cost.uncachedInput).toBeCloseTo(0.006, 10);
    expect(cost.cacheWrite).toBeCloseTo(0.015, 10);
    expect(cost.cacheRead).toBeCloseTo(0.015, 10);
    expect(cost.output).toBeCloseTo(0.0045, 10);
    expect(cost.total).toBeCloseTo(0.0405, 10);
  });

  it('prices OpenAI usage with the cached part at the cached rate', () => {
    const usage = fromOpenAIUsage({
      prompt_tokens: 100_000,
      completion_tokens: 1_000,
      prompt_tokens_details: { cached_tokens: 90_000 },
    });
    const cost = usageCost(usage, getModelPricing('gpt-5')!);
    expect(cost.uncachedInput).toBeCloseTo(0.0125, 10); // 10k × $1.25/M
    expect(cost.cacheRead).toBeCloseTo(0.01125, 10); // 90k × $0.125/M
    expect(cost.cacheWrite).toBe(0);
    expect(cost.output).toBeCloseTo(0.01, 10);
  });

  it('refuses a negative count, naming it', () => {
    expect(() => usageCost({ input: 1, output: -2 }, sonnet)).toThrow(/usage\.output/);
    expect(() => usageCost(null as never, sonnet)).toThrow(ConfigError);
  });
});

describe('addSpend', () => {
  it('adds tokens and dollars and keeps the cache hit rate', () => {
    let spent = emptySpend(true);
    spent = addSpend(spent, { input: 1_000, output: 100, cacheWrite: 9_000 }, sonnet);
    spent = addSpend(spent, { input: 500, output: 100, cacheRead: 10_000, cacheWrite: 1_000 }, sonnet);
    expect(spent.calls).toBe(2);
    expect(spent.tokens).toEqual({
      uncachedInput: 1_500,
      cacheWrite: 10_000,
      cacheRead: 10_000,
      output: 200,
      total: 21_700,
    });
    expect(spent.cacheHitRate).toBeCloseTo(10_000 / 21_500, 10);
    expect(spent.dollars?.total).toBeCloseTo(0.0045 + 0.0375 + 0.003 + 0.003, 10);
    expect(addSpend(emptySpend(), { input: 1, output: 1 }, undefined).dollars).toBeUndefined();
  });

  test.prop([
    fc.array(
      fc.record({
        input: fc.nat(1_000_000),
        output: fc.nat(100_000),
        cacheRead: fc.nat(1_000_000),
        cacheWrite: fc.nat(1_000_000),
      }),
      { maxLength: 20 },
    ),
  ])('the tally is the sum of the calls’ costs, and the hit rate a share', (calls) => {
    let spent = emptySpend(true);
    let dollars = 0;
    for (const usage of calls) {
      spent = addSpend(spent, usage, sonnet);
      dollars += usageCost(usage, sonnet).total;
    }
    expect(spent.calls).toBe(calls.length);
    expect(spent.dollars!.total).toBeCloseTo(dollars, 6);
    expect(spent.cacheHitRate).toBeGreaterThanOrEqual(0);
    expect(spent.cacheHitRate).toBeLessThanOrEqual(1);
  });
});
