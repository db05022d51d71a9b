import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, ContextError } from '../../src/index.js';

// Records which rank tables are evaluated through an `import` (static or dynamic). A module that
// imported both tables statically, as `ctxkit/tokenizer` once did, records both as soon as it loads.
const evaluated = vi.hoisted(() => [] as string[]);
vi.mock('gpt-tokenizer/bpeRanks/o200k_base', async (importOriginal) => {
  evaluated.push('o200k_base');
  return importOriginal();
});
vi.mock('gpt-tokenizer/bpeRanks/cl100k_base', async (importOriginal) => {
  evaluated.push('cl100k_base');
  return importOriginal();
});

/** A fresh copy of the tokenizer modules, with nothing loaded yet. */
async function freshTokenizer() {
  vi.resetModules();
  const entry = await import('../../src/tokenizer/index.js');
  const state = await import('../../src/tokenizer/load-encoding.js');
  return { ...entry, loadedEncodings: state.loadedEncodings };
}

describe('ctxkit/tokenizer loads lazily', () => {
  beforeEach(() => {
    evaluated.length = 0;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('loads no rank table on import', async () => {
    const { loadedEncodings } = await freshTokenizer();
    expect(evaluated).toEqual([]);
    expect(loadedEncodings()).toEqual([]);
  });

  it('loads only the encoding a counter asks for, when it first counts', async () => {
    const { createTokenizerCounter, loadedEncodings } = await freshTokenizer();
    const counter = createTokenizerCounter({ encoding: 'o200k_base' });
    expect(loadedEncodings()).toEqual([]);
    expect(counter.count('hello world')).toBe(2);
    expect(counter.count('<|endoftext|>')).toBe(7);
    expect(loadedEncodings()).toEqual(['o200k_base']);
    expect(evaluated).not.toContain('cl100k_base');
  });

  it('loadTokenizerCounter imports only its table, and then sync counters of it need no loader', async () => {
    const { loadTokenizerCounter, createTokenizerCounter, loadedEncodings } = await freshTokenizer();
    const counter = await loadTokenizerCounter({ encoding: 'cl100k_base', messageOverhead: 3 });
    expect(evaluated).toEqual(['cl100k_base']);
    expect(loadedEncodings()).toEqual(['cl100k_base']);
    expect(counter).toMatchObject({ name: 'cl100k_base', exact: true, imageTokens: 1200, messageOverhead: 3 });
    expect(counter.count('hello world')).toBe(2);
    expect(counter.count('<|endoftext|>')).toBe(7);
    // A runtime without a synchronous loader can still create counters of a loaded encoding.
    vi.stubGlobal('process', { ...process, getBuiltinModule: undefined });
    expect(createTokenizerCounter({ encoding: 'cl100k_base' }).count('hello world')).toBe(2);
  });

  it('says to use loadTokenizerCounter where a table cannot be loaded synchronously', async () => {
    const { createTokenizerCounter, loadTokenizerCounter } = await freshTokenizer();
    vi.stubGlobal('process', { ...process, getBuiltinModule: undefined });
    try {
      createTokenizerCounter({ encoding: 'o200k_base' });
      expect.unreachable();
    } catch (caught) {
      expect(ConfigError.isInstance(caught)).toBe(true);
      expect((caught as ConfigError).field).toBe('encoding');
      expect((caught as Error).message).toMatch(/loadTokenizerCounter/);
    }
    expect((await loadTokenizerCounter()).count('hello world')).toBe(2);
  });

  it('rejects invalid options of loadTokenizerCounter with a ConfigError', async () => {
    const { loadTokenizerCounter } = await freshTokenizer();
    await expect(loadTokenizerCounter({ imageTokens: -1 })).rejects.toMatchObject({ field: 'imageTokens' });
  });
});

/** The error Node gives for a package that is not installed. */
function notFound(id: string, code: string): Error {
  return Object.assign(new Error(`Cannot find package '${id}'`), { code });
}

// gpt-tokenizer is an optional peer dependency: a host that did not install it can import the
// entry, and learns what to install when a counter first needs the package.
describe('ctxkit/tokenizer without gpt-tokenizer installed', () => {
  afterEach(() => {
    vi.doUnmock('gpt-tokenizer/encodingParams/constants');
    vi.unstubAllGlobals();
  });

  function expectMissing(caught: unknown) {
    expect(ContextError.isInstance(caught)).toBe(true);
    expect((caught as ContextError).code).toBe('DEPENDENCY_MISSING');
    expect((caught as Error).message).toContain('gpt-tokenizer');
    expect((caught as Error).message).toContain('npm install gpt-tokenizer');
    expect(String((caught as Error).cause)).toMatch(/mock|Cannot find/);
  }

  it('imports, and loadTokenizerCounter rejects with DEPENDENCY_MISSING and the install command', async () => {
    // The package does not resolve, as Node fails an import of a package that is not there.
    vi.doMock('gpt-tokenizer/encodingParams/constants', () => {
      throw notFound('gpt-tokenizer', 'ERR_MODULE_NOT_FOUND');
    });
    const { loadTokenizerCounter } = await freshTokenizer();
    const caught = await loadTokenizerCounter({ encoding: 'o200k_base' }).catch((error: unknown) => error);
    expectMissing(caught);
  });

  it('createTokenizerCounter throws the same error when its first count cannot require the package', async () => {
    const { createTokenizerCounter } = await freshTokenizer();
    // A synchronous require that finds nothing, as Node's createRequire does without the package.
    const require = (id: string) => {
      throw notFound(id, 'MODULE_NOT_FOUND');
    };
    vi.stubGlobal('process', {
      ...process,
      getBuiltinModule: (id: string) => (id === 'node:module' ? { createRequire: () => require } : undefined),
    });
    const counter = createTokenizerCounter({ encoding: 'cl100k_base' });
    let caught: unknown;
    try {
      counter.count('hello world');
    } catch (error) {
      caught = error;
    }
    expectMissing(caught);
  });
});
