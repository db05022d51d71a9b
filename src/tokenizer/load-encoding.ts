import { CL100K_TOKEN_SPLIT_REGEX, O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { ConfigError } from '../errors.js';
import { createBytePairCounter, type Ranks } from './byte-pair-counter.js';

/**
 * The OpenAI encodings an exact counter can use: `o200k_base` (GPT-4o, GPT-4.1, GPT-5, the o-series)
 * and `cl100k_base` (GPT-4, GPT-3.5).
 *
 * @example
 * ```ts
 * const encoding: TokenizerEncoding = model.startsWith('gpt-4-') ? 'cl100k_base' : 'o200k_base';
 * const counter = createTokenizerCounter({ encoding });
 * ```
 */
export type TokenizerEncoding = 'o200k_base' | 'cl100k_base';

/** The rank tables loaded so far; each is parsed once, the first time an encoding is asked for. */
const loadedRanks = new Map<TokenizerEncoding, Ranks>();

/** A function counting the tokens of a text. @internal */
export type CountTokens = (text: string) => number;

/** One count function per encoding, shared by every counter that uses it. */
const encoders = new Map<TokenizerEncoding, CountTokens>();

/** A Node `require`, made with `createRequire`. */
type RequireFunction = (id: string) => unknown;

/**
 * A synchronous `require` for the rank tables, made from `process.getBuiltinModule('node:module')`
 * (Node 20.16 and later, Bun) for this module's URL (which the CommonJS build shims). It needs no
 * `node:` import, which would break bundles for browsers, nor a free `require`, which the ESM build
 * cannot have. `undefined` elsewhere: browsers, Deno, earlier Node releases.
 */
function syncRequire(): RequireFunction | undefined {
  const nodeProcess = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const nodeModule = nodeProcess?.getBuiltinModule?.('node:module') as
    | { createRequire?: (from: string) => RequireFunction }
    | undefined;
  const from = import.meta.url;
  return typeof nodeModule?.createRequire === 'function' && typeof from === 'string'
    ? nodeModule.createRequire(from)
    : undefined;
}

/** The encodings whose rank table is loaded, for tests and diagnostics. @internal */
export function loadedEncodings(): TokenizerEncoding[] {
  return [...loadedRanks.keys()];
}

/** Whether `encoding` can be used synchronously now: loaded, or loadable with `require`. @internal */
export function canLoadSync(encoding: TokenizerEncoding): boolean {
  return loadedRanks.has(encoding) || syncRequire() !== undefined;
}

function ranksOf(module: unknown): Ranks {
  const ranks = (module as { default?: unknown }).default ?? module;
  if (!Array.isArray(ranks)) throw new Error('gpt-tokenizer returned no rank table');
  return ranks as Ranks;
}

/** Loads one rank table synchronously (the first time), or fails with what to do instead. */
function loadRanksSync(encoding: TokenizerEncoding): Ranks {
  const cached = loadedRanks.get(encoding);
  if (cached !== undefined) return cached;
  const load = syncRequire();
  if (load === undefined) {
    throw new ConfigError({
      message:
        `The ${encoding} tokenizer is not loaded and this runtime cannot load it synchronously. ` +
        `Use \`await loadTokenizerCounter({ encoding: '${encoding}' })\` from 'ctxkit/tokenizer' instead.`,
      field: 'encoding',
    });
  }
  // Literal specifiers, so that bundlers see which files are needed.
  const ranks = ranksOf(
    encoding === 'o200k_base' ? load('gpt-tokenizer/bpeRanks/o200k_base') : load('gpt-tokenizer/bpeRanks/cl100k_base'),
  );
  loadedRanks.set(encoding, ranks);
  return ranks;
}

/** Loads one rank table with a dynamic `import()`, which every runtime and bundler supports. @internal */
export async function loadRanks(encoding: TokenizerEncoding): Promise<void> {
  if (loadedRanks.has(encoding)) return;
  const module =
    encoding === 'o200k_base'
      ? await import('gpt-tokenizer/bpeRanks/o200k_base')
      : await import('gpt-tokenizer/bpeRanks/cl100k_base');
  if (!loadedRanks.has(encoding)) loadedRanks.set(encoding, ranksOf(module));
}

/**
 * The shared count function of an encoding, built on first use from its rank table (loaded
 * synchronously if no one loaded it before) and gpt-tokenizer's split pattern for it. @internal
 */
export function getEncoder(encoding: TokenizerEncoding): CountTokens {
  let encoder = encoders.get(encoding);
  if (encoder === undefined) {
    const ranks = loadRanksSync(encoding);
    encoder = createBytePairCounter(
      ranks,
      encoding === 'o200k_base' ? O200K_TOKEN_SPLIT_REGEX : CL100K_TOKEN_SPLIT_REGEX,
    );
    encoders.set(encoding, encoder);
  }
  return encoder;
}
