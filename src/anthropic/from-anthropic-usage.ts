import type { Usage } from '../types.js';
import { expectObject, invalid } from './internal/wire-object.js';
import type { AnthropicUsage } from './types.js';

/**
 * Anthropic's usage as ctxkit's {@link Usage}. Anthropic reports `input_tokens` without the cache,
 * so nothing is subtracted: `input = input_tokens`, `cacheRead = cache_read_input_tokens`,
 * `cacheWrite = cache_creation_input_tokens`, `output = output_tokens`, and the prompt the request
 * took is `input + cacheRead + cacheWrite` (`total` adds the output).
 *
 * @param usage - The response's `usage`.
 * @returns The usage with cache reads and writes split out, each token counted once.
 *
 * @example
 * ```ts
 * fromAnthropicUsage({ input_tokens: 12, output_tokens: 80, cache_read_input_tokens: 30_000, cache_creation_input_tokens: 500 });
 * // { input: 12, output: 80, cacheRead: 30000, cacheWrite: 500, total: 30592 }
 * ```
 */
export function fromAnthropicUsage(usage: AnthropicUsage): Usage {
  expectObject(usage, 'fromAnthropicUsage', 'usage');
  const count = (value: unknown, field: string): number => {
    if (value === undefined || value === null) return 0;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      invalid('fromAnthropicUsage', `usage.${field}`, 'must be a non-negative number');
    }
    return value;
  };
  const input = count(usage.input_tokens, 'input_tokens');
  const output = count(usage.output_tokens, 'output_tokens');
  const cacheRead = count(usage.cache_read_input_tokens, 'cache_read_input_tokens');
  const cacheWrite = count(usage.cache_creation_input_tokens, 'cache_creation_input_tokens');
  if (!Number.isFinite(input + cacheRead + cacheWrite + output)) {
    invalid('fromAnthropicUsage', 'usage', 'token counts must add up to a finite number');
  }
  return {
    input,
    output,
    ...(usage.cache_read_input_tokens == null ? {} : { cacheRead }),
    ...(usage.cache_creation_input_tokens == null ? {} : { cacheWrite }),
    total: input + cacheRead + cacheWrite + output,
  };
}
