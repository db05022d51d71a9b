import { type FileHandle, lstat, open } from 'node:fs/promises';
import { errorCode, fail, linkRefusal, refuse, specialRefusal } from './file-memory-errors.js';
import { type FileMemoryTree, type OpenDirectory, SAFE } from './file-memory-tree.js';

/**
 * Opens the file `name` in `parent` with `flags` (never through a link, never blocking on a FIFO),
 * checking it is a regular file with one link.
 *
 * @internal
 */
export async function openFile(
  tree: FileMemoryTree,
  parent: OpenDirectory,
  name: string,
  path: string,
  flags: number,
): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(`${parent.base}/${name}`, flags | SAFE, 0o600);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ELOOP') throw linkRefusal(path, path);
    if (code === 'EEXIST') throw fail(`${path} already exists`, error);
    if (code === 'EISDIR') throw fail(`${path} is a directory`, error);
    if (code === 'ENXIO') throw specialRefusal(path, path);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw fail(`${path} does not exist`, error);
    throw fail(`${path} could not be opened (${code})`, error);
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) {
      throw opened.isDirectory() ? fail(`${path} is a directory`) : specialRefusal(path, path);
    }
    if (opened.nlink > 1) {
      throw refuse(`${path} has other hard links, which may lead outside the memory directory; refusing to use it`);
    }
    if (!tree.descriptors) {
      const named = await lstat(`${parent.base}/${name}`).catch(() => undefined);
      if (named === undefined || named.dev !== opened.dev || named.ino !== opened.ino) {
        throw refuse(`${path} changed while it was opened (a link may have been swapped in); refusing to use it`);
      }
    }
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}
