import { ConfigError } from '../errors.js';
import * as v from '../validation/light-schema.js';
import { option, parseOptions } from '../validation/parse-options.js';
import { longestMatch, normalizeModelId } from './internal/model-id.js';

/**
 * How a provider's prompt cache works and what it charges, relative to the model's input price.
 *
 * - `'breakpoints'` (Anthropic): a prefix is cached only where the request marks a breakpoint
 *   (`cache_control`), at most `maxBreakpoints` per request; writing it costs `writeMultiplier` ×
 *   input, reading it `readMultiplier` × input.
 * - `'automatic'` (OpenAI, Gemini's implicit cache, DeepSeek): every prompt's prefix is cached from
 *   `minPrefixTokens` on, without marks; writes cost nothing extra (`writeMultiplier` 1).
 *
 * @example
 * ```ts
 * const anthropic: PromptCacheRules = {
 *   mode: 'breakpoints', ttlMs: 300_000, minPrefixTokens: 1_024, maxBreakpoints: 4, writeMultiplier: 1.25, readMultiplier: 0.1,
 * };
 * ```
 */
export interface PromptCacheRules {
  /** Where prefixes are cached: only at marked breakpoints, or automatically. */
  mode: 'breakpoints' | 'automatic';
  /** How long an unused cached prefix lives, in milliseconds (each read renews it). */
  ttlMs: number;
  /** The shortest prefix the provider caches, in tokens. */
  minPrefixTokens: number;
  /** Breakpoints one request may mark (`'breakpoints'` mode); `undefined` when there is no limit. */
  maxBreakpoints: number | undefined;
  /** Price of a cache write as a multiple of the input price (1.25 for Anthropic's 5-minute cache). */
  writeMultiplier: number;
  /** Price of a cache read as a multiple of the input price (0.1 is 90% off). */
  readMultiplier: number;
}

/**
 * What a model costs, in US dollars per million tokens, and how its prompt cache works.
 *
 * @example
 * ```ts
 * const pricing: ModelPricing = { input: 3, output: 15, cache: ANTHROPIC_CACHE_5M };
 * usageCost({ input: 1_000, output: 500, cacheRead: 40_000 }, pricing).total; // 0.0225
 * ```
 */
export interface ModelPricing {
  /** Dollars per million uncached input tokens. */
  input: number;
  /** Dollars per million output tokens (reasoning tokens included). */
  output: number;
  /** The prompt cache: its mode, TTL, minimum prefix, breakpoint limit and multipliers. */
  cache: PromptCacheRules;
}

/**
 * Anthropic's 5-minute prompt cache (the default `cache_control: { type: 'ephemeral' }`): writes
 * 1.25× input, reads 0.1×, at most 4 breakpoints, prefixes from 1,024 tokens (Sonnet and Opus 4.x;
 * Haiku and Opus 4.5 and later need more, see {@link MODEL_PRICING}).
 *
 * @example
 * ```ts
 * const pricing: ModelPricing = { input: 3, output: 15, cache: ANTHROPIC_CACHE_5M };
 * ```
 */
export const ANTHROPIC_CACHE_5M: Readonly<PromptCacheRules> = /* @__PURE__ */ (() =>
  Object.freeze({
    mode: 'breakpoints',
    ttlMs: 5 * 60_000,
    minPrefixTokens: 1_024,
    maxBreakpoints: 4,
    writeMultiplier: 1.25,
    readMultiplier: 0.1,
  }))();

/**
 * Anthropic's 1-hour prompt cache (`cache_control: { type: 'ephemeral', ttl: '1h' }`): writes 2×
 * input, reads 0.1×.
 *
 * @example
 * ```ts
 * const pricing: ModelPricing = { ...getModelPricing('claude-sonnet-4-5')!, cache: ANTHROPIC_CACHE_1H };
 * ```
 */
export const ANTHROPIC_CACHE_1H: Readonly<PromptCacheRules> = /* @__PURE__ */ (() =>
  Object.freeze({
    ...ANTHROPIC_CACHE_5M,
    ttlMs: 60 * 60_000,
    writeMultiplier: 2,
  }))();

/**
 * OpenAI's automatic prefix cache: prompts of 1,024 tokens and more, free writes, reads at 0.1×
 * input for the GPT-5 family (0.25× to 0.5× for older models, set per model in
 * {@link MODEL_PRICING}); an unused prefix usually lives 5 to 10 minutes.
 *
 * @example
 * ```ts
 * const pricing: ModelPricing = { input: 1.25, output: 10, cache: OPENAI_AUTOMATIC_CACHE };
 * ```
 */
export const OPENAI_AUTOMATIC_CACHE: Readonly<PromptCacheRules> = /* @__PURE__ */ (() =>
  Object.freeze({
    mode: 'automatic',
    ttlMs: 5 * 60_000,
    minPrefixTokens: 1_024,
    maxBreakpoints: undefined,
    writeMultiplier: 1,
    readMultiplier: 0.1,
  }))();

