import { IMAGE_TOKENS, type TokenCounter } from '../counting/token-counter.js';
import { ConfigError } from '../errors.js';
import { assertStringArgument } from '../validation/assert-argument.js';
import * as v from '../validation/light-schema.js';
import { option, parseOptions } from '../validation/parse-options.js';
import { canLoadSync, getEncoder, type TokenizerEncoding } from './load-encoding.js';

/**
 * Options of {@link createTokenizerCounter} and {@link loadTokenizerCounter}.
 *
 * @example
 * ```ts
 * const options: CreateTokenizerCounterOptions = { encoding: 'cl100k_base', messageOverhead: 4 };
 * const counter = createTokenizerCounter(options);
 * ```
 */
export interface CreateTokenizerCounterOptions {
  /**
   * The encoding to count with.
   * @default 'o200k_base'
   */
  encoding?: TokenizerEncoding;
  /**
   * Tokens charged for one image.
   * @default 1200
   */
  imageTokens?: number;
  /**
   * Tokens added once per message for the provider's framing. OpenAI chat formats add about 3 to 4
   * per message (role and separators); leave it at 0 when counting bare text.
   * @default 0
   */
  messageOverhead?: number;
}

const optionsSchema = /* @__PURE__ */ (() =>
  v.strictObject({
    encoding: v.enumOf(['o200k_base', 'cl100k_base']).optional(),
    imageTokens: option.tokens().optional(),
    messageOverhead: option.tokens().optional(),
  }))();

/** The options with their defaults, or a `ConfigError` naming `caller` and the field. @internal */
export function parseCounterOptions(
  options: CreateTokenizerCounterOptions,
  caller: string,
): Required<CreateTokenizerCounterOptions> {
  const {
    encoding = 'o200k_base',
    imageTokens = IMAGE_TOKENS,
    messageOverhead = 0,
  } = parseOptions(caller, optionsSchema, options);
  return { encoding, imageTokens, messageOverhead };
}

/** The counter for parsed options; its encoder is built on the first count. @internal */
export function counterFor({
  encoding,
  imageTokens,
  messageOverhead,
}: Required<CreateTokenizerCounterOptions>): TokenCounter {
  return Object.freeze({
    name: encoding,
    exact: true,
    imageTokens,
    messageOverhead,
    count: (text: string) => {
      assertStringArgument(text, `${encoding} counter.count`, 'text');
      return text.length === 0 ? 0 : getEncoder(encoding)(text);
    },
  });
}

/**
 * An exact token counter for an OpenAI encoding, on gpt-tokenizer. Nothing is loaded until it is
 * needed: the first count loads the rank table of this counter's encoding only (about 0.1 s and
 * 10–15 MB for `o200k_base`, half that for `cl100k_base`) and builds its encoder (typed arrays of
 * about 27 MB for `o200k_base`: the tokens by their bytes, character classes and caches of counts),
 * which every counter of that encoding then shares; while texts with pieces of hundreds of
 * kilobytes keep coming (a 1 MB run of newlines) it keeps the arrays their merges grew, about 70 MB
 * more after a 1 MB run, and lets them go after the next text without one. No text is slow to
 * count for its length: the hardest 1 MB texts measured (docs/hostile-inputs.md) take about 200 ms
 * of CPU time at most. Importing `ctxkit/tokenizer` loads no table. Text that looks like a special token (`<|endoftext|>`, `<|im_start|>`) is counted as the plain text it is,
 * as a provider counts it inside a message, so `count` never throws once the table is loaded.
 *
 * The table is loaded synchronously, which works on Node 20.16 and later (both builds) and on Bun.
 * Where it cannot be (browsers, Deno, earlier Node releases), use {@link loadTokenizerCounter}, or
 * await it once first: afterwards this function works everywhere for that encoding.
 *
 * Create one counter per configuration and keep it: counters are cache keys for per-message counts.
 *
 * @param options - The encoding, the image cost and the per-message overhead.
 * @returns A synchronous {@link TokenCounter} with `exact: true`, named after its encoding.
 * @throws `ConfigError` (from `ctxkit`) naming the field when an option is unknown, negative or not
 *   finite, or (field `encoding`) when the runtime cannot load the table synchronously. The first
 *   `count` throws `ContextError` (`DEPENDENCY_MISSING`) when gpt-tokenizer, an optional peer
 *   dependency, is not installed: `npm install gpt-tokenizer`.
 *
 * @example
 * ```ts
 * import { createTokenizerCounter } from 'ctxkit/tokenizer';
 *
 * const counter = createTokenizerCounter({ encoding: 'o200k_base', messageOverhead: 4 });
 * counter.count('hello world'); // 2
 * ```
 */
export function createTokenizerCounter(options: CreateTokenizerCounterOptions = {}): TokenCounter {
  const parsed = parseCounterOptions(options, 'createTokenizerCounter');
  if (!canLoadSync(parsed.encoding)) {
    throw new ConfigError({
      message:
        `createTokenizerCounter cannot load the ${parsed.encoding} tokenizer synchronously in this runtime. ` +
        `Use \`await loadTokenizerCounter({ encoding: '${parsed.encoding}' })\` instead.`,
      field: 'encoding',
    });
  }
  return counterFor(parsed);
}
