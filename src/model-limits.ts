import { z } from 'zod';
import { ConfigError, firstIssue } from './errors.js';

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
  /** Limits that take precedence over the built-in table, matched the same way (prefixes). */
  overrides?: Readonly<Record<string, ModelLimits>> | undefined;
}

const limits = (contextWindow: number, maxOutputTokens: number): ModelLimits =>
  Object.freeze({ contextWindow, maxOutputTokens });

/**
 * The built-in table, keyed by model id without date or version suffix. Dated and suffixed ids
 * (`claude-sonnet-4-5-20250929`, `gpt-4o-2024-08-06`) match by prefix; provider prefixes
 * (`openai/`, `anthropic.`, `us.anthropic.`) are ignored.
 */
export const MODEL_LIMITS: Readonly<Record<string, ModelLimits>> = Object.freeze({
  // OpenAI
  'gpt-5': limits(400_000, 128_000),
  'gpt-5-mini': limits(400_000, 128_000),
  'gpt-5-nano': limits(400_000, 128_000),
  'gpt-4.1': limits(1_047_576, 32_768),
  'gpt-4.1-mini': limits(1_047_576, 32_768),
  'gpt-4.1-nano': limits(1_047_576, 32_768),
  'gpt-4o': limits(128_000, 16_384),
  'gpt-4o-mini': limits(128_000, 16_384),
  'gpt-4-turbo': limits(128_000, 4_096),
  'gpt-3.5-turbo': limits(16_385, 4_096),
  o1: limits(200_000, 100_000),
  o3: limits(200_000, 100_000),
  'o3-mini': limits(200_000, 100_000),
  'o4-mini': limits(200_000, 100_000),
  'gpt-oss-120b': limits(131_072, 131_072),
  'gpt-oss-20b': limits(131_072, 131_072),
  // Anthropic
  'claude-opus-4-5': limits(200_000, 64_000),
  'claude-opus-4-1': limits(200_000, 32_000),
  'claude-opus-4': limits(200_000, 32_000),
  'claude-sonnet-4-5': limits(200_000, 64_000),
  'claude-sonnet-4': limits(200_000, 64_000),
  'claude-haiku-4-5': limits(200_000, 64_000),
  'claude-3-7-sonnet': limits(200_000, 64_000),
  'claude-3-5-sonnet': limits(200_000, 8_192),
  'claude-3-5-haiku': limits(200_000, 8_192),
  // Google
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
  codestral: limits(256_000, 8_192),
  devstral: limits(131_072, 8_192),
  // Open models (as commonly served)
  'deepseek-chat': limits(128_000, 8_192),
  'deepseek-reasoner': limits(128_000, 64_000),
  'llama-3.1': limits(131_072, 8_192),
  'llama-3.3': limits(131_072, 8_192),
  'qwen3-coder': limits(262_144, 65_536),
  'kimi-k2': limits(131_072, 16_384),
});

const PROVIDER_PREFIX = /^(?:[a-z]{2}\.)?(?:anthropic|meta|mistral|amazon|cohere|deepseek|openai|qwen|google|xai)\./;

/** `claude-sonnet-4-5-20250929` → `claude-sonnet-4-5-20250929` (lower-case, no provider). */
function normalize(modelId: string): string {
  const name = modelId.trim().toLowerCase();
  const afterSlash = name.slice(name.lastIndexOf('/') + 1);
  return afterSlash.replace(PROVIDER_PREFIX, '');
}

/** The longest key that equals the id or is followed in it by a separator. */
function lookup(table: Readonly<Record<string, ModelLimits>>, id: string): ModelLimits | undefined {
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    const normalized = key.toLowerCase();
    const matches = id === normalized || (id.startsWith(normalized) && /[-:@.]/.test(id.charAt(normalized.length)));
    if (matches && (best === undefined || normalized.length > best.length)) best = key;
  }
  return best === undefined ? undefined : table[best];
}

const modelLimitsSchema = z.strictObject({
  contextWindow: z.number().int().positive(),
  maxOutputTokens: z.number().int().positive(),
});

/**
 * Looks up a model's context window and maximum output, from the host's overrides first, then the
 * built-in {@link MODEL_LIMITS}. Ids match exactly or by prefix at a separator, so dated and
 * provider-prefixed ids work (`openai/gpt-4o-2024-08-06`, `anthropic.claude-3-5-sonnet-20240620-v1:0`).
 *
 * @param modelId - The model id as the host sends it to the provider.
 * @param options - Overrides for models the table lacks or gets wrong for your deployment.
 * @returns The limits, or `undefined` for an unknown model.
 * @throws {@link ConfigError} when an override is not two positive whole numbers.
 *
 * @example
 * ```ts
 * getModelLimits('claude-sonnet-4-5-20250929'); // { contextWindow: 200000, maxOutputTokens: 64000 }
 * getModelLimits('llama3:8b', { overrides: { llama3: { contextWindow: 8192, maxOutputTokens: 2048 } } });
 * ```
 */
export function getModelLimits(modelId: string, options: GetModelLimitsOptions = {}): ModelLimits | undefined {
  const id = normalize(modelId);
  if (options.overrides) {
    for (const [key, value] of Object.entries(options.overrides)) {
      const parsed = modelLimitsSchema.safeParse(value);
      if (!parsed.success) {
        const issue = firstIssue(parsed.error, '');
        const field = `modelLimits.${key}${issue.field ? `.${issue.field}` : ''}`;
        throw new ConfigError(
          `${field} ${issue.detail}; give contextWindow and maxOutputTokens as positive whole numbers.`,
          field,
          parsed.error,
        );
      }
    }
    const overridden = lookup(options.overrides, id);
    if (overridden) return { ...overridden };
  }
  const found = lookup(MODEL_LIMITS, id);
  return found ? { ...found } : undefined;
}