/**
 * OpenAI's explicit cache breakpoints (the GPT-5.6 generation): marked prefixes, writes 1.25×
 * input, reads 0.1×, a 30-minute TTL. Pass it for a model the table does not know yet:
 * `{ input, output, cache: OPENAI_EXPLICIT_CACHE }`.
 *
 * @example
 * ```ts
 * createContextManager({ summarizer, model: 'gpt-5.6', pricing: { input: 2.5, output: 15, cache: OPENAI_EXPLICIT_CACHE } });
 * ```
 */
export const OPENAI_EXPLICIT_CACHE: Readonly<PromptCacheRules> = /* @__PURE__ */ (() =>
  Object.freeze({
    mode: 'breakpoints',
    ttlMs: 30 * 60_000,
    minPrefixTokens: 1_024,
    maxBreakpoints: 4,
    writeMultiplier: 1.25,
    readMultiplier: 0.1,
  }))();

/**
 * Gemini's implicit cache: automatic, reads at 0.1× input (90% off) for the 2.5 models and later,
 * prefixes from 1,024 tokens (Flash; 4,096 for Pro, set per model in {@link MODEL_PRICING}).
 *
 * @example
 * ```ts
 * const pricing: ModelPricing = { input: 0.3, output: 2.5, cache: GEMINI_IMPLICIT_CACHE };
 * ```
 */
export const GEMINI_IMPLICIT_CACHE: Readonly<PromptCacheRules> = /* @__PURE__ */ (() =>
  Object.freeze({
    mode: 'automatic',
    ttlMs: 3 * 60_000,
    minPrefixTokens: 1_024,
    maxBreakpoints: undefined,
    writeMultiplier: 1,
    readMultiplier: 0.1,
  }))();

/** The day {@link MODEL_PRICING} was last checked against the providers' pricing pages. */
export const MODEL_PRICING_DATE = '2026-11-26';

const price = (
  input: number,
  output: number,
  cache: Readonly<PromptCacheRules>,
  changes: Partial<PromptCacheRules> = {},
): ModelPricing => Object.freeze({ input, output, cache: Object.freeze({ ...cache, ...changes }) });

/**
 * The built-in prices, in US dollars per million tokens, as of {@link MODEL_PRICING_DATE}, keyed
 * and matched like {@link MODEL_LIMITS}: Anthropic's pricing page (base input, output; cache
 * multipliers 1.25× / 2× / 0.1×) and its prompt-caching page (minimum cacheable prompt), OpenAI's
 * pricing page (input, cached input, output), Google's Gemini API pricing (prompts up to 200k
 * tokens). Prices change: pass your own with `pricing` (or `overrides` to
 * {@link getModelPricing}) when they differ, or for batch, priority or regional rates.
 */
export const MODEL_PRICING: Readonly<Record<string, ModelPricing>> = /* @__PURE__ */ (() =>
  Object.freeze({
    // Anthropic
    'claude-opus-4-6': price(5, 25, ANTHROPIC_CACHE_5M, { minPrefixTokens: 4_096 }),
    'claude-opus-4-5': price(5, 25, ANTHROPIC_CACHE_5M, { minPrefixTokens: 4_096 }),
    'claude-opus-4-1': price(15, 75, ANTHROPIC_CACHE_5M),
    'claude-opus-4': price(15, 75, ANTHROPIC_CACHE_5M),
    'claude-sonnet-4-6': price(3, 15, ANTHROPIC_CACHE_5M),
    'claude-sonnet-4-5': price(3, 15, ANTHROPIC_CACHE_5M),
    'claude-sonnet-4': price(3, 15, ANTHROPIC_CACHE_5M),
    'claude-3-7-sonnet': price(3, 15, ANTHROPIC_CACHE_5M),
    'claude-haiku-4-5': price(1, 5, ANTHROPIC_CACHE_5M, { minPrefixTokens: 4_096 }),
    'claude-3-5-haiku': price(0.8, 4, ANTHROPIC_CACHE_5M, { minPrefixTokens: 2_048 }),
    // OpenAI
    'gpt-5.5': price(5, 30, OPENAI_AUTOMATIC_CACHE),
    'gpt-5.4': price(2.5, 15, OPENAI_AUTOMATIC_CACHE),
    'gpt-5.4-mini': price(0.75, 4.5, OPENAI_AUTOMATIC_CACHE),
    'gpt-5.4-nano': price(0.2, 1.25, OPENAI_AUTOMATIC_CACHE),
    'gpt-5.2': price(1.75, 14, OPENAI_AUTOMATIC_CACHE),
    'gpt-5.1': price(1.25, 10, OPENAI_AUTOMATIC_CACHE),
    'gpt-5': price(1.25, 10, OPENAI_AUTOMATIC_CACHE),
    'gpt-5-mini': price(0.25, 2, OPENAI_AUTOMATIC_CACHE),
    'gpt-5-nano': price(0.05, 0.4, OPENAI_AUTOMATIC_CACHE),
    'gpt-4.1': price(2, 8, OPENAI_AUTOMATIC_CACHE, { readMultiplier: 0.25 }),
    'gpt-4o': price(2.5, 10, OPENAI_AUTOMATIC_CACHE, { readMultiplier: 0.5 }),
    'gpt-4o-mini': price(0.15, 0.6, OPENAI_AUTOMATIC_CACHE, { readMultiplier: 0.5 }),
    // Google (prompts up to 200k tokens)
    'gemini-2.5-pro': price(1.25, 10, GEMINI_IMPLICIT_CACHE, { minPrefixTokens: 4_096 }),
    'gemini-2.5-flash': price(0.3, 2.5, GEMINI_IMPLICIT_CACHE),
  }))();

