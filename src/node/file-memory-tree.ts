import { constants, realpathSync, type Stats, statSync } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { StoreError } from '../errors.js';
import { MEMORY_ROOT, resolveMemoryPath } from '../memory/memory-paths.js';
import type { MemoryEntry } from '../memory/memory-store.js';

// The memory tool's file store walks its root by descriptor: every step opens one name relative to a
// directory already open, never a final symbolic link, so a link swapped in by another process
// cannot lead a read or a write outside the root. The tree's state, the walk, the entries met on the
// way and the refusals are here; the store's operations are in file-memory-store.ts.

/**
 * Never follow a final symbolic link; never block on a FIFO.
 *
 * @internal
 */
const SAFE = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
/**
 * Open a directory, never through a final link.
 *
 * @internal
 */
const DIRECTORY = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | SAFE;

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
function baseOf(tree: FileMemoryTree, handle: FileHandle, host: string): string {
  return tree.descriptors ? `/proc/self/fd/${handle.fd}` : host;
}

/**
 * The `code` of a Node.js system error (`ENOENT`, `ELOOP`, …), or `'unknown error'`.
 *
 * @internal
 */
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unknown error';
}

/**
 * A failure of the storage or of a precondition (`STORE_FAILED`).
 *
 * @internal
 */
export function fail(message: string, cause?: unknown): StoreError {
  return new StoreError({ message, code: 'STORE_FAILED', cause });
}

/**
 * A refusal to use a path that would break confinement (`INPUT_INVALID`).
 *
 * @internal
 */
function refuse(message: string): StoreError {
  return new StoreError({ message, code: 'INPUT_INVALID' });
}

/**
 * Whether `info` is neither a regular file, a directory nor a symbolic link (a FIFO, socket or device).
 *
 * @internal
 */
function isSpecial(info: Stats): boolean {
  return !info.isFile() && !info.isDirectory() && !info.isSymbolicLink();
}

/**
 * Refuses `path` because it is, or goes through, the symbolic link `link` (both virtual paths).
 *
 * @internal
 */
function linkRefusal(path: string, link: string): StoreError {
  const through = link === path ? `${path} is a symbolic link` : `${path} goes through ${link}, a symbolic link`;
  return refuse(`${through}; the memory store does not follow links`);
}

/**
 * Refuses `path` because `entry` (a virtual path) is a FIFO, socket or device.
 *
 * @internal
 */
function specialRefusal(path: string, entry: string): StoreError {
  return refuse(`${entry} is not a regular file or directory (a FIFO, socket or device); refusing to use ${path}`);
}

/**
 * Opens the root: not a link, and the directory first used (recreated when deleted).
 *
 * @internal
 */
async function openRoot(tree: FileMemoryTree): Promise<OpenDirectory> {
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
function segments(path: string): readonly string[] {
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
