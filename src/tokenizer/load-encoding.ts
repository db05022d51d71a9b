import { ConfigError, ContextError } from '../errors.js';
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

/** What an encoder is built from: gpt-tokenizer's rank table and split pattern for one encoding. */
interface EncodingData {
  ranks: Ranks;
  pattern: RegExp;
}

/** The rank tables loaded so far; each is parsed once, the first time an encoding is asked for. */
const loadedRanks = new Map<TokenizerEncoding, EncodingData>();

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

/** The split patterns module of gpt-tokenizer (`gpt-tokenizer/encodingParams/constants`). */
interface SplitPatterns {
  CL100K_TOKEN_SPLIT_REGEX: RegExp;
  O200K_TOKEN_SPLIT_REGEX: RegExp;
}

/**
 * Whether `error` says a module could not be found: Node's CommonJS and ESM codes, or a module
 * loader's words; a loader that wraps the failure (as test runners and bundlers' runtimes do) keeps
 * it as the `cause`, which is followed a few levels down.
 */
function isNotFound(error: unknown): boolean {
  let current = error as { code?: unknown; message?: unknown; cause?: unknown } | null | undefined;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    if (current.code === 'MODULE_NOT_FOUND' || current.code === 'ERR_MODULE_NOT_FOUND') return true;
    if (/cannot find (module|package)|failed to resolve/i.test(String(current.message))) return true;
    current = current.cause as typeof current;
  }
  return false;
}

/**
 * Runs `load` (which reads gpt-tokenizer) and turns "module not found" into the error that says how
 * to install it: gpt-tokenizer is an optional peer dependency of ctxkit, needed by this entry only.
 */
function fromGptTokenizer<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    throw isNotFound(error) ? missingTokenizer(error) : error;
  }
}

/** The `DEPENDENCY_MISSING` error of this entry when gpt-tokenizer is not installed. */
function missingTokenizer(cause: unknown): ContextError {
  return new ContextError({
    message:
      "ctxkit/tokenizer counts with gpt-tokenizer, an optional peer dependency that is not installed: run `npm install gpt-tokenizer` (or count without it with ctxkit's approximateCounter).",
    code: 'DEPENDENCY_MISSING',
    cause,
  });
}

function encodingData(encoding: TokenizerEncoding, ranksModule: unknown, patternsModule: unknown): EncodingData {
  const ranks = (ranksModule as { default?: unknown }).default ?? ranksModule;
  if (!Array.isArray(ranks)) throw new Error('gpt-tokenizer returned no rank table');
  const patterns = patternsModule as SplitPatterns;
  const pattern = encoding === 'o200k_base' ? patterns.O200K_TOKEN_SPLIT_REGEX : patterns.CL100K_TOKEN_SPLIT_REGEX;
  if (!(pattern instanceof RegExp)) throw new Error('gpt-tokenizer returned no split pattern');
  return { ranks: ranks as Ranks, pattern };
}

/** Loads one rank table synchronously (the first time), or fails with what to do instead. */
function loadRanksSync(encoding: TokenizerEncoding): EncodingData {
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
  const data = fromGptTokenizer(() =>
    encodingData(
      encoding,
      encoding === 'o200k_base'
        ? load('gpt-tokenizer/bpeRanks/o200k_base')
        : load('gpt-tokenizer/bpeRanks/cl100k_base'),
      load('gpt-tokenizer/encodingParams/constants'),
    ),
  );
  loadedRanks.set(encoding, data);
  return data;
}

/** Loads one rank table with a dynamic `import()`, which every runtime and bundler supports. @internal */
export async function loadRanks(encoding: TokenizerEncoding): Promise<void> {
  if (loadedRanks.has(encoding)) return;
  let modules: [unknown, unknown];
  try {
    modules = await Promise.all([
      encoding === 'o200k_base'
        ? import('gpt-tokenizer/bpeRanks/o200k_base')
        : import('gpt-tokenizer/bpeRanks/cl100k_base'),
      import('gpt-tokenizer/encodingParams/constants'),
    ]);
  } catch (error) {
    throw isNotFound(error) ? missingTokenizer(error) : error;
  }
  if (!loadedRanks.has(encoding)) loadedRanks.set(encoding, encodingData(encoding, ...modules));
}

/**
 * The shared count function of an encoding, built on first use from its rank table (loaded
 * synchronously if no one loaded it before) and gpt-tokenizer's split pattern for it. @internal
 */
export function getEncoder(encoding: TokenizerEncoding): CountTokens {
  let encoder = encoders.get(encoding);
  if (encoder === undefined) {
    const { ranks, pattern } = loadRanksSync(encoding);
    encoder = createBytePairCounter(ranks, pattern);
    encoders.set(encoding, encoder);
  }
  return encoder;
}
