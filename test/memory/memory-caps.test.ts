/**
 * Caps that hold whatever a host planted in the memory directory: a huge file is read only up to the
 * file cap, directories count against their own cap and are pruned when emptied, and every count or
 * listing stops at its cap.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createInMemoryMemoryStore,
  createMemoryTool,
  type MemoryEntry,
  type MemoryListOptions,
  type MemoryStore,
} from '../../src/memory/index.js';
import { createFileMemoryStore } from '../../src/node/index.js';

/** Wraps a store, counting the entries its `list` returns and the bytes its `read` returns. */
function metered(store: MemoryStore) {
  const meter = { listed: 0, readBytes: 0 };
  const wrapped: MemoryStore = {
    ...store,
    async list(path: string, options?: MemoryListOptions) {
      const children = await store.list(path, options);
      meter.listed += children.length;
      return children;
    },
    async read(path, options) {
      const text = await store.read(path, options);
      meter.readBytes += Buffer.byteLength(text);
      return text;
    },
  };
  return { store: wrapped, meter };
}

/**
 * Wraps a store so each listing gives the entries of one kind first (a disk lists files in the order
 * they were made, tmpfs the newest first), then cuts it to the limit as a store does.
 */
function listedFirst(store: MemoryStore, kind: MemoryEntry['kind']): MemoryStore {
  return {
    ...store,
    async list(path: string, options?: MemoryListOptions) {
      const children = await store.list(path);
      const ordered = [...children.filter((child) => child.kind === kind), ...children.filter((c) => c.kind !== kind)];
      return ordered.slice(0, options?.limit ?? Number.POSITIVE_INFINITY);
    },
  };
}

describe('memory caps on a planted directory', () => {
  let base: string;
  let root: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'ctxkit-memory-caps-'));
    root = join(base, 'memories');
    await mkdir(root);
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  /** Plants empty files `f0.md`… and directories `d0`… in the root (synchronously: thousands of them, the setup only). */
  function plant(files: number, directories: number): void {
    for (let index = 0; index < files; index++) writeFileSync(join(root, `f${index}.md`), '');
    for (let index = 0; index < directories; index++) mkdirSync(join(root, `d${index}`));
  }

  // 16 MB, 160 times the cap: reading it whole (as a 140 MB file once showed) would pass the meter's bound.
  it('views a 16 MB file of newlines by reading only the file cap, and says what was cut', async () => {
    await writeFile(join(root, 'huge.md'), Buffer.alloc(16 * 1024 * 1024, '\n'));
    const { store, meter } = metered(createFileMemoryStore({ directory: root }));
    const memory = createMemoryTool({ store });
    const result = await memory.execute({ command: 'view', path: '/memories/huge.md' });
    expect(result).toEqual({ content: expect.stringContaining('only its first 102400 bytes were read') });
    expect(meter.readBytes).toBeLessThanOrEqual(102_400);
    if ('content' in result) expect(result.content.length).toBeLessThanOrEqual(20_000);
    const later = await memory.execute({ command: 'view', path: '/memories/huge.md', view_range: [90_000, 90_002] });
    expect(later).toEqual({ content: expect.stringContaining(' 90002\t') });
    expect(
      await memory.execute({ command: 'insert', path: '/memories/huge.md', insert_line: 0, insert_text: 'x' }),
    ).toEqual({
      error: expect.stringMatching(/over the limit of 102400 bytes per memory file, so it cannot be edited/),
    });
  });

  it.each(['file', 'directory'] as const)(
    'stops counting and listing at the caps however many entries were planted (%s entries listed first)',
    async (first) => {
      plant(1000, 1000);
      const { store, meter } = metered(listedFirst(createFileMemoryStore({ directory: root }), first));
      const memory = createMemoryTool({ store, maxFiles: 100, maxDirectories: 100 });
      const view = await memory.execute({ command: 'view', path: '/memories' });
      expect(view).toEqual({ content: expect.stringContaining('[stopped after 200 entries') });
      expect(meter.listed).toBeLessThanOrEqual(201);
      meter.listed = 0;
      expect(await memory.execute({ command: 'create', path: '/memories/new.md', file_text: 'x' })).toEqual({
        error:
          first === 'file'
            ? expect.stringMatching(/already holds at least 100 files, the limit is 100/)
            : expect.stringMatching(/already holds at least 101 directories, over the limit of 100/),
      });
      expect(meter.listed).toBeLessThanOrEqual(202);
    },
  );

  it.each(['file', 'directory'] as const)(
    'counts the files past a full cap of directories (%s entries listed first)',
    async (first) => {
      plant(1000, 100);
      await writeFile(join(root, 'd0', 'inner.md'), '');
      const { store, meter } = metered(listedFirst(createFileMemoryStore({ directory: root }), first));
      const memory = createMemoryTool({ store, maxFiles: 100, maxDirectories: 100 });
      expect(await memory.execute({ command: 'create', path: '/memories/new.md', file_text: 'x' })).toEqual({
        error: expect.stringMatching(/already holds at least 100 files, the limit is 100/),
      });
      expect(meter.listed).toBeLessThanOrEqual(202);
      expect(await memory.execute({ command: 'delete', path: '/memories/d0' })).toEqual({
        content: 'Deleted the directory /memories/d0 and the 1 file in it',
      });
    },
  );
});

describe.each([
  ['in-memory store', async () => createInMemoryMemoryStore()],
  [
    'file store',
    async () => createFileMemoryStore({ directory: join(await mkdtemp(join(tmpdir(), 'ctxkit-memory-dirs-')), 'm') }),
  ],
])('directory cap and pruning (%s)', (_name, makeStore) => {
  it('counts directories against maxDirectories, for create and rename', async () => {
    const memory = createMemoryTool({ store: await makeStore(), maxDirectories: 3 });
    expect(await memory.execute({ command: 'create', path: '/memories/a/b/c/x.md', file_text: 'x' })).toHaveProperty(
      'content',
    );
    expect(await memory.execute({ command: 'create', path: '/memories/d/y.md', file_text: 'y' })).toEqual({
      error: expect.stringMatching(
        /already holds (at least )?3 directories and \/memories\/d\/y\.md would add 1, the limit is 3/,
      ),
    });
    expect(await memory.execute({ command: 'create', path: '/memories/a/y.md', file_text: 'y' })).toHaveProperty(
      'content',
    );
    expect(
      await memory.execute({ command: 'rename', old_path: '/memories/a/y.md', new_path: '/memories/e/y.md' }),
    ).toEqual({
      error: expect.stringMatching(/would add 1, the limit is 3/),
    });
  });

  it('prunes directories a delete or rename leaves empty, never the root', async () => {
    const store = await makeStore();
    const memory = createMemoryTool({ store });
    await memory.execute({ command: 'create', path: '/memories/a/b/c/x.md', file_text: 'x' });
    await memory.execute({ command: 'create', path: '/memories/a/keep.md', file_text: 'k' });
    await memory.execute({ command: 'delete', path: '/memories/a/b/c/x.md' });
    expect(await store.stat('/memories/a/b')).toBeUndefined();
    expect(await store.stat('/memories/a')).toMatchObject({ kind: 'directory' });
    await memory.execute({ command: 'rename', old_path: '/memories/a/keep.md', new_path: '/memories/top.md' });
    expect(await store.stat('/memories/a')).toBeUndefined();
    await memory.execute({ command: 'delete', path: '/memories/top.md' });
    expect(await store.stat('/memories')).toMatchObject({ kind: 'directory' });
    expect(await store.list('/memories')).toEqual([]);
  });
});
