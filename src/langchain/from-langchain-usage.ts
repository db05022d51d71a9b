import type { Usage } from '../types.js';
import { invalid, isObject } from './internal/langchain-data.js';
import type { LangChainUsageMetadata } from './message-types.js';

/** A count the report gives, or 0. */
function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/**
 * Converts an `AIMessage`'s `usage_metadata` into ctxkit's usage. LangChain's `input_tokens` includes
 * the cache (`input_token_details.cache_read` and `cache_creation`, for OpenAI and Anthropic alike),
 * while ctxkit's `input` excludes it: `input = input_tokens − cache_read − cache_creation`,
 * `cacheRead = cache_read`, `cacheWrite = cache_creation`, so the prompt is counted once.
 *
 * @param usage - The message's `usage_metadata`.
 * @returns ctxkit's usage (with the provider's `total`).
 * @throws `ContextError` with code `INPUT_INVALID` when `usage` is not an object with numeric
 * `input_tokens` and `output_tokens`.
 *
 * @example
 * ```ts
 * const reply = await model.invoke(messages);
 * if (reply.usage_metadata) manager.recordUsage(fromLangChainUsage(reply.usage_metadata));
 * ```
 */
export function fromLangChainUsage(usage: LangChainUsageMetadata): Usage {
  if (!isObject(usage)) invalid('fromLangChainUsage', 'usage', 'must be an object (usage_metadata)');
  if (typeof usage.input_tokens !== 'number' || typeof usage.output_tokens !== 'number') {
    invalid('fromLangChainUsage', 'usage', 'must have numeric input_tokens and output_tokens');
  }
  const details = isObject(usage.input_token_details) ? usage.input_token_details : {};
  const cacheRead = count(details.cache_read);
  const cacheWrite = count(details.cache_creation);
  const result: Usage = {
    input: Math.max(0, count(usage.input_tokens) - cacheRead - cacheWrite),
    output: count(usage.output_tokens),
  };
  if (cacheRead > 0) result.cacheRead = cacheRead;
  if (cacheWrite > 0) result.cacheWrite = cacheWrite;
  if (typeof usage.total_tokens === 'number' && usage.total_tokens > 0) result.total = count(usage.total_tokens);
  return result;
}
