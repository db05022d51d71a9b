import { constants, realpathSync, type Stats, statSync } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, opendir, rename, rmdir, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError, StoreError } from '../errors.js';
import { createKeyedQueue } from '../memory/keyed-queue.js';
import { MEMORY_ROOT } from '../memory/memory-root.js';
import type {
  MemoryEntry,
  MemoryListOptions,
  MemoryReadOptions,
  MemoryStore,
  MemoryWriteOptions,
} from '../memory/memory-store.js';
import { resolveMemoryPath } from '../memory/resolve-memory-path.js';
import { parseOptions } from '../validation/parse-options.js';

/**
 * Options of {@link createFileMemoryStore}.
 *
 * @example
 * ```ts
 * const options: CreateFileMemoryStoreOptions = { directory: '.agent/memories' };
 * ```
 */
export interface CreateFileMemoryStoreOptions {
  /**
   * The host directory that `/memories` maps onto, resolved against the working directory when the
   * store is created; created (mode 0700) at first use when missing.
   */
  directory: string;
  /**
   * What to do where the race-proof design cannot run (it needs Linux's `/proc/self/fd`): `'refuse'`
   * throws a `ConfigError` when the store is created; `'checks'` runs with path-based checks, which
   * a local process swapping a directory for a symbolic link at the exact moment of a call can
   * defeat (see the residual race in docs/memory-tool.md). On Linux this option changes nothing.
   *
   * @default 'refuse'
   */
  unsafePlatform?: 'refuse' | 'checks';
}

const optionsSchema = z.object({
  directory: z
    .string({ error: 'must be a non-empty path, e.g. { directory: ".agent/memories" }' })
    .min(1, 'must be a non-empty path, e.g. { directory: ".agent/memories" }'),
  unsafePlatform: z.enum(['refuse', 'checks']).default('refuse'),
});

/** Never follow a final symbolic link; never block on a FIFO. */
const SAFE = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
/** Open a directory, never through a final link. */
const DIRECTORY = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | SAFE;

/** Commands of every file store on one directory (in this process) run one at a time. */
const directoryQueue = createKeyedQueue<string>();

/**
 * Whether this process can open a name relative to an open directory through
 * `/proc/self/fd/<fd>/<name>` (Linux with procfs mounted): then every step of a walk is relative to
 * a directory already opened, which is what makes the store hold under symbolic-link swaps.
 */
function hasDescriptorPaths(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return statSync('/proc/self/fd').isDirectory();
  } catch {
    return false;
  }
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unknown error';
}

function fail(message: string, cause?: unknown): StoreError {
  return new StoreError({ message, code: 'STORE_FAILED', cause });
}

function refuse(message: string): StoreError {
  return new StoreError({ message, code: 'INPUT_INVALID' });
}

function isSpecial(info: Stats): boolean {
  return !info.isFile() && !info.isDirectory() && !info.isSymbolicLink();
}

function linkRefusal(path: string, link: string): StoreError {
  const through = link === path ? `${path} is a symbolic link` : `${path} goes through ${link}, a symbolic link`;
  return refuse(`${through}; the memory store does not follow links`);
}

function specialRefusal(path: string, entry: string): StoreError {
  return refuse(`${entry} is not a regular file or directory (a FIFO, socket or device); refusing to use ${path}`);
}

/** An open directory of the memory tree, and the path through which names inside it are reached. */
interface OpenDirectory {
  handle: FileHandle;
  /** `/proc/self/fd/<fd>` (descriptor-relative) or, in `'checks'` mode, the host path. */
  base: string;
  /** Its virtual path. */
  virtual: string;
}

/** Where a walk to the parent of a path ended. */
type ParentWalk =
  | { kind: 'open'; parent: OpenDirectory; name: string }
  | { kind: 'missing' }
  | { kind: 'file-ancestor'; ancestor: string };

/** Cuts a buffer of UTF-8 to whole characters and decodes it. */
function decodeWhole(bytes: Uint8Array, cut: boolean): string {
  let end = bytes.length;
  if (cut) {
    // Drop a trailing incomplete sequence: step back over continuation bytes to the lead byte.
    let back = end - 1;
    while (back >= 0 && back > end - 4 && (bytes[back]! & 0xc0) === 0x80) back--;
    if (back >= 0) {
      const lead = bytes[back]!;
      const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
      if (back + length > end) end = back;
    }
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, end).toString('utf8');
}

