import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { z } from 'zod';
import { ConfigError, StoreError } from '../errors.js';
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
  /** The host directory that `/memories` maps onto; created (mode 0700) when missing. */
  directory: string;
}

const optionsSchema = z.object({ directory: z.string().min(1) });

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unknown error';
}

function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function fail(message: string, cause?: unknown): StoreError {
  return new StoreError(message, { code: 'STORE_FAILED', cause });
}

function isInside(root: string, path: string): boolean {
  const rest = relative(root, path);
  return rest === '' || (rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest));
}

/**
 * A {@link MemoryStore} on the file system: `/memories/a/b.md` is `<directory>/a/b.md`. Paths are
 * validated again here, and every operation is confined to the real directory: the real path of the
 * deepest existing ancestor (symbolic links resolved) must lie inside the real root, for reads and
 * writes alike, so a link inside the directory that points outside is refused, a dangling link is
 * refused, and writes open files with `O_NOFOLLOW`. Error messages name virtual paths, never host
 * paths. Files are written with mode 0600.
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
    throw new ConfigError('directory must be a non-empty path, e.g. { directory: ".agent/memories" }', 'directory');
  }
  const directory = parsed.data.directory;
  let rootPromise: Promise<string> | undefined;

  function root(): Promise<string> {
    rootPromise ??= mkdir(directory, { recursive: true, mode: 0o700 })
      .then(() => realpath(directory))
      .catch((error: unknown) => {
        rootPromise = undefined;
        throw fail(`the memory directory could not be opened (${errorCode(error)})`, error);
      });
    return rootPromise;
  }

  function segments(path: string): readonly string[] {
    const resolved = resolveMemoryPath(path);
    if (!resolved.ok) throw new StoreError(resolved.reason, { code: 'INPUT_INVALID' });
    return resolved.segments;
  }

  /** The real path `path` leads to (links followed), checked to be inside the root. */
  async function target(path: string): Promise<string> {
    const realRoot = await root();
    const names = segments(path);
    for (let depth = names.length; depth > 0; depth--) {
      const candidate = join(realRoot, ...names.slice(0, depth));
      try {
        await lstat(candidate);
      } catch (error) {
        if (isMissing(error)) continue;
        throw fail(`${path} could not be checked (${errorCode(error)})`, error);
      }
      let real: string;
      try {
        real = await realpath(candidate);
      } catch (error) {
        throw fail(`${path} goes through a symbolic link whose target is missing; refusing to follow it`, error);
      }
      if (!isInside(realRoot, real)) {
        throw new StoreError(`${path} resolves outside the memory directory through a symbolic link; refusing`, {
          code: 'INPUT_INVALID',
        });
      }
      return join(real, ...names.slice(depth));
    }
    return join(realRoot, ...names);
  }

  /** The entry itself (its final name not followed), in its parent's real directory. */
  async function entry(path: string): Promise<string> {
    if (path === MEMORY_ROOT) return root();
    const names = segments(path);
    return join(await target(parentMemoryPath(path)), names[names.length - 1]!);
  }

  async function describe(path: string): Promise<MemoryEntry | undefined> {
    const real = await target(path);
    try {
      const info = await stat(real);
      return { path, kind: info.isDirectory() ? 'directory' : 'file', size: info.isDirectory() ? 0 : info.size };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw fail(`${path} could not be read (${errorCode(error)})`, error);
    }
  }

  return {
    stat: describe,
    async list(path: string): Promise<MemoryEntry[]> {
      let names: string[];
      try {
        names = await readdir(await target(path));
      } catch (error) {
        if (StoreError.isInstance(error)) throw error;
        throw fail(`${path} could not be listed (${errorCode(error)})`, error);
      }
      const children: MemoryEntry[] = [];
      for (const name of names) {
        const child = `${path === MEMORY_ROOT ? MEMORY_ROOT : path}/${name}`;
        if (!resolveMemoryPath(child).ok) continue;
        const found = await describe(child).catch(() => undefined);
        if (found) children.push(found);
      }
      return children;
    },
    async read(path: string): Promise<string> {
      const real = await target(path);
      try {
        return await readFile(real, 'utf8');
      } catch (error) {
        throw fail(`${path} could not be read (${errorCode(error)})`, error);
      }
    },
    async write(path: string, text: string, writeOptions: MemoryWriteOptions): Promise<void> {
      if (path === MEMORY_ROOT) throw fail(`${MEMORY_ROOT} is a directory`);
      const real = await target(path);
      const flags =
        constants.O_WRONLY |
        constants.O_CREAT |
        constants.O_TRUNC |
        (constants.O_NOFOLLOW ?? 0) |
        (writeOptions.overwrite ? 0 : constants.O_EXCL);
      const existing = await lstat(real).catch(() => undefined);
      if (existing && existing.nlink > 1 && existing.isFile()) {
        throw fail(`${path} has other hard links, which may lead outside the memory directory; refusing to write`);
      }
      try {
        await mkdir(dirname(real), { recursive: true, mode: 0o700 });
        const handle = await open(real, flags, 0o600);
        try {
          await handle.writeFile(text, 'utf8');
        } finally {
          await handle.close();
        }
      } catch (error) {
        const code = errorCode(error);
        if (code === 'EEXIST') throw fail(`${path} already exists`, error);
        if (code === 'EISDIR') throw fail(`${path} is a directory`, error);
        throw fail(`${path} could not be written (${code})`, error);
      }
    },
    async delete(path: string): Promise<void> {
      if (path === MEMORY_ROOT) throw fail(`${MEMORY_ROOT} itself cannot be deleted`);
      const own = await entry(path);
      try {
        await lstat(own);
        await rm(own, { recursive: true });
      } catch (error) {
        const message = isMissing(error)
          ? `${path} does not exist`
          : `${path} could not be deleted (${errorCode(error)})`;
        throw fail(message, error);
      }
    },
    async rename(from: string, to: string): Promise<void> {
      if (from === MEMORY_ROOT || to === MEMORY_ROOT) throw fail(`${MEMORY_ROOT} itself cannot be renamed`);
      const source = await entry(from);
      const destination = await entry(to);
      try {
        await lstat(source);
      } catch (error) {
        throw fail(`${from} does not exist`, error);
      }
      const exists = await lstat(destination).then(
        () => true,
        () => false,
      );
      if (exists) throw fail(`${to} already exists`);
      try {
        await mkdir(dirname(destination), { recursive: true, mode: 0o700 });
        await rename(source, destination);
      } catch (error) {
        throw fail(`${from} could not be renamed to ${to} (${errorCode(error)})`, error);
      }
    },
  };
}
