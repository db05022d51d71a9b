import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/index.js';
import { createMemoryTool, type MemoryToolResult } from '../../src/memory/index.js';
import { createFileMemoryStore } from '../../src/node/index.js';
import { HOSTILE_PATHS, runMemoryStoreConformance } from './conformance.js';

/** A tmp dir holding the memory root and a sibling sentinel directory that must stay as it is. */
async function makeLayout() {
  const base = await mkdtemp(join(tmpdir(), 'ctxkit-memory-'));
  const root = join(base, 'memories');
  const sentinel = join(base, 'sentinel');
  await mkdir(sentinel);
  await writeFile(join(sentinel, 'secret.txt'), 'secret');
  return { base, root, sentinel };
}

/** Every path under `directory` with the content of its files, for before/after comparisons. */
async function snapshot(directory: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of (await readdir(directory)).sort()) {
    const path = join(directory, name);
    const info = await lstat(path);
    if (info.isDirectory()) found.push(`${name}/`, ...(await snapshot(path)).map((inner) => `${name}/${inner}`));
    else if (info.isSymbolicLink()) found.push(`${name} -> link`);
    else found.push(`${name}: ${await readFile(path, 'utf8')}`);
  }
  return found;
}

/** What lies outside the root that was not there at the start. */
async function escaped(layout: { base: string; sentinel: string }): Promise<string[]> {
  const extra = (await readdir(layout.base)).filter((name) => name !== 'memories' && name !== 'sentinel');
  const sentinel = (await snapshot(layout.sentinel)).filter((line) => line !== 'secret.txt: secret');
  return [...extra, ...sentinel.map((line) => `sentinel/${line}`)];
}

runMemoryStoreConformance('file store', async () => {
  const layout = await makeLayout();
  return {
    store: createFileMemoryStore({ directory: layout.root }),
    outside: () => escaped(layout),
    cleanup: () => rm(layout.base, { recursive: true, force: true }),
  };
});

