import { constants, realpathSync, statSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Never follow a final symbolic link; never block on a FIFO.
 *
 * @internal
 */
export const SAFE = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
/**
 * Open a directory, never through a final link.
 *
 * @internal
 */
export const DIRECTORY = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | SAFE;

/**
 * The host side of one file memory tool store: how names are reached, where the root is, and which
 * directory the root was when the store first used it.
 *
 * @internal
 */
export interface FileMemoryTree {
  /** True when names are opened through `/proc/self/fd/<fd>/<name>`; false in `'checks'` mode. */
  readonly descriptors: boolean;
  /** The real path of the root directory (see {@link fixRootPath}). */
  readonly rootPath: string;
  /** The device and inode of the root first used (reset when the store recreates a deleted root). */
  identity: { dev: number; ino: number } | undefined;
}

/**
 * An open directory of the memory tree, and the path through which names inside it are reached.
 *
 * @internal
 */
export interface OpenDirectory {
  handle: FileHandle;
  /** `/proc/self/fd/<fd>` (descriptor-relative) or, in `'checks'` mode, the host path. */
  base: string;
  /** Its virtual path. */
  virtual: string;
}

/**
 * Where a walk to the parent of a path ended.
 *
 * @internal
 */
export type ParentWalk =
  | { kind: 'open'; parent: OpenDirectory; name: string }
  | { kind: 'missing' }
  | { kind: 'file-ancestor'; ancestor: string };

/**
 * Whether this process can open a name relative to an open directory through
 * `/proc/self/fd/<fd>/<name>` (Linux with procfs mounted): then every step of a walk is relative to
 * a directory already opened, which is what makes the store hold under symbolic-link swaps.
 *
 * @internal
 */
export function hasDescriptorPaths(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return statSync('/proc/self/fd').isDirectory();
  } catch {
    return false;
  }
}

/**
 * The real path of the root: the directory's own when it exists, else its parent's plus its name.
 *
 * @internal
 */
export function fixRootPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}

/**
 * The path through which names inside the directory open as `handle` are reached: its descriptor's
 * `/proc/self/fd` entry, or (in `'checks'` mode) its host path.
 *
 * @internal
 */
export function baseOf(tree: FileMemoryTree, handle: FileHandle, host: string): string {
  return tree.descriptors ? `/proc/self/fd/${handle.fd}` : host;
}
