import { constants } from 'node:fs';
import { opendir, rename, rmdir, unlink } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ConfigError, StoreError } from '../errors.js';
import { createKeyedQueue } from '../internal/keyed-queue.js';
import { MEMORY_ROOT, resolveMemoryPath } from '../memory/memory-paths.js';
import type {
  MemoryEntry,
  MemoryListOptions,
  MemoryReadOptions,
  MemoryStore,
  MemoryWriteOptions,
} from '../memory/memory-store.js';
import { assertObjectArgument, assertStringArgument } from '../validation/assert-argument.js';
import * as v from '../validation/light-schema.js';
import { parseOptions } from '../validation/parse-options.js';
import {
  entryIn,
  errorCode,
  type FileMemoryTree,
  fail,
  fixRootPath,
  hasDescriptorPaths,
  inParent,
  lstatIn,
  type OpenDirectory,
  openChild,
  openDirectoryAt,
  openFile,
  type ParentWalk,
  statEntry,
  walkToParent,
} from './file-memory-tree.js';

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

const optionsSchema = /* @__PURE__ */ (() =>
  v.object({
    directory: v
      .string({ error: 'must be a non-empty path, e.g. { directory: ".agent/memories" }' })
      .min(1, 'must be a non-empty path, e.g. { directory: ".agent/memories" }'),
    unsafePlatform: v.enumOf(['refuse', 'checks']).optional(),
  }))();

/** Commands of every file store on one directory (in this process) run one at a time. */
const directoryQueue = createKeyedQueue<string>();

/**
 * A memory tool store ({@link MemoryStore}) on the file system: `/memories/a/b.md` is `<directory>/a/b.md`.
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
  const tree: FileMemoryTree = { descriptors, rootPath: fixRootPath(directory), identity: undefined };
  return {
    stat: (path) => statEntry(tree, path),
    list: (path, listOptions) => listDirectory(tree, path, listOptions),
    read: (path, readOptions) => readFile(tree, path, readOptions),
    write: async (path, text, writeOptions) => {
      assertStringArgument(text, 'MemoryStore.write', 'text');
      assertObjectArgument(writeOptions, 'MemoryStore.write', 'options');
      return writeFile(tree, path, text, writeOptions);
    },
    delete: (path) => removeEntry(tree, path),
    rename: (from, to) => renameEntry(tree, from, to),
    runExclusive<T>(task: () => Promise<T>): Promise<T> {
      return directoryQueue(directory, task);
    },
  };
}

/**
 * The store's `list`: the regular files and directories directly inside `path` (links, special
 * files and names that are not valid memory names left out), reading the directory only until
 * `limit` children were found.
 *
 * @internal
 */
async function listDirectory(
  tree: FileMemoryTree,
  path: string,
  listOptions?: MemoryListOptions,
): Promise<MemoryEntry[]> {
  const limit = listOptions?.limit ?? Number.POSITIVE_INFINITY;
  const directory = await openDirectoryAt(tree, path);
  try {
    const children: MemoryEntry[] = [];
    if (limit <= 0) return children;
    const listing = await opendir(directory.base).catch((error: unknown) => {
      throw fail(`${path} could not be listed (${errorCode(error)})`, error);
    });
    const entries = [];
    for await (const child of listing) entries.push(child);
    const names = new Set(entries.map((child) => child.name));
    for (const child of entries) {
      if (!child.isFile() && !child.isDirectory()) continue;
      // Listed under its NFC path (the one the tool reaches it by), unless its NFC twin is there.
      const name = child.name.normalize('NFC');
      if (name !== child.name && names.has(name)) continue;
      const childPath = `${path}/${name}`;
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
}

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
 * The store's `read`: the text of the file at `path`, read in chunks and cut at `maxBytes` (back to
 * a whole character), so a huge file, or one that grows meanwhile, costs no more than the cap.
 *
 * @internal
 */
async function readFile(tree: FileMemoryTree, path: string, readOptions?: MemoryReadOptions): Promise<string> {
  if (path === MEMORY_ROOT) throw fail(`${MEMORY_ROOT} is a directory`);
  const maxBytes = readOptions?.maxBytes ?? Number.POSITIVE_INFINITY;
  return inParent(
    tree,
    path,
    false,
    async (parent, name) => {
      const handle = await openFile(tree, parent, name, path, constants.O_RDONLY);
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
}

/**
 * The store's `write`: creates missing parent directories (mode 0700), then writes `text` to the
 * file at `path` (mode 0600), refusing an existing file unless `overwrite` is set.
 *
 * @internal
 */
async function writeFile(
  tree: FileMemoryTree,
  path: string,
  text: string,
  writeOptions: MemoryWriteOptions,
): Promise<void> {
  if (path === MEMORY_ROOT) throw fail(`${MEMORY_ROOT} is a directory`);
  const exclusive = writeOptions.overwrite ? 0 : constants.O_EXCL;
  await inParent(
    tree,
    path,
    true,
    async (parent, name) => {
      const handle = await openFile(tree, parent, name, path, constants.O_WRONLY | constants.O_CREAT | exclusive);
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
}

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
async function removeEntry(tree: FileMemoryTree, path: string): Promise<void> {
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

/**
 * The store's `rename`: moves the file or directory at `from` to `to`, both reached relative to
 * open directories, creating missing parent directories of `to`; refuses an existing `to`.
 *
 * @internal
 */
async function renameEntry(tree: FileMemoryTree, from: string, to: string): Promise<void> {
  if (from === MEMORY_ROOT || to === MEMORY_ROOT) throw fail(`${MEMORY_ROOT} itself cannot be renamed`);
  await inParent(
    tree,
    from,
    false,
    async (source, fromName) => {
      if ((await entryIn(source, fromName, from)) === undefined) throw fail(`${from} does not exist`);
      const target = await walkToParent(tree, to, false);
      if (target.kind === 'file-ancestor') {
        throw fail(`cannot move ${from} to ${to}: ${target.ancestor} is a file`);
      }
      const opened =
        target.kind === 'open'
          ? target
          : ((await walkToParent(tree, to, true)) as Extract<ParentWalk, { kind: 'open' }>);
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
}
