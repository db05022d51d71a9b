import { ConfigError } from '../errors.js';
import * as v from '../validation/light-schema.js';
import { option, parseOptions } from '../validation/parse-options.js';
import { longestMatch, normalizeModelId } from './internal/model-id.js';

/**
 * How much a model reads and writes.
 *
 * @example
 * ```ts
 * const limits: ModelLimits = { contextWindow: 128_000, maxOutputTokens: 16_384 };
 * ```
 */
export interface ModelLimits {
  /** Tokens the model accepts in one request, input and output together. */
  contextWindow: number;
  /** Tokens the model writes at most in one response. */
  maxOutputTokens: number;
}

/**
 * Options of {@link getModelLimits}.
 *
 * @example
 * ```ts
 * const options: GetModelLimitsOptions = { overrides: { 'my-finetune': { contextWindow: 32_768, maxOutputTokens: 4_096 } } };
 * ```
 */
export interface GetModelLimitsOptions {
  /**
   * Limits that add to or correct the built-in table. A key equal to the id wins outright;
   * otherwise keys are normalized and matched like the table's, and the longest matching key of
   * either wins, an override taking a tie.
   */
  overrides?: Readonly<Record<string, ModelLimits>> | undefined;
}

const limits = (contextWindow: number, maxOutputTokens: number): ModelLimits =>
  Object.freeze({ contextWindow, maxOutputTokens });

/**
 * The built-in table, keyed by normalized model id (see {@link getModelLimits}). Numbers are the
 * providers' documented context window and maximum output: OpenAI's model pages, Anthropic's
 * models overview, Google's Gemini model pages, xAI's and Mistral's model docs, DeepSeek's API
 * pricing page, and the model cards of open models. Where a provider documents no output cap
 * (Mistral, most open models), the output figure is a budget of 8,192. Open models are listed at
 * their native window, which local servers often cut (Ollama loads 2,048–4,096 by default): pass
 * the window your server actually loads.
 */
export const MODEL_LIMITS: Readonly<Record<string, ModelLimits>> = /* @__PURE__ */ (() =>
  Object.freeze({
    // OpenAI (platform model pages)
    'gpt-5': limits(400_000, 128_000),
    'gpt-5-mini': limits(400_000, 128_000),
    'gpt-5-nano': limits(400_000, 128_000),
    'gpt-5-chat': limits(128_000, 16_384),
    'gpt-5.1': limits(400_000, 128_000),
    'gpt-5.1-chat': limits(128_000, 16_384),
    'gpt-5.2': limits(400_000, 128_000),
    'gpt-4.1': limits(1_047_576, 32_768),
    'gpt-4o': limits(128_000, 16_384),
    'gpt-4o-2024-05-13': limits(128_000, 4_096),
    'gpt-4o-mini': limits(128_000, 16_384),
    'chatgpt-4o': limits(128_000, 16_384),
    'gpt-4-turbo': limits(128_000, 4_096),
    'gpt-4-0125': limits(128_000, 4_096), // gpt-4-turbo snapshots
    'gpt-4-1106': limits(128_000, 4_096),
    'gpt-4': limits(8_192, 8_192),
    'gpt-4-32k': limits(32_768, 8_192), // legacy; output as gpt-4's
    'gpt-3.5-turbo': limits(16_385, 4_096),
    o1: limits(200_000, 100_000),
    'o1-mini': limits(128_000, 65_536),
    'o1-preview': limits(128_000, 32_768),
    o3: limits(200_000, 100_000),
    'o3-mini': limits(200_000, 100_000),
    'o4-mini': limits(200_000, 100_000),
    'gpt-oss-120b': limits(131_072, 131_072),
    'gpt-oss-20b': limits(131_072, 131_072),
    // Anthropic (models overview; 1M windows need a beta header, so 200K here)
    'claude-opus-4-6': limits(200_000, 128_000),
    'claude-sonnet-4-6': limits(200_000, 64_000),
    'claude-opus-4-5': limits(200_000, 64_000),
    'claude-opus-4-1': limits(200_000, 32_000),
    'claude-opus-4': limits(200_000, 32_000),
    'claude-sonnet-4-5': limits(200_000, 64_000),
    'claude-sonnet-4': limits(200_000, 64_000),
    'claude-haiku-4-5': limits(200_000, 64_000),
    'claude-3-7-sonnet': limits(200_000, 64_000),
    'claude-3-5-sonnet': limits(200_000, 8_192),
    'claude-3-5-haiku': limits(200_000, 8_192),
    'claude-3-opus': limits(200_000, 4_096),
    'claude-3-sonnet': limits(200_000, 4_096),
    'claude-3-haiku': limits(200_000, 4_096),
    // Google (input token limit, output token limit)
    'gemini-3.1-pro': limits(1_048_576, 65_536),
    'gemini-3-pro': limits(1_048_576, 65_536),
    'gemini-2.5-pro': limits(1_048_576, 65_536),
    'gemini-2.5-flash': limits(1_048_576, 65_536),
    'gemini-2.5-flash-lite': limits(1_048_576, 65_536),
    'gemini-2.0-flash': limits(1_048_576, 8_192),
    'gemini-1.5-pro': limits(2_097_152, 8_192),
    'gemini-1.5-flash': limits(1_048_576, 8_192),
    // xAI
    'grok-4': limits(256_000, 64_000),
    'grok-code-fast-1': limits(256_000, 10_000),
    'grok-3': limits(131_072, 16_384),
    'grok-3-mini': limits(131_072, 16_384),
    // Mistral
    'mistral-large': limits(131_072, 8_192),
    'mistral-medium': limits(131_072, 8_192),
    'mistral-small': limits(131_072, 8_192),
    'mistral-nemo': limits(131_072, 8_192),
    'mistral-7b': limits(32_768, 8_192),
    ministral: limits(131_072, 8_192),
    'mixtral-8x7b': limits(32_768, 8_192),
    'mixtral-8x22b': limits(65_536, 8_192),
    codestral: limits(256_000, 8_192),
    'codestral-2405': limits(32_768, 8_192),
    'codestral-22b': limits(32_768, 8_192),
    devstral: limits(131_072, 8_192),
    // DeepSeek (API) and open models (model cards)
    'deepseek-chat': limits(128_000, 8_192),
    'deepseek-reasoner': limits(128_000, 64_000),
    'deepseek-v3': limits(128_000, 8_192),
    'deepseek-v3.1': limits(128_000, 8_192),
    'deepseek-v3.2': limits(128_000, 8_192),
    'deepseek-r1': limits(128_000, 32_768),
    'llama-3': limits(8_192, 8_192),
    'llama-3.1': limits(131_072, 8_192),
    'llama-3.2': limits(131_072, 8_192),
    'llama-3.3': limits(131_072, 8_192),
    'llama-4': limits(131_072, 8_192), // cards say 10M (Scout) / 1M (Maverick); hosts serve far less
    'qwen2.5': limits(32_768, 8_192), // 131,072 only with YaRN enabled
    qwen3: limits(32_768, 8_192), // 131,072 only with YaRN enabled
    'qwen3-coder': limits(262_144, 65_536),
    'gemma-2': limits(8_192, 8_192),
    'gemma-3': limits(131_072, 8_192),
    'gemma-3-1b': limits(32_768, 8_192),
    'kimi-k2': limits(131_072, 16_384),
  }))();

