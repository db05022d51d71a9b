import type { TokenCounter } from '../counting/token-counter.js';
import { type CreateTokenizerCounterOptions, counterFor, parseCounterOptions } from './create-tokenizer-counter.js';
import { getEncoder, loadRanks } from './load-encoding.js';

/**
 * Like {@link createTokenizerCounter}, but loads the encoding's rank table with a dynamic
 * `import()` and builds its encoder before it resolves, so it works on every runtime and bundler
 * (which can put each table in its own chunk), and the first count is as fast as the others.
 *
 * @param options - The encoding, the image cost and the per-message overhead.
 * @returns A promise of a synchronous {@link TokenCounter} with `exact: true`, named after its encoding.
 * @throws `ConfigError` (from `ctxkit`) naming the field when an option is unknown, negative or not finite;
 *   `ContextError` (`DEPENDENCY_MISSING`) when gpt-tokenizer, an optional peer dependency, is not
 *   installed: `npm install gpt-tokenizer`.
 *
 * @example
 * ```ts
 * import { loadTokenizerCounter } from 'ctxkit/tokenizer';
 *
 * const counter = await loadTokenizerCounter({ encoding: 'cl100k_base' });
 * counter.count('hello world'); // 2
 * ```
 */
export async function loadTokenizerCounter(options: CreateTokenizerCounterOptions = {}): Promise<TokenCounter> {
  const parsed = parseCounterOptions(options, 'loadTokenizerCounter');
  await loadRanks(parsed.encoding);
  getEncoder(parsed.encoding);
  return counterFor(parsed);
}
