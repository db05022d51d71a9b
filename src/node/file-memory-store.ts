import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readdir, realpath, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError, StoreError } from '../errors.js';
import { createKeyedQueue } from '../memory/keyed-queue.js';
import { MEMORY_ROOT, parentMemoryPath, resolveMemoryPath } from '../memory/memory-path.js';
import type { MemoryEntry, MemoryStore, MemoryWriteOptions } from '../memory/memory-store.js';

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
   * store is created; created (mode 0700) when missing.
   */
  directory: string;
}

const optionsSchema = z.object({ directory: z.string().min(1) });

/** Never follow a final symbolic link; never block on a FIFO. Both are 0 where the platform lacks them. */
const SAFE_FLAGS = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Commands of every file store on one directory (in this process) run one at a time. */
const directoryQueue = createKeyedQueue<string>();

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unknown error';
}

function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function fail(message: string, cause?: unknown): StoreError {
  return new StoreError({ message: message, code: 'STORE_FAILED', cause });
}

function refuse(message: string): StoreError {
  return new StoreError({ message: message, code: 'INPUT_INVALID' });
}

function isSpecial(info: Stats): boolean {
  return !info.isFile() && !info.isDirectory() && !info.isSymbolicLink();
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** Where a virtual path lies on disk, found without following any link. */
interface Located {
  /** The host path. */
  host: string;
  /** The entry's own `lstat`, or undefined when it is missing (or an ancestor is a file). */
  info: Stats | undefined;
  /** The virtual path of the nearest ancestor that is a file, when there is one. */
  fileAncestor?: string;
}

/**
 * A {@link MemoryStore} on the file system: `/memories/a/b.md` is `<directory>/a/b.md`.
 *
 * Confinement: paths are validated again here, then walked one name at a time with `lstat`, and
 * symbolic links are never followed: a path through a link, or naming one, is refused, even a link
 * that stays inside the directory, and links are left out of listings (so loops cannot hang a view).
 * Only regular files and directories are used: FIFOs, sockets and devices are refused and never
 * opened, and a file with other hard links (which may be a file outside planted by the host's users)
 * is neither read nor written. The directory's real path is fixed at first use; when the directory
 * is later replaced by a symbolic link or moved, every call is refused. Error messages name virtual
 * paths, never host paths. Files are written with mode 0600, directories with 0700.
 *
 * Races: files are opened with `O_NOFOLLOW` (and `O_NONBLOCK`), and the handle is checked after the
 * open (a regular file with one link) and against a fresh walk of the path (same device and inode,
 * no link on the way), before anything is read or a byte written. Directories are created one level
 * at a time and checked after each step, and `rename` re-walks both parents just before it moves.
 * Node has no `openat`, so a process that swaps a directory on the path for a link at the exact
 * moment of the call can still make the store create an empty file or directory outside, or list,
 * move or delete through the link; it can never make the store read an outside file's content or
 * change an existing outside file. Only host users who can write inside the directory can try this.
 *
 * Concurrency: commands of every store on the same `directory` string in this process run one at a
 * time (the store implements `runExclusive`); other processes are not coordinated.
 *
 * @param options - The host directory.
 * @returns The store.
 * @throws ConfigError when `directory` is not a non-empty string.
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
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new ConfigError({
      message: 'directory must be a non-empty path, e.g. { directory: ".agent/memories" }',
      field: 'directory',
    });
  }
  const directory = resolve(parsed.data.directory);
  let realRoot: string | undefined;

  /** The real root, checked on every call: same real path as at first use, a directory, not a link. */
  async function root(): Promise<string> {
    try {
      if (!(await lstat(directory).catch(() => undefined))) {
        await mkdir(directory, { recursive: true, mode: 0o700 });
      }
      const real = await realpath(directory);
      realRoot ??= real;
      const info = await lstat(real);
      if (real === realRoot && info.isDirectory()) return real;
    } catch (error) {
      throw fail(`the memory directory could not be opened (${errorCode(error)})`, error);
    }
    throw fail(
      'the memory directory was moved or replaced (it now resolves somewhere else, or is not a directory); ' +
        'refusing to use it',
    );
  }

  function segments(path: string): readonly string[] {
    const resolved = resolveMemoryPath(path);
    if (!resolved.ok || resolved.path !== path) {
      throw refuse(resolved.ok ? `${path} is not a normalised memory path` : resolved.reason);
    }
    return resolved.segments;
  }

  function linkRefusal(path: string, link: string): StoreError {
    const through = link === path ? `${path} is a symbolic link` : `${path} goes through ${link}, a symbolic link`;
    return refuse(`${through}; the memory store does not follow links`);
  }

  function specialRefusal(path: string, entry: string): StoreError {
    return refuse(`${entry} is not a regular file or directory (a FIFO, socket or device); refusing to use ${path}`);
  }

  async function lstatOrMissing(host: string, path: string): Promise<Stats | undefined> {
    try {
      return await lstat(host);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw fail(`${path} could not be checked (${errorCode(error)})`, error);
    }
  }

  /** Walks `path` from the root with `lstat`, refusing links and special files on the way. */
  async function locate(path: string): Promise<Located> {
    const names = segments(path);
    let host = await root();
    let virtual = MEMORY_ROOT;
    let info: Stats | undefined = await lstat(host);
    for (const [index, name] of names.entries()) {
      host = join(host, name);
      virtual = `${virtual}/${name}`;
      info = await lstatOrMissing(host, path);
      if (info === undefined) return { host: join(host, ...names.slice(index + 1)), info };
      if (info.isSymbolicLink()) throw linkRefusal(path, virtual);
      if (isSpecial(info)) throw specialRefusal(path, virtual);
      if (info.isFile() && index < names.length - 1) {
        return { host: join(host, ...names.slice(index + 1)), info: undefined, fileAncestor: virtual };
      }
    }
    return { host, info };
  }

  /** Creates the missing parents of `path` one level at a time, checking each is a real directory. */
  async function makeParents(path: string): Promise<void> {
    const names = segments(path);
    let host = await root();
    let virtual = MEMORY_ROOT;
    for (const name of names.slice(0, -1)) {
      host = join(host, name);
      virtual = `${virtual}/${name}`;
      let info = await lstatOrMissing(host, path);
      if (info === undefined) {
        try {
          await mkdir(host, { mode: 0o700 });
        } catch (error) {
          if (errorCode(error) !== 'EEXIST') throw fail(`${virtual} could not be created (${errorCode(error)})`, error);
        }
        info = await lstatOrMissing(host, path);
      }
      if (info === undefined) throw fail(`${virtual} changed while it was created; try again`);
      if (info.isSymbolicLink()) throw linkRefusal(path, virtual);
      if (info.isFile()) throw fail(`cannot create ${path}: ${virtual} is a file`);
      if (!info.isDirectory()) throw specialRefusal(path, virtual);
    }
  }

  /**
   * Checks an open handle: a regular file with one link, and still the entry a fresh walk of `path`
   * finds (so no link was swapped in between the walk and the open).
   */
  async function checkHandle(handle: FileHandle, path: string): Promise<void> {
    const opened = await handle.stat();
    if (!opened.isFile()) {
      throw opened.isDirectory() ? fail(`${path} is a directory`) : specialRefusal(path, path);
    }
    if (opened.nlink > 1) {
      throw refuse(`${path} has other hard links, which may lead outside the memory directory; refusing to use it`);
    }
    const again = await locate(path);
    if (again.info === undefined || !sameFile(opened, again.info)) {
      throw refuse(`${path} changed while it was opened (a link may have been swapped in); refusing to use it`);
    }
  }

  async function openChecked(path: string, flags: number): Promise<FileHandle> {
    const { host } = await locate(path);
    let handle: FileHandle;
    try {
      handle = await open(host, flags | SAFE_FLAGS, 0o600);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ELOOP') throw linkRefusal(path, path);
      if (code === 'EEXIST') throw fail(`${path} already exists`, error);
      if (code === 'EISDIR') throw fail(`${path} is a directory`, error);
      if (code === 'ENXIO') throw specialRefusal(path, path);
      if (isMissing(error)) throw fail(`${path} does not exist`, error);
      throw fail(`${path} could not be opened (${code})`, error);
    }
    try {
      await checkHandle(handle, path);
      return handle;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async function describe(path: string): Promise<MemoryEntry | undefined> {
    const { info } = await locate(path);
    if (info === undefined) return undefined;
    return info.isDirectory() ? { path, kind: 'directory', size: 0 } : { path, kind: 'file', size: info.size };
  }

  return {
    stat: describe,
    async list(path: string): Promise<MemoryEntry[]> {
      const before = await locate(path);
      if (!before.info?.isDirectory()) throw fail(`${path} is not a directory`);
      let names: string[];
      try {
        names = (await readdir(before.host, { withFileTypes: true }))
          .filter((child) => child.isFile() || child.isDirectory())
          .map((child) => child.name);
      } catch (error) {
        throw fail(`${path} could not be listed (${errorCode(error)})`, error);
      }
      const after = await locate(path);
      if (after.info === undefined || !sameFile(before.info, after.info)) {
        throw refuse(`${path} changed while it was listed (a link may have been swapped in); refusing to show it`);
      }
      const children: MemoryEntry[] = [];
      for (const name of names) {
        const child = `${path}/${name}`;
        const resolved = resolveMemoryPath(child);
        if (!resolved.ok || resolved.path !== child) continue;
        const info = await lstatOrMissing(join(before.host, name), child);
        if (info?.isDirectory()) children.push({ path: child, kind: 'directory', size: 0 });
        else if (info?.isFile()) children.push({ path: child, kind: 'file', size: info.size });
      }
      return children;
    },
    async read(path: string): Promise<string> {
      const handle = await openChecked(path, constants.O_RDONLY);
      try {
        return await handle.readFile('utf8');
      } catch (error) {
        throw fail(`${path} could not be read (${errorCode(error)})`, error);
      } finally {
        await handle.close();
      }
    },
    async write(path: string, text: string, writeOptions: MemoryWriteOptions): Promise<void> {
      if (path === MEMORY_ROOT) throw fail(`${MEMORY_ROOT} is a directory`);
      await makeParents(path);
      const exclusive = writeOptions.overwrite ? 0 : constants.O_EXCL;
      const handle = await openChecked(path, constants.O_WRONLY | constants.O_CREAT | exclusive);
      try {
        await handle.truncate(0);
        await handle.writeFile(text, 'utf8');
      } catch (error) {
        throw fail(`${path} could not be written (${errorCode(error)})`, error);
      } finally {
        await handle.close();
      }
    },
    async delete(path: string): Promise<void> {
      if (path === MEMORY_ROOT) throw fail(`${MEMORY_ROOT} itself cannot be deleted`);
      const { host, info } = await locate(path);
      if (info === undefined) throw fail(`${path} does not exist`);
      try {
        await rm(host, { recursive: true });
      } catch (error) {
        throw fail(`${path} could not be deleted (${errorCode(error)})`, error);
      }
    },
    async rename(from: string, to: string): Promise<void> {
      if (from === MEMORY_ROOT || to === MEMORY_ROOT) throw fail(`${MEMORY_ROOT} itself cannot be renamed`);
      const source = await locate(from);
      if (source.info === undefined) throw fail(`${from} does not exist`);
      const target = await locate(to);
      if (target.fileAncestor) throw fail(`cannot move ${from} to ${to}: ${target.fileAncestor} is a file`);
      if (target.info !== undefined) throw fail(`${to} already exists`);
      await makeParents(to);
      const parents = [parentMemoryPath(from), parentMemoryPath(to)];
      for (const parent of parents) {
        if (!(await locate(parent)).info?.isDirectory()) throw fail(`${parent} is no longer a directory`);
      }
      const moved = await locate(from);
      if (moved.info === undefined || !sameFile(moved.info, source.info)) throw fail(`${from} changed; try again`);
      try {
        await rename(source.host, target.host);
      } catch (error) {
        throw fail(`${from} could not be renamed to ${to} (${errorCode(error)})`, error);
      }
    },
    runExclusive<T>(task: () => Promise<T>): Promise<T> {
      return directoryQueue(directory, task);
    },
  };
}
