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

  it('keeps its definition frozen and its JSON schema as strict as the zod schema', () => {
    expect(Object.isFrozen(memoryToolDefinition)).toBe(true);
    expect(Object.isFrozen(memoryInputJsonSchema)).toBe(true);
    expect(Object.isFrozen(memoryInputJsonSchema.properties.path)).toBe(true);
    expect(Object.isFrozen(memoryInputJsonSchema.properties.command.enum)).toBe(true);
    const { properties } = memoryInputJsonSchema;
    for (const field of ['path', 'old_path', 'new_path', 'old_str'] as const) {
      expect(properties[field], field).toMatchObject({ minLength: 1 });
    }
    expect(properties.view_range.items).toMatchObject({ type: 'integer', minimum: -1 });
    expect(properties.insert_line).toMatchObject({ minimum: 0 });
  });

  it("uses the store's runExclusive, when it has one, around each whole command", async () => {
    const inner = createInMemoryMemoryStore();
    const events: string[] = [];
    let depth = 0;
    const store: MemoryStore = {
      ...inner,
      async runExclusive<T>(task: () => Promise<T>): Promise<T> {
        events.push('enter');
        depth++;
        try {
          return await task();
        } finally {
          depth--;
          events.push('leave');
        }
      },
      async read(path) {
        expect(depth).toBe(1);
        return inner.read(path);
      },
    };
    const tool = createMemoryTool({ store });
    await tool.execute({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    expect(await tool.execute({ command: 'view', path: '/memories/a.md' })).toHaveProperty('content');
    expect(events).toEqual(['enter', 'leave', 'enter', 'leave']);
  });

  it('turns store failures and unexpected exceptions into one-line errors without stacks or host paths', async () => {
    const failures: Array<() => unknown> = [
      () => new StoreError({ message: '/memories/a.md could not be read (EIO)', code: 'STORE_FAILED' }),
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
    expect(await tool.execute(trap)).toEqual({
      error: expect.stringMatching(/^invalid memory call: the input could not be read/),
    });
    const getter = Object.defineProperty({ command: 'view' }, 'path', {
      enumerable: true,
      get() {
        throw new Error('getter');
      },
    });
    expect(await tool.execute(getter)).toEqual({ error: expect.not.stringMatching(/memory store failed/) });
    expect(await tool.execute({ command: 'view', path: { toString: () => '/memories' } })).toHaveProperty('error');
  });

  it('validates its caps and store with ConfigError', () => {
    const store = createInMemoryMemoryStore();
    expect(() => createMemoryTool({ store, maxFileBytes: 0 })).toThrow(ConfigError);
    expect(() => createMemoryTool({ store, maxFiles: 1.5 })).toThrow(
      'createMemoryTool: options.maxFiles must be a whole number ≥ 1 (got 1.5)',
    );
    expect(() => createMemoryTool({ store, maxViewCharacters: 10 })).toThrow(ConfigError);
    expect(() => createMemoryTool({ store, maxViewCharacters: 10 })).toThrow(
      'createMemoryTool: options.maxViewCharacters must be a whole number ≥ 1000 (got 10)',
    );
    expect(() => createMemoryTool({ store: { ...store, runExclusive: 1 } as unknown as MemoryStore })).toThrow(
      /runExclusive/,
    );
    expect(() => createMemoryTool({ store: {} as MemoryStore })).toThrow(
      /^createMemoryTool: options\.store must be a MemoryStore/,
    );
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
