import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { MEMORY_ROOT } from '../../memory/memory-paths.js';
import type { MemoryEntry } from '../../memory/memory-store.js';
import { errorCode, fail, isSpecial, linkRefusal, specialRefusal } from './file-memory-errors.js';
import type { FileMemoryTree, OpenDirectory } from './file-memory-tree.js';
import { inParent, openRoot, segments } from './walk-memory-tree.js';

/**
 * `lstat` of `name` in `parent` (never following a link): undefined when it is missing.
 *
 * @internal
 */
export async function lstatIn(parent: OpenDirectory, name: string, path: string): Promise<Stats | undefined> {
  try {
    return await lstat(`${parent.base}/${name}`);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw fail(`${path} could not be checked (${code})`, error);
  }
}

/**
 * The entry for `name` in `parent`: refuses links and special files.
 *
 * @internal
 */
export async function entryIn(parent: OpenDirectory, name: string, path: string): Promise<MemoryEntry | undefined> {
  const info = await lstatIn(parent, name, path);
  if (info === undefined) return undefined;
  if (info.isSymbolicLink()) throw linkRefusal(path, path);
  if (isSpecial(info)) throw specialRefusal(path, path);
  return info.isDirectory() ? { path, kind: 'directory', size: 0 } : { path, kind: 'file', size: info.size };
}

/**
 * The store's `stat`: the entry at `path`, or undefined when it (or an ancestor directory) is missing.
 *
 * @internal
 */
export async function statEntry(tree: FileMemoryTree, path: string): Promise<MemoryEntry | undefined> {
  if (path === MEMORY_ROOT) {
    segments(path);
    await (await openRoot(tree)).handle.close();
    return { path, kind: 'directory', size: 0 };
  }
  return inParent(
    tree,
    path,
    false,
    (parent, name) => entryIn(parent, name, path),
    () => undefined,
  );
}