describe('file memory store on disk', () => {
  let layout: Awaited<ReturnType<typeof makeLayout>>;
  beforeEach(async () => {
    layout = await makeLayout();
  });
  afterEach(() => rm(layout.base, { recursive: true, force: true }));

  const tool = () => createMemoryTool({ store: createFileMemoryStore({ directory: layout.root }) });
  const isError = (result: MemoryToolResult) => 'error' in result;

  it('maps /memories onto the directory, creating it when missing', async () => {
    const memory = tool();
    expect(await memory.execute({ command: 'create', path: '/memories/a/b.md', file_text: 'hi' })).toHaveProperty(
      'content',
    );
    expect(await readFile(join(layout.root, 'a', 'b.md'), 'utf8')).toBe('hi');
    expect((await lstat(join(layout.root, 'a', 'b.md'))).mode & 0o777).toBe(0o600);
  });

  it('refuses a symlinked directory that leads outside, for reads and writes', async () => {
    await mkdir(layout.root);
    await symlink(layout.sentinel, join(layout.root, 'link'));
    const memory = tool();
    const calls = [
      { command: 'view', path: '/memories/link' },
      { command: 'view', path: '/memories/link/secret.txt' },
      { command: 'create', path: '/memories/link/new.txt', file_text: 'pwned' },
      { command: 'create', path: '/memories/link/deeper/new.txt', file_text: 'pwned' },
      { command: 'str_replace', path: '/memories/link/secret.txt', old_str: 'secret', new_str: 'pwned' },
      { command: 'insert', path: '/memories/link/secret.txt', insert_line: 0, insert_text: 'pwned' },
      { command: 'delete', path: '/memories/link/secret.txt' },
      { command: 'delete', path: '/memories/link' },
      { command: 'rename', old_path: '/memories/link/secret.txt', new_path: '/memories/stolen.txt' },
    ];
    for (const call of calls) {
      const result = await memory.execute(call);
      expect(isError(result), JSON.stringify(call)).toBe(true);
      expect(JSON.stringify(result)).not.toContain(layout.base);
    }
    await memory.execute({ command: 'create', path: '/memories/mine.txt', file_text: 'x' });
    const moved = await memory.execute({
      command: 'rename',
      old_path: '/memories/mine.txt',
      new_path: '/memories/link/x',
    });
    expect(isError(moved)).toBe(true);
    expect(await escaped(layout)).toEqual([]);
    const listing = await memory.execute({ command: 'view', path: '/memories' });
    expect(listing).toEqual({ content: expect.not.stringContaining('link') });
  });

  it('refuses a symlinked file and a dangling symlink that lead outside', async () => {
    await mkdir(layout.root);
    await symlink(join(layout.sentinel, 'secret.txt'), join(layout.root, 'file-link'));
    await symlink(join(layout.sentinel, 'created-by-write.txt'), join(layout.root, 'dangling'));
    const memory = tool();
    for (const call of [
      { command: 'view', path: '/memories/file-link' },
      { command: 'str_replace', path: '/memories/file-link', old_str: 'secret', new_str: 'pwned' },
      { command: 'insert', path: '/memories/file-link', insert_line: 1, insert_text: 'pwned' },
      { command: 'create', path: '/memories/dangling', file_text: 'pwned' },
      { command: 'view', path: '/memories/dangling' },
    ]) {
      expect(isError(await memory.execute(call)), JSON.stringify(call)).toBe(true);
    }
    expect(await escaped(layout)).toEqual([]);
  });

  it('follows symlinks that stay inside the root', async () => {
    await mkdir(join(layout.root, 'real'), { recursive: true });
    await writeFile(join(layout.root, 'real', 'notes.md'), 'inside');
    await symlink(join(layout.root, 'real'), join(layout.root, 'alias'));
    const memory = tool();
    expect(await memory.execute({ command: 'view', path: '/memories/alias/notes.md' })).toEqual({
      content: expect.stringContaining('1\tinside'),
    });
  });

  it('works when the root directory itself is reached through a symlink', async () => {
    await mkdir(layout.root);
    const alias = join(layout.base, 'alias-root');
    await symlink(layout.root, alias);
    const memory = createMemoryTool({ store: createFileMemoryStore({ directory: alias }) });
    await memory.execute({ command: 'create', path: '/memories/x.md', file_text: 'x' });
    expect(await readFile(join(layout.root, 'x.md'), 'utf8')).toBe('x');
  });

  it('rejects a missing directory option with a ConfigError', () => {
    expect(() => createFileMemoryStore({ directory: '' })).toThrow(ConfigError);
  });

  const segment = fc.oneof(
    { arbitrary: fc.constantFrom('link', 'file-link', 'dangling'), weight: 3 },
    { arbitrary: fc.constantFrom('a', 'b.md', 'secret.txt', 'sentinel'), weight: 3 },
    { arbitrary: fc.constantFrom('..', '.', '%2e%2e', '', 'a\\..'), weight: 1 },
  );
  const path = fc.oneof(
    { arbitrary: fc.constantFrom(...HOSTILE_PATHS), weight: 2 },
    {
      arbitrary: fc.constantFrom(
        '/memories/link/x.md',
        '/memories/link/secret.txt',
        '/memories/link/new/deep.md',
        '/memories/file-link',
        '/memories/dangling',
      ),
      weight: 3,
    },
    { arbitrary: fc.array(segment, { maxLength: 4 }).map((names) => ['/memories', ...names].join('/')), weight: 6 },
    { arbitrary: fc.array(segment, { minLength: 1, maxLength: 4 }).map((names) => names.join('/')), weight: 1 },
    { arbitrary: fc.string({ maxLength: 30 }), weight: 1 },
  );
  const text = fc.string({ maxLength: 20 });
  const call = fc.oneof(
    fc.record({ command: fc.constant('view'), path }),
    fc.record({ command: fc.constant('create'), path, file_text: text }),
    fc.record({ command: fc.constant('str_replace'), path, old_str: text, new_str: text }),
    fc.record({
      command: fc.constant('insert'),
      path,
      insert_line: fc.integer({ min: -1, max: 3 }),
      insert_text: text,
    }),
    fc.record({ command: fc.constant('delete'), path }),
    fc.record({ command: fc.constant('rename'), old_path: path, new_path: path }),
    fc.anything(),
  );

  test.prop([fc.array(call, { minLength: 1, maxLength: 30 })], { numRuns: 80 })(
    'random command sequences never touch anything outside the root and never throw',
    async (calls) => {
      const run = await makeLayout();
      try {
        await mkdir(run.root);
        await symlink(run.sentinel, join(run.root, 'link'));
        await symlink(join(run.sentinel, 'secret.txt'), join(run.root, 'file-link'));
        await symlink(join(run.sentinel, 'made.txt'), join(run.root, 'dangling'));
        const memory = createMemoryTool({ store: createFileMemoryStore({ directory: run.root }) });
        for (const input of calls) {
          const result = await memory.execute(input);
          expect(typeof ('error' in result ? result.error : result.content)).toBe('string');
        }
        expect(await escaped(run)).toEqual([]);
      } finally {
        await rm(run.base, { recursive: true, force: true });
      }
    },
  );
});
