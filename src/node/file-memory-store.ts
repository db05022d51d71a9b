import { resolve } from 'node:path';
import { ConfigError } from '../errors.js';
import { createKeyedQueue } from '../internal/keyed-queue.js';
import type { MemoryStore } from '../memory/memory-store.js';
import { assertObjectArgument, assertStringArgument } from '../validation/assert-argument.js';
import * as v from '../validation/light-schema.js';
import { parseOptions } from '../validation/parse-options.js';
import { type FileMemoryTree, fixRootPath, hasDescriptorPaths } from './file-memory/file-memory-tree.js';
import { listDirectory } from './file-memory/list-directory.js';
import { readFile } from './file-memory/read-file.js';
import { removeEntry } from './file-memory/remove-entry.js';
import { renameEntry } from './file-memory/rename-entry.js';
import { statEntry } from './file-memory/stat-entry.js';
import { writeFile } from './file-memory/write-file.js';

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