/**
 * Options of {@link getModelPricing}.
 *
 * @example
 * ```ts
 * const options: GetModelPricingOptions = { overrides: { 'my-proxy-model': { input: 1, output: 4, cache: OPENAI_AUTOMATIC_CACHE } } };
 * ```
 */
export interface GetModelPricingOptions {
  /** Prices that add to or correct the built-in table, matched like the table's keys (an override taking a tie). */
  overrides?: Readonly<Record<string, ModelPricing>> | undefined;
}

const TABLE = /* @__PURE__ */ (() =>
  Object.entries(MODEL_PRICING).map(([key, value]) => ({ key: normalizeModelId(key), value })))();

const nonNegative = /* @__PURE__ */ (() =>
  v.number({ error: 'must be a non-negative number' }).finite().nonnegative())();

const cacheSchema = /* @__PURE__ */ (() =>
  v.strictObject({
    mode: v.enumOf(['breakpoints', 'automatic'], { error: "must be 'breakpoints' or 'automatic'" }),
    ttlMs: option.positive(),
    minPrefixTokens: v.number({ error: 'must be a whole number of tokens' }).int().nonnegative(),
    maxBreakpoints: option.positive().optional(),
    writeMultiplier: nonNegative,
    readMultiplier: nonNegative,
  }))();

const pricingSchema = /* @__PURE__ */ v.strictObject({ input: nonNegative, output: nonNegative, cache: cacheSchema });

/**
 * Checks a host's pricing and returns a frozen copy.
 *
 * @internal
 */
export function checkPricing(functionName: string, pricing: unknown, field: string): ModelPricing {
  const parsed = parseOptions(functionName, pricingSchema, pricing, field);
  return Object.freeze({
    input: parsed.input,
    output: parsed.output,
    cache: Object.freeze({ ...parsed.cache, maxBreakpoints: parsed.cache.maxBreakpoints }),
  });
}

const optionsSchema = /* @__PURE__ */ (() =>
  option.fields({
    overrides: v.record(v.unknown(), { error: 'must be an object of model id → { input, output, cache }' }).optional(),
  }))();

/**
 * Looks up what a model costs and how its prompt cache works, in the host's overrides and the
 * built-in {@link MODEL_PRICING} (dated {@link MODEL_PRICING_DATE}). Ids are normalized and matched
 * as {@link getModelLimits} does: the longest key that equals the id or starts it at a separator
 * wins, so `claude-sonnet-4-5-20250929` and `us.anthropic.claude-sonnet-4-5-20250929-v1:0` find
 * `claude-sonnet-4-5`.
 *
 * @param modelId - The model id as the host sends it to the provider.
 * @param options - Prices for models the table lacks, or for your own rates.
 * @returns The pricing, or `undefined` for a model the table and the overrides do not know.
 * @throws {@link ConfigError} when an override is not a valid {@link ModelPricing}.
 *
 * @example
 * ```ts
 * getModelPricing('claude-sonnet-4-5-20250929'); // { input: 3, output: 15, cache: { mode: 'breakpoints', … } }
 * getModelPricing('gpt-5-2025-08-07')?.cache.readMultiplier; // 0.1
 * ```
 */
export function getModelPricing(modelId: string, options: GetModelPricingOptions = {}): ModelPricing | undefined {
  parseOptions('getModelPricing', optionsSchema, options);
  if (typeof modelId !== 'string') {
    throw new ConfigError({
      message: `getModelPricing: modelId must be a model id string such as "gpt-5" (got ${modelId === null ? 'null' : typeof modelId})`,
      field: 'modelId',
    });
  }
  const overrides = Object.entries(options.overrides ?? {}).map(([key, value]) => ({
    key: normalizeModelId(key),
    value: checkPricing('getModelPricing', value, `options.overrides.${key}`),
  }));
  return longestMatch(normalizeModelId(modelId), [...overrides, ...TABLE]);
}
