import { describe, expect, it } from 'vitest';
import { ConfigError, StoreError } from '../../src/index.js';
import {
  createInMemoryMemoryStore,
  createMemoryTool,
  MEMORY_COMMAND_NAMES,
  type MemoryStore,
  memoryInputJsonSchema,
  memoryToolDefinition,
  parseMemoryCommand,
  resolveMemoryPath,
} from '../../src/memory/index.js';

function brokenStore(failure: () => unknown): MemoryStore {
  const fail = async (): Promise<never> => {
    throw failure();
  };
  return { stat: fail, list: fail, read: fail, write: fail, delete: fail, rename: fail };
}

describe('createMemoryTool', () => {
  it('exposes the definition hosts hand to the model', () => {
    const tool = createMemoryTool({ store: createInMemoryMemoryStore() });
    expect(tool.name).toBe('memory');
    expect(tool.definition).toBe(memoryToolDefinition);
    expect(memoryToolDefinition.inputSchema).toBe(memoryInputJsonSchema);
    expect(memoryInputJsonSchema.properties.command.enum).toEqual([...MEMORY_COMMAND_NAMES]);
    expect(memoryToolDefinition.description).toContain('/memories');
  });

  it('turns store failures and unexpected exceptions into one-line errors without stacks or host paths', async () => {
    const failures: Array<() => unknown> = [
      () => new StoreError('/memories/a.md could not be read (EIO)', { code: 'STORE_FAILED' }),
      () => Object.assign(new Error("EACCES: permission denied, open '/home/user/secret'"), { code: 'EACCES' }),
      () => new TypeError('boom\n    at somewhere (file.ts:1:1)'),
      () => 'a string',
      () => null,
    ];
    for (const failure of failures) {
      const tool = createMemoryTool({ store: brokenStore(failure) });
      const result = await tool.execute({ command: 'view', path: '/memories/a.md' });
      expect(result).toHaveProperty('error');
      const message = 'error' in result ? result.error : '';
      expect(message).not.toMatch(/\n|\/home\/user|at somewhere/);
    }
    const tool = createMemoryTool({ store: brokenStore(failures[1]!) });
    expect(await tool.execute({ command: 'view', path: '/memories' })).toEqual({
      error: expect.stringMatching(/memory store failed \(EACCES\)/),
    });
  });

  it('survives hostile input objects', async () => {
    const tool = createMemoryTool({ store: createInMemoryMemoryStore() });
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
      },
    );
    expect(await tool.execute(trap)).toHaveProperty('error');
    expect(await tool.execute({ command: 'view', path: { toString: () => '/memories' } })).toHaveProperty('error');
  });

  it('validates its caps and store with ConfigError', () => {
    const store = createInMemoryMemoryStore();
    expect(() => createMemoryTool({ store, maxFileBytes: 0 })).toThrow(ConfigError);
    expect(() => createMemoryTool({ store, maxFiles: 1.5 })).toThrow(/maxFiles must be a positive integer/);
    expect(() => createMemoryTool({ store, maxViewCharacters: 10 })).toThrow(ConfigError);
    expect(() => createMemoryTool({ store: {} as MemoryStore })).toThrow(/store must be a MemoryStore/);
  });
});

describe('resolveMemoryPath', () => {
  it('normalises valid paths', () => {
    expect(resolveMemoryPath('/memories')).toEqual({ ok: true, path: '/memories', segments: [] });
    expect(resolveMemoryPath('/memories/')).toEqual({ ok: true, path: '/memories', segments: [] });
    expect(resolveMemoryPath('/memories/a/b.md')).toEqual({
      ok: true,
      path: '/memories/a/b.md',
      segments: ['a', 'b.md'],
    });
    expect(resolveMemoryPath('/memories/dir/')).toMatchObject({ ok: true, path: '/memories/dir' });
    expect(resolveMemoryPath('/memories/..hidden/100% done.md')).toMatchObject({ ok: true });
  });

  it('explains why a path is refused', () => {
    expect(resolveMemoryPath('/memories-evil/x')).toMatchObject({
      reason: expect.stringMatching(/start with \/memories\//),
    });
    expect(resolveMemoryPath('/memories/%252e%252e/x')).toMatchObject({ reason: expect.stringMatching(/traversal/) });
    expect(resolveMemoryPath('/memories/a\\b')).toMatchObject({ reason: expect.stringMatching(/backslash/) });
    expect(resolveMemoryPath('/memories/a\u0000')).toMatchObject({
      reason: expect.stringMatching(/control character/),
    });
  });
});

describe('parseMemoryCommand', () => {
  it('drops unknown keys and treats a null view_range as absent', () => {
    expect(parseMemoryCommand({ command: 'view', path: '/memories', view_range: null, file_text: null })).toEqual({
      ok: true,
      command: { command: 'view', path: '/memories', view_range: undefined },
    });
  });
});
