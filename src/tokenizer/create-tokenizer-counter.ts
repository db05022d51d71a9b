import cl100kRanks from 'gpt-tokenizer/bpeRanks/cl100k_base';
import o200kRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { GptEncoding } from 'gpt-tokenizer/GptEncoding';
import { z } from 'zod';
import { ConfigError, firstIssue } from '../errors.js';
import { IMAGE_TOKENS, type TokenCounter } from '../token-counter.js';

/**
 * The OpenAI encodings an exact counter can use: `o200k_base` (GPT-4o, GPT-4.1, GPT-5, the o-series)
 * and `cl100k_base` (GPT-4, GPT-3.5).
 */
export type TokenizerEncoding = 'o200k_base' | 'cl100k_base';

/** Options of {@link createTokenizerCounter}. */
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

const optionsSchema = z.strictObject({
  encoding: z.enum(['o200k_base', 'cl100k_base']).optional(),
  imageTokens: z.number().finite().nonnegative().optional(),
  messageOverhead: z.number().finite().nonnegative().optional(),
});

/**
 * The rank tables. They are imported statically so that counting stays synchronous in the ESM and
 * the CommonJS builds, under bundlers and on every runtime (a lazy `require` would need
 * `createRequire` and `import.meta.url`, which neither browsers nor the CommonJS build provide).
 * Importing `ctxkit/tokenizer` therefore parses both tables (about 0.2 s and 17 MB of heap on
 * Node 20); building an encoder from its table (another 0.05–0.1 s and 4–8 MB) waits for its first
 * count. The root entry never imports this module.
 */
const ranks: Record<TokenizerEncoding, (string | number[])[]> = {
  o200k_base: o200kRanks,
  cl100k_base: cl100kRanks,
};

/** One encoder per encoding, shared by every counter that uses it. */
const encoders = new Map<TokenizerEncoding, GptEncoding>();

/** Special-token text such as `<|endoftext|>` is counted as the plain text it is, never thrown on. */
const plainText = Object.freeze({ disallowedSpecial: new Set<string>() });

function getEncoder(encoding: TokenizerEncoding): GptEncoding {
  let encoder = encoders.get(encoding);
  if (encoder === undefined) {
    encoder = GptEncoding.getEncodingApi(encoding, () => ranks[encoding]);
    encoders.set(encoding, encoder);
  }
  return encoder;
}

/**
 * An exact token counter for an OpenAI encoding, on gpt-tokenizer. The encoder is built the first
 * time the counter counts (about 0.1 s for `o200k_base`, 0.05 s for `cl100k_base`) and then shared
 * by every counter of that encoding. Text that looks like a special token (`<|endoftext|>`,
 * `<|im_start|>`) is counted as the plain text it is, as a provider counts it inside a message, so
 * `count` never throws.
 *
 * Create one counter per configuration and keep it: counters are cache keys for per-message counts.
 *
 * @param options - The encoding, the image cost and the per-message overhead.
 * @returns A synchronous {@link TokenCounter} with `exact: true`, named after its encoding.
 * @throws `ConfigError` (from `ctxkit`) naming the field when an option is unknown, negative or not finite.
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
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    const { field, detail } = firstIssue(parsed.error, '(options)');
    throw new ConfigError(
      `Invalid createTokenizerCounter options: ${field} ${detail}. ` +
        "Use encoding 'o200k_base' or 'cl100k_base' and non-negative numbers.",
      field,
      parsed.error,
    );
  }
  const { encoding = 'o200k_base', imageTokens = IMAGE_TOKENS, messageOverhead = 0 } = parsed.data;
  return Object.freeze({
    name: encoding,
    exact: true,
    imageTokens,
    messageOverhead,
    count: (text: string) => (text.length === 0 ? 0 : getEncoder(encoding).countTokens(text, plainText)),
  });
}