/**
 * A {@link MemoryStore} on the file system: `/memories/a/b.md` is `<directory>/a/b.md`.
 *
 * Confinement (Linux): every call opens the root directory with `O_DIRECTORY | O_NOFOLLOW` and
 * checks it is the directory the store first used (same device and inode), then walks the path one
 * name at a time, each step opened relative to the directory opened before it (through
 * `/proc/self/fd/<fd>/<name>`, Node's stand-in for `openat`) with `O_NOFOLLOW`. Every read, write,
 * create, delete, rename and listing is then done relative to an open directory, so a process that
 * swaps any directory of the tree, or the root, for a symbolic link at any moment can make a call
 * fail but never make it reach outside the root: a directory that was opened stays the directory it
 * was when it is renamed or replaced, and a name that is a link is never followed.
 *
 * Symbolic links are never followed, even ones that stay inside the root: a path through a link, or
 * naming one, is refused, and links are left out of listings (so loops cannot hang a view). Only
 * regular files and directories are used: FIFOs, sockets and devices are refused and never opened
 * for reading, and a file with other hard links (which may be a file outside, linked in by a user of
 * the host) is neither read nor written. Error messages name virtual paths, never host paths. Files
 * are written with mode 0600, directories with 0700. A deleted root is recreated in place; a root
 * replaced by a link or by another directory refuses every call.
 *
 * Elsewhere (macOS, Windows, Linux without `/proc`) there is no way to open a name relative to a
 * directory from Node, so the store refuses to be created unless `unsafePlatform: 'checks'` accepts
 * path-based checks, which a swap of an ancestor directory at the exact moment of a call can defeat.
 *
 * Concurrency: commands of every store on the same `directory` string in this process run one at a
 * time (the store implements `runExclusive`); other processes are not coordinated.
 *
 * @param options - The host directory, and what to do on a platform where confinement cannot hold.
 * @returns The store.
 * @throws ConfigError when `directory` is not a non-empty string, or when the platform cannot hold
 * the confinement and `unsafePlatform` is not `'checks'`.
 *
 * @example
 * ```ts
 * import { createMemoryTool } from 'ctxkit/memory';
 * import { createFileMemoryStore } from 'ctxkit/node';
 *
 * const memory = createMemoryTool({ store: createFileMemoryStore({ directory: '.agent/memories' }) });
 * ```
 */
