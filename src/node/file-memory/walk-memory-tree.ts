// Descriptor-relative path walking: every step opens one name relative to a directory already open.

import { type FileHandle, lstat, mkdir, open, readdir } from 'node:fs/promises';
import type { StoreError } from '../../errors.js';
import { MEMORY_ROOT, resolveMemoryPath } from '../../memory/memory-paths.js';
import { errorCode, fail, isSpecial, linkRefusal, refuse, specialRefusal } from './file-memory-errors.js';
import { baseOf, DIRECTORY, type FileMemoryTree, type OpenDirectory, type ParentWalk } from './file-memory-tree.js';

/**
 * Opens the root: not a link, and the directory first used (recreated when deleted).
 *
 * @internal
 */
export async function openRoot(tree: FileMemoryTree): Promise<OpenDirectory> {
  let handle: FileHandle | undefined;
  let created = false;
  try {
    try {
      handle = await open(tree.rootPath, DIRECTORY);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
      await mkdir(tree.rootPath, { recursive: true, mode: 0o700 });
      created = true;
      handle = await open(tree.rootPath, DIRECTORY);
    }
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOTDIR' && code !== 'ELOOP') {
      throw fail(`the memory directory could not be opened (${code})`, error);
    }
  }
  if (handle !== undefined) {
    const info = await handle.stat();
    const identity = tree.identity;
    if (identity === undefined || created || (identity.dev === info.dev && identity.ino === info.ino)) {
      if (identity === undefined || created) tree.identity = { dev: info.dev, ino: info.ino };
      return { handle, base: baseOf(tree, handle, tree.rootPath), virtual: MEMORY_ROOT };
    }
    await handle.close();
  }
  throw fail('the memory directory was moved or replaced (it is now a link, or another directory); refusing to use it');
}

/** Classifies a name that could not be opened as a directory (for the message only). */
async function notADirectory(parent: OpenDirectory, name: string, path: string): Promise<StoreError | 'file'> {
  const virtual = `${parent.virtual}/${name}`;
  const info = await lstat(`${parent.base}/${name}`).catch(() => undefined);
  if (info?.isSymbolicLink()) return linkRefusal(path, virtual);
  if (info?.isFile()) return 'file';
  if (info && isSpecial(info)) return specialRefusal(path, virtual);
  return fail(`${virtual} changed while it was opened; try again`);
}

/**
 * Opens the directory `name` inside `parent`, never through a link: `'missing'` when it is missing,
 * `'file'` when it is a file; links and special files are refused.
 *
 * @internal
 */
export async function openChild(
  tree: FileMemoryTree,
  parent: OpenDirectory,
  name: string,
  path: string,
): Promise<OpenDirectory | 'missing' | 'file'> {
  const host = `${parent.base}/${name}`;
  const virtual = `${parent.virtual}/${name.normalize('NFC')}`;
  let handle: FileHandle;
  try {
    handle = await open(host, DIRECTORY);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') return 'missing';
    if (code === 'ENOTDIR' || code === 'ELOOP') {
      const why = await notADirectory(parent, name, path);
      if (why === 'file') return 'file';
      throw why;
    }
    throw fail(`${virtual} could not be opened (${code})`, error);
  }
  if (!tree.descriptors) {
    // Path-based checks: the name still leads to the directory just opened, not through a link.
    const [opened, named] = await Promise.all([handle.stat(), lstat(host).catch(() => undefined)]);
    if (named === undefined || named.isSymbolicLink() || named.dev !== opened.dev || named.ino !== opened.ino) {
      await handle.close();
      throw refuse(`${path} changed while it was opened (a link may have been swapped in); refusing to use it`);
    }
  }
  return { handle, base: baseOf(tree, handle, host), virtual };
}

/**
 * The names of a normalised memory path below the root; refuses anything else.
 *
 * @internal
 */
export function segments(path: string): readonly string[] {
  const resolved = resolveMemoryPath(path);
  if (!resolved.ok || resolved.path !== path) {
    throw refuse(resolved.ok ? `${path} is not a normalised memory path` : resolved.reason);
  }
  return resolved.segments;
}

/**
 * Walks to the parent directory of `path` (which must not be the root), opening each directory
 * relative to the one before and closing the one before; with `create`, makes missing directories.
 * The caller closes `parent.handle`.
 *
 * @internal
 */
export async function walkToParent(tree: FileMemoryTree, path: string, create: boolean): Promise<ParentWalk> {
  const names = segments(path);
  let current = await openRoot(tree);
  try {
    for (const segment of names.slice(0, -1)) {
      const name = await onDiskName(current, segment);
      let next = await openChild(tree, current, name, path);
      if (next === 'missing' && create) {
        try {
          await mkdir(`${current.base}/${name}`, { mode: 0o700 });
        } catch (error) {
          if (errorCode(error) !== 'EEXIST') {
            throw fail(`${current.virtual}/${name} could not be created (${errorCode(error)})`, error);
          }
        }
        next = await openChild(tree, current, name, path);
      }
      if (next === 'missing') {
        await current.handle.close();
        return { kind: 'missing' };
      }
      if (next === 'file') {
        if (create) throw fail(`cannot create ${path}: ${current.virtual}/${name} is a file`);
        await current.handle.close();
        return { kind: 'file-ancestor', ancestor: `${current.virtual}/${name}` };
      }
      await current.handle.close();
      current = next;
    }
  } catch (error) {
    await current.handle.close();
    throw error;
  }
  try {
    return { kind: 'open', parent: current, name: await onDiskName(current, names[names.length - 1]!) };
  } catch (error) {
    await current.handle.close();
    throw error;
  }
}

/**
 * The name under which `name` (NFC, as every memory path is) stands in `directory` on disk: itself
 * when it is there, else the one entry whose NFC form it is (a name written in NFD, as macOS and
 * some archive tools write them), else itself (for a name about to be created). Names on disk are
 * compared as bytes, so without this a file named in NFD could be neither seen nor reached.
 *
 * @internal
 */
async function onDiskName(directory: OpenDirectory, name: string): Promise<string> {
  const present = await lstat(`${directory.base}/${name}`).then(
    () => true,
    (error: unknown) => errorCode(error) !== 'ENOENT',
  );
  if (present) return name;
  const entries = await readdir(directory.base).catch(() => [] as string[]);
  return entries.find((entry) => entry !== name && entry.normalize('NFC') === name) ?? name;
}

/**
 * Runs `task` on the open parent of `path`, closing it afterwards; `otherwise` when the walk did not
 * reach an open parent.
 *
 * @internal
 */
export async function inParent<T>(
  tree: FileMemoryTree,
  path: string,
  create: boolean,
  task: (parent: OpenDirectory, name: string) => Promise<T>,
  otherwise: (walk: Exclude<ParentWalk, { kind: 'open' }>) => T,
): Promise<T> {
  const walk = await walkToParent(tree, path, create);
  if (walk.kind !== 'open') return otherwise(walk);
  try {
    return await task(walk.parent, walk.name);
  } finally {
    await walk.parent.handle.close();
  }
}

/**
 * Opens the directory at `path` itself (the root included).
 *
 * @internal
 */
export async function openDirectoryAt(tree: FileMemoryTree, path: string): Promise<OpenDirectory> {
  if (path === MEMORY_ROOT) {
    segments(path);
    return openRoot(tree);
  }
  return inParent(
    tree,
    path,
    false,
    async (parent, name) => {
      const opened = await openChild(tree, parent, name, path);
      if (opened === 'missing' || opened === 'file') throw fail(`${path} is not a directory`);
      return opened;
    },
    () => {
      throw fail(`${path} is not a directory`);
    },
  );
}
