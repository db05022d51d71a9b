/**
 * Check-then-use races in the file store, made deterministic: the store's own `open`, `mkdir` and
 * `opendir` calls are wrapped so a test can swap a name for a symbolic link at the exact moment
 * between the store's check and its use.
 */
import * as fs from 'node:fs/promises';
import { mkdir, mkdtemp, readFile, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryTool } from '../../src/memory/index.js';
import { createFileMemoryStore } from '../../src/node/index.js';

type Hook = (path: string) => Promise<void>;
const hooks: { open?: Hook; mkdir?: Hook; opendir?: Hook } = {};

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const wrap =
    <A extends unknown[], R>(name: keyof typeof hooks, original: (path: string, ...rest: A) => Promise<R>) =>
    async (path: string, ...rest: A): Promise<R> => {
      const hook = hooks[name];
      if (hook) {
        delete hooks[name];
        await hook(String(path));
      }
      return original(path, ...rest);
    };
  return {
    ...real,
    open: wrap('open', real.open as (path: string, ...rest: unknown[]) => Promise<fs.FileHandle>),
    mkdir: wrap('mkdir', real.mkdir as (path: string, ...rest: unknown[]) => Promise<string | undefined>),
    opendir: wrap('opendir', real.opendir as (path: string, ...rest: unknown[]) => Promise<import('node:fs').Dir>),
  };
});

describe('file memory store races', () => {
  let base: string;
  let root: string;
  let outside: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'ctxkit-memory-race-'));
    root = join(base, 'memories');
    outside = join(base, 'outside');
    await mkdir(join(root, 'd'), { recursive: true });
    await mkdir(outside);
    await writeFile(join(outside, 'secret.txt'), 'SECRET');
    await writeFile(join(root, 'f.md'), 'inside');
    await writeFile(join(root, 'd', 'secret.txt'), 'inside d');
  });
  afterEach(async () => {
    expect(hooks, 'every planted swap ran').toEqual({});
    delete hooks.open;
    delete hooks.mkdir;
    delete hooks.opendir;
    await rm(base, { recursive: true, force: true });
  });

  const tool = () => createMemoryTool({ store: createFileMemoryStore({ directory: root }) });
  /** Replaces `name` in the root by a symbolic link to `target`, keeping the original aside. */
  const swap = (name: string, target: string) => async () => {
    await rename(join(root, name), join(base, `${name}-aside`));
    await symlink(target, join(root, name));
  };
  const outsideNow = async () => (await fs.readdir(outside)).sort();

  it('a file swapped for a link after the check is not read (O_NOFOLLOW)', async () => {
    hooks.open = swap('f.md', join(outside, 'secret.txt'));
    const result = await tool().execute({ command: 'view', path: '/memories/f.md' });
    expect(result).toHaveProperty('error');
    expect(JSON.stringify(result)).not.toContain('SECRET');
  });

  it('a file swapped for a link after the check is not written', async () => {
    hooks.open = swap('f.md', join(outside, 'secret.txt'));
    const result = await tool().execute({
      command: 'insert',
      path: '/memories/f.md',
      insert_line: 0,
      insert_text: 'x',
    });
    expect(result).toHaveProperty('error');
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('SECRET');
  });

  it('a directory swapped for a link after the check is detected before anything is returned', async () => {
    hooks.open = swap('d', outside);
    const result = await tool().execute({ command: 'view', path: '/memories/d/secret.txt' });
    expect(result).toEqual({ error: expect.stringMatching(/symbolic link|changed/) });
    expect(JSON.stringify(result)).not.toContain('SECRET');
  });

  it('a directory swapped for a link after the check is detected before an existing file is changed', async () => {
    hooks.open = swap('d', outside);
    const result = await tool().execute({
      command: 'str_replace',
      path: '/memories/d/secret.txt',
      old_str: 'inside d',
      new_str: 'PWNED',
    });
    expect(result).toHaveProperty('error');
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('SECRET');
  });

  it('a new directory swapped for a link while parents are created is not written through', async () => {
    hooks.mkdir = async (path) => {
      if (!path.endsWith('new')) return;
      await mkdir(path);
      await rename(path, join(base, 'new-aside'));
      await symlink(outside, path);
    };
    const result = await tool().execute({ command: 'create', path: '/memories/new/x.md', file_text: 'PWNED' });
    expect(result).toHaveProperty('error');
    expect(await outsideNow()).toEqual(['secret.txt']);
  });

  it('a directory swapped for a link while it is listed still lists the directory that was opened', async () => {
    await writeFile(join(outside, 'outside-only.txt'), 'SECRET');
    hooks.opendir = swap('d', outside);
    const result = await tool().execute({ command: 'view', path: '/memories/d' });
    expect(JSON.stringify(result)).not.toContain('outside-only');
    expect(result).toEqual({ content: expect.stringContaining('/memories/d/secret.txt') });
    await unlink(join(root, 'd'));
  });
});