export function createFileMemoryStore(options: CreateFileMemoryStoreOptions): MemoryStore {
  const parsed = parseOptions('createFileMemoryStore', optionsSchema, options ?? {});
  const descriptors = hasDescriptorPaths();
  if (!descriptors && parsed.unsafePlatform !== 'checks') {
    throw new ConfigError({
      message:
        `the file memory store cannot confine paths against symbolic-link races on ${process.platform} ` +
        "(it needs Linux's /proc/self/fd); pass unsafePlatform: 'checks' to accept path-based checks, " +
        'or use another MemoryStore',
      field: 'unsafePlatform',
    });
  }
  const directory = resolve(parsed.directory);
  const rootPath = fixRootPath(directory);
  let identity: { dev: number; ino: number } | undefined;

  /** The real path of the root: the directory's own when it exists, else its parent's plus its name. */
  function fixRootPath(path: string): string {
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

  function baseOf(handle: FileHandle, host: string): string {
    return descriptors ? `/proc/self/fd/${handle.fd}` : host;
  }

  /** Opens the root: not a link, and the directory first used (recreated when deleted). */
  async function openRoot(): Promise<OpenDirectory> {
    let handle: FileHandle | undefined;
    let created = false;
    try {
      try {
        handle = await open(rootPath, DIRECTORY);
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') throw error;
        await mkdir(rootPath, { recursive: true, mode: 0o700 });
        created = true;
        handle = await open(rootPath, DIRECTORY);
      }
    } catch (error) {
      const code = errorCode(error);
      if (code !== 'ENOTDIR' && code !== 'ELOOP') {
        throw fail(`the memory directory could not be opened (${code})`, error);
      }
    }
    if (handle !== undefined) {
      const info = await handle.stat();
      if (identity === undefined || created || (identity.dev === info.dev && identity.ino === info.ino)) {
        if (identity === undefined || created) identity = { dev: info.dev, ino: info.ino };
        return { handle, base: baseOf(handle, rootPath), virtual: MEMORY_ROOT };
      }
      await handle.close();
    }
    throw fail(
      'the memory directory was moved or replaced (it is now a link, or another directory); refusing to use it',
    );
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
   * Opens the directory `name` inside `parent`, never through a link: undefined when it is missing,
   * `'file'` when it is a file; links and special files are refused.
   */
  async function openChild(
    parent: OpenDirectory,
    name: string,
    path: string,
  ): Promise<OpenDirectory | 'missing' | 'file'> {
    const host = `${parent.base}/${name}`;
    const virtual = `${parent.virtual}/${name}`;
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
    if (!descriptors) {
      // Path-based checks: the name still leads to the directory just opened, not through a link.
      const [opened, named] = await Promise.all([handle.stat(), lstat(host).catch(() => undefined)]);
      if (named === undefined || named.isSymbolicLink() || named.dev !== opened.dev || named.ino !== opened.ino) {
        await handle.close();
        throw refuse(`${path} changed while it was opened (a link may have been swapped in); refusing to use it`);
      }
    }
    return { handle, base: baseOf(handle, host), virtual };
  }

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
   */
  async function walkToParent(path: string, create: boolean): Promise<ParentWalk> {
    const names = segments(path);
    let current = await openRoot();
    try {
      for (const name of names.slice(0, -1)) {
        let next = await openChild(current, name, path);
        if (next === 'missing' && create) {
          try {
            await mkdir(`${current.base}/${name}`, { mode: 0o700 });
          } catch (error) {
            if (errorCode(error) !== 'EEXIST') {
              throw fail(`${current.virtual}/${name} could not be created (${errorCode(error)})`, error);
            }
          }
          next = await openChild(current, name, path);
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
    return { kind: 'open', parent: current, name: names[names.length - 1]! };
  }

  /** Runs `task` on the open parent of `path`, closing it afterwards. */
  async function inParent<T>(
    path: string,
    create: boolean,
    task: (parent: OpenDirectory, name: string) => Promise<T>,
    otherwise: (walk: Exclude<ParentWalk, { kind: 'open' }>) => T,
  ): Promise<T> {
    const walk = await walkToParent(path, create);
    if (walk.kind !== 'open') return otherwise(walk);
    try {
      return await task(walk.parent, walk.name);
    } finally {
      await walk.parent.handle.close();
    }
  }

  async function lstatIn(parent: OpenDirectory, name: string, path: string): Promise<Stats | undefined> {
    try {
      return await lstat(`${parent.base}/${name}`);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw fail(`${path} could not be checked (${code})`, error);
    }
  }

  /** The entry for `name` in `parent`: refuses links and special files. */
  async function entryIn(parent: OpenDirectory, name: string, path: string): Promise<MemoryEntry | undefined> {
    const info = await lstatIn(parent, name, path);
    if (info === undefined) return undefined;
    if (info.isSymbolicLink()) throw linkRefusal(path, path);
    if (isSpecial(info)) throw specialRefusal(path, path);
    return info.isDirectory() ? { path, kind: 'directory', size: 0 } : { path, kind: 'file', size: info.size };
  }

  /** Opens the directory at `path` itself (the root included). */
  async function openDirectoryAt(path: string): Promise<OpenDirectory> {
    if (path === MEMORY_ROOT) {
      segments(path);
      return openRoot();
    }
    return inParent(
      path,
      false,
      async (parent, name) => {
        const opened = await openChild(parent, name, path);
        if (opened === 'missing' || opened === 'file') throw fail(`${path} is not a directory`);
        return opened;
      },
      () => {
        throw fail(`${path} is not a directory`);
      },
    );
  }

  /** Opens the file `name` in `parent` with `flags`, checking it is a regular file with one link. */
  async function openFile(parent: OpenDirectory, name: string, path: string, flags: number): Promise<FileHandle> {
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
      if (!descriptors) {
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

  /** Deletes everything inside `directory`, each step relative to an open directory. */
  async function emptyDirectory(directory: OpenDirectory, path: string): Promise<void> {
    const names: string[] = [];
    try {
      for await (const child of await opendir(directory.base)) names.push(child.name);
    } catch (error) {
      throw fail(`${directory.virtual} could not be listed (${errorCode(error)})`, error);
    }
    for (const name of names) await removeIn(directory, name, path);
  }

  /** Removes `name` from `parent`: a directory with its contents, anything else by unlinking the name. */
  async function removeIn(parent: OpenDirectory, name: string, path: string): Promise<void> {
    const target = `${parent.base}/${name}`;
    const virtual = `${parent.virtual}/${name}`;
    try {
      const child = await openChild(parent, name, path).catch((error: unknown) => {
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
        await emptyDirectory(child, path);
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

  return {
    async stat(path: string): Promise<MemoryEntry | undefined> {
      if (path === MEMORY_ROOT) {
        segments(path);
        await (await openRoot()).handle.close();
        return { path, kind: 'directory', size: 0 };
      }
      return inParent(
        path,
        false,
        (parent, name) => entryIn(parent, name, path),
        () => undefined,
      );
    },
    async list(path: string, listOptions?: MemoryListOptions): Promise<MemoryEntry[]> {
      const limit = listOptions?.limit ?? Number.POSITIVE_INFINITY;
      const directory = await openDirectoryAt(path);
      try {
        const children: MemoryEntry[] = [];
        if (limit <= 0) return children;
        const listing = await opendir(directory.base).catch((error: unknown) => {
          throw fail(`${path} could not be listed (${errorCode(error)})`, error);
        });
        for await (const child of listing) {
          if (!child.isFile() && !child.isDirectory()) continue;
          const childPath = `${path}/${child.name}`;
          const resolved = resolveMemoryPath(childPath);
          if (!resolved.ok || resolved.path !== childPath) continue;
          const info = await lstatIn(directory, child.name, childPath);
          if (info?.isDirectory()) children.push({ path: childPath, kind: 'directory', size: 0 });
          else if (info?.isFile()) children.push({ path: childPath, kind: 'file', size: info.size });
          if (children.length >= limit) break;
        }
        return children;
      } finally {
        await directory.handle.close();
      }
    },
    async read(path: string, readOptions?: MemoryReadOptions): Promise<string> {
      if (path === MEMORY_ROOT) throw fail(`${MEMORY_ROOT} is a directory`);
      const maxBytes = readOptions?.maxBytes ?? Number.POSITIVE_INFINITY;
      return inParent(
        path,
        false,
        async (parent, name) => {
          const handle = await openFile(parent, name, path, constants.O_RDONLY);
          try {
            const chunks: Uint8Array[] = [];
            let total = 0;
            // Read in chunks up to the cap: a huge file (or one that grows meanwhile) is cut at `maxBytes`.
            while (total < maxBytes) {
              const want = Math.min(1024 * 1024, maxBytes - total);
              const buffer = Buffer.allocUnsafe(want);
              const { bytesRead } = await handle.read(buffer, 0, want, total);
              if (bytesRead === 0) break;
              chunks.push(buffer.subarray(0, bytesRead));
              total += bytesRead;
            }
            const bytes = Buffer.concat(chunks, total);
            return decodeWhole(bytes, total >= maxBytes);
          } catch (error) {
            if (StoreError.isInstance(error)) throw error;
            throw fail(`${path} could not be read (${errorCode(error)})`, error);
          } finally {
            await handle.close();
          }
        },
        () => {
          throw fail(`${path} does not exist`);
        },
      );
    },
    async write(path: string, text: string, writeOptions: MemoryWriteOptions): Promise<void> {
      if (path === MEMORY_ROOT) throw fail(`${MEMORY_ROOT} is a directory`);
      const exclusive = writeOptions.overwrite ? 0 : constants.O_EXCL;
      await inParent(
        path,
        true,
        async (parent, name) => {
          const handle = await openFile(parent, name, path, constants.O_WRONLY | constants.O_CREAT | exclusive);
          try {
            await handle.truncate(0);
            await handle.writeFile(text, 'utf8');
          } catch (error) {
            throw fail(`${path} could not be written (${errorCode(error)})`, error);
          } finally {
            await handle.close();
          }
        },
        () => {
          throw fail(`${path} could not be created; try again`);
        },
      );
    },
    async delete(path: string): Promise<void> {
      if (path === MEMORY_ROOT) throw fail(`${MEMORY_ROOT} itself cannot be deleted`);
      await inParent(
        path,
        false,
        async (parent, name) => {
          if ((await entryIn(parent, name, path)) === undefined) throw fail(`${path} does not exist`);
          await removeIn(parent, name, path);
        },
        () => {
          throw fail(`${path} does not exist`);
        },
      );
    },
    async rename(from: string, to: string): Promise<void> {
      if (from === MEMORY_ROOT || to === MEMORY_ROOT) throw fail(`${MEMORY_ROOT} itself cannot be renamed`);
      await inParent(
        from,
        false,
        async (source, fromName) => {
          if ((await entryIn(source, fromName, from)) === undefined) throw fail(`${from} does not exist`);
          const target = await walkToParent(to, false);
          if (target.kind === 'file-ancestor') {
            throw fail(`cannot move ${from} to ${to}: ${target.ancestor} is a file`);
          }
          const opened =
            target.kind === 'open' ? target : ((await walkToParent(to, true)) as Extract<ParentWalk, { kind: 'open' }>);
          try {
            if ((await lstatIn(opened.parent, opened.name, to)) !== undefined) throw fail(`${to} already exists`);
            await rename(`${source.base}/${fromName}`, `${opened.parent.base}/${opened.name}`);
          } catch (error) {
            if (StoreError.isInstance(error)) throw error;
            throw fail(`${from} could not be renamed to ${to} (${errorCode(error)})`, error);
          } finally {
            await opened.parent.handle.close();
          }
        },
        () => {
          throw fail(`${from} does not exist`);
        },
      );
    },
    runExclusive<T>(task: () => Promise<T>): Promise<T> {
      return directoryQueue(directory, task);
    },
  };
}
