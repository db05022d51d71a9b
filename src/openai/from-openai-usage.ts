import { invalid, isObject } from '../internal/wire-object.js';
import type { Usage } from '../types.js';

/**
 * Token usage as either OpenAI API reports it: Chat Completions (`prompt_tokens`,
 * `completion_tokens`, `prompt_tokens_details`) or Responses (`input_tokens`, `output_tokens`,
 * `input_tokens_details`).
 *
 * @example
 * ```ts
 * const usage: OpenAIUsage = { prompt_tokens: 1200, completion_tokens: 80, total_tokens: 1280, prompt_tokens_details: { cached_tokens: 1024 } };
 * ```
 */
export type OpenAIUsage =
  | {
      prompt_tokens: number;
      completion_tokens: number;
      total_tokens?: number;
      prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
    }
  | {
      input_tokens: number;
      output_tokens: number;
      total_tokens?: number;
      input_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
    };

/**
 * Maps OpenAI's token usage to ctxkit's {@link Usage}, counting every prompt token exactly once.
 *
 * OpenAI's prompt count includes the cached tokens (`prompt_tokens` ⊇ `cached_tokens`, and likewise
 * `input_tokens` ⊇ `input_tokens_details.cached_tokens`), while ctxkit's `input` excludes cache reads
 * and writes. So:
 *
 * - `cacheRead = cached_tokens`
 * - `cacheWrite = cache_write_tokens` (when reported)
 * - `input = prompt_tokens - cached_tokens - cache_write_tokens` (never below 0)
 * - `output = completion_tokens` (reasoning tokens are already inside it)
 * - `total = total_tokens`
 *
 * and `input + cacheRead + cacheWrite` is the prompt size the provider saw, which is what ctxkit
 * compares with the window. Adding `cached_tokens` to `prompt_tokens` instead counts the cache twice.
 *
 * @param usage - The `usage` object of a Chat Completions or Responses response.
 * @returns ctxkit's usage.
 * @throws `ContextError` with code `INPUT_INVALID` when neither shape's token counts are numbers.
 *
 * @example
 * ```ts
 * fromOpenAIUsage({ prompt_tokens: 1200, completion_tokens: 80, total_tokens: 1280, prompt_tokens_details: { cached_tokens: 1024 } });
 * // { input: 176, output: 80, cacheRead: 1024, total: 1280 }
 * ```
 */
export function fromOpenAIUsage(usage: OpenAIUsage): Usage {
  if (!isObject(usage)) invalid('fromOpenAIUsage', 'usage', 'must be an object with token counts.');
  const chat = 'prompt_tokens' in usage;
  const prompt = chat ? usage.prompt_tokens : (usage as { input_tokens: unknown }).input_tokens;
  const output = chat ? usage.completion_tokens : (usage as { output_tokens: unknown }).output_tokens;
  if (!isCount(prompt) || !isCount(output)) {
    invalid(
      'fromOpenAIUsage',
      chat ? 'usage.prompt_tokens' : 'usage.input_tokens',
      'and the output count must be non-negative numbers (prompt_tokens/completion_tokens or input_tokens/output_tokens).',
    );
  }
  const details = chat
    ? usage.prompt_tokens_details
    : (usage as { input_tokens_details?: unknown }).input_tokens_details;
  const cacheRead = count(isObject(details) ? details.cached_tokens : undefined);
  const cacheWrite = count(isObject(details) ? details.cache_write_tokens : undefined);
  const result: Usage = { input: Math.max(0, prompt - (cacheRead ?? 0) - (cacheWrite ?? 0)), output };
  if (cacheRead !== undefined) result.cacheRead = cacheRead;
  if (cacheWrite !== undefined && cacheWrite > 0) result.cacheWrite = cacheWrite;
  if (isCount(usage.total_tokens)) result.total = usage.total_tokens;
  return result;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function count(value: unknown): number | undefined {
  return isCount(value) ? value : undefined;
}