const TABLE = /* @__PURE__ */ (() =>
  Object.entries(MODEL_LIMITS).map(([key, value]) => ({ key: normalizeModelId(key), value })))();

const modelLimitsSchema = /* @__PURE__ */ (() =>
  v.strictObject({
    contextWindow: option.positive(),
    maxOutputTokens: option.positive(),
  }))();

const optionsSchema = /* @__PURE__ */ (() =>
  option.fields({
    overrides: v
      .record(v.unknown(), { error: 'must be an object of model id → { contextWindow, maxOutputTokens }' })
      .optional(),
  }))();

function validated(overrides: Readonly<Record<string, ModelLimits>>): Array<[string, ModelLimits]> {
  return Object.entries(overrides).map(([key, value]) => {
    return [key, parseOptions('getModelLimits', modelLimitsSchema, value, `options.overrides.${key}`)];
  });
}

/**
 * Looks up a model's context window and maximum output in the host's overrides and the built-in
 * {@link MODEL_LIMITS}.
 *
 * An override whose key equals the id (ignoring case) wins outright. Otherwise the id and every
 * key are normalized alike (lower case; no host path such as `openrouter/` or
 * `accounts/fireworks/models/`; no Bedrock region, vendor or `-v1:0` suffix; `:tag` as a suffix;
 * one spelling per family, so `anthropic/claude-3.5-sonnet`, `llama3.1:8b` and
 * `meta.llama3-1-70b-instruct-v1:0` find their models), and the longest key that equals the id or
 * starts it at a separator wins, across overrides and table, an override taking a tie. So
 * overriding `gpt-4o` changes `gpt-4o-2024-11-20` but not `gpt-4o-mini`, which the table knows
 * more precisely. A key never matches a longer version (`gpt-4` does not match `gpt-4.5`).
 *
 * @param modelId - The model id as the host sends it to the provider.
 * @param options - Overrides for models the table lacks or gets wrong for your deployment.
 * @returns A copy of the limits, or `undefined` for an unknown model.
 * @throws {@link ConfigError} when an override is not two positive whole numbers.
 *
 * @example
 * ```ts
 * getModelLimits('claude-sonnet-4-5-20250929'); // { contextWindow: 200000, maxOutputTokens: 64000 }
 * getModelLimits('us.anthropic.claude-sonnet-4-20250514-v1:0'); // { contextWindow: 200000, maxOutputTokens: 64000 }
 * getModelLimits('llama3:8b', { overrides: { llama3: { contextWindow: 8192, maxOutputTokens: 2048 } } });
 * ```
 */
export function getModelLimits(modelId: string, options: GetModelLimitsOptions = {}): ModelLimits | undefined {
  parseOptions('getModelLimits', optionsSchema, options);
  if (typeof modelId !== 'string') {
    throw new ConfigError({
      message: `getModelLimits: modelId must be a model id string such as "gpt-4o" (got ${modelId === null ? 'null' : typeof modelId})`,
      field: 'modelId',
    });
  }
  const overrides = options.overrides ? validated(options.overrides) : [];
  const exactId = modelId.trim().toLowerCase();
  const exact = overrides.find(([key]) => key.trim().toLowerCase() === exactId);
  if (exact) return { ...exact[1] };
  const id = normalizeModelId(modelId);
  const best = longestMatch(id, [
    ...overrides.map(([key, value]) => ({ key: normalizeModelId(key), value })),
    ...TABLE,
  ]);
  return best ? { ...best } : undefined;
}
