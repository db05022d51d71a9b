import { opendir, rmdir, unlink } from 'node:fs/promises';
import { StoreError } from '../../errors.js';
import { MEMORY_ROOT } from '../../memory/memory-paths.js';
import { errorCode, fail } from './file-memory-errors.js';
import type { FileMemoryTree, OpenDirectory } from './file-memory-tree.js';
import { entryIn } from './stat-entry.js';
import { inParent, openChild } from './walk-memory-tree.js';

/** Deletes everything inside `directory`, each step relative to an open directory. */
async function emptyDirectory(tree: FileMemoryTree, directory: OpenDirectory, path: string): Promise<void> {
  const names: string[] = [];
  try {
    for await (const child of await opendir(directory.base)) names.push(child.name);
  } catch (error) {
    throw fail(`${directory.virtual} could not be listed (${errorCode(error)})`, error);
  }
  for (const name of names) await removeIn(tree, directory, name, path);
}

/** Removes `name` from `parent`: a directory with its contents, anything else by unlinking the name. */
async function removeIn(tree: FileMemoryTree, parent: OpenDirectory, name: string, path: string): Promise<void> {
  const target = `${parent.base}/${name}`;
  const virtual = `${parent.virtual}/${name}`;
  try {
    const child = await openChild(tree, parent, name, path).catch((error: unknown) => {
      // A link or special file inside the tree: the name itself is removed, never what it points to.
      if (StoreError.isInstance(error) && error.code === 'INPUT_INVALID') return 'file' as const;
      throw error;
    });
    if (child === 'missing') return;
    if (child === 'file') {
      await unlink(target);
      return;
    }
    try {
      await emptyDirectory(tree, child, path);
    } finally {
      await child.handle.close();
    }
    await rmdir(target);
  } catch (error) {
    if (StoreError.isInstance(error)) throw error;
    if (errorCode(error) === 'ENOENT') return;
    throw fail(`${virtual} could not be deleted (${errorCode(error)})`, error);
  }
}

/**
 * The store's `delete`: removes the file or directory at `path` (a directory with everything in it),
 * never following a link inside it.
 *
 * @internal
 */
export async function removeEntry(tree: FileMemoryTree, path: string): Promise<void> {
  if (path === MEMORY_ROOT) throw fail(`${MEMORY_ROOT} itself cannot be deleted`);
  await inParent(
    tree,
    path,
    false,
    async (parent, name) => {
      if ((await entryIn(parent, name, path)) === undefined) throw fail(`${path} does not exist`);
      await removeIn(tree, parent, name, path);
    },
    () => {
      throw fail(`${path} does not exist`);
    },
  );
}
