/**
 * What a {@link MemoryStore} knows about one file or directory.
 *
 * @example
 * ```ts
 * const entry: MemoryEntry = { path: '/memories/notes.md', kind: 'file', size: 42 };
 * ```
 */
export interface MemoryEntry {
  /** The normalised virtual path, e.g. `/memories/projects/notes.md`. */
  path: string;
  /** A file holds text; a directory holds other entries. */
  kind: 'file' | 'directory';
  /** UTF-8 bytes of a file's text; `0` for a directory. */
  size: number;
}

/**
 * Options of {@link MemoryStore.write}.
 *
 * @example
 * ```ts
 * const options: MemoryWriteOptions = { overwrite: false };
 * ```
 */
export interface MemoryWriteOptions {
  /** Whether an existing file may be replaced. When false, an existing file makes `write` throw. */
  overwrite: boolean;
}

/**
 * Options of {@link MemoryStore.list}.
 *
 * @example
 * ```ts
 * const options: MemoryListOptions = { limit: 1000 };
 * ```
 */
export interface MemoryListOptions {
  /**
   * Return at most this many children (any of them); a store should stop reading the directory there,
   * so a directory of 100,000 planted files costs no more than `limit` entries.
   * @default Infinity
   */
  limit?: number;
}

/**
 * Options of {@link MemoryStore.read}.
 *
 * @example
 * ```ts
 * const options: MemoryReadOptions = { maxBytes: 100 * 1024 };
 * ```
 */
export interface MemoryReadOptions {
  /**
   * Read at most this many UTF-8 bytes from the start of the file (cut back to a whole character), so
   * a huge file planted in the storage cannot exhaust memory. The tool compares the text with the
   * size `stat` reported to tell what was cut.
   * @default Infinity
   */
  maxBytes?: number;
}

/**
 * The memory tool store: where the memory tool keeps its files (not a `SessionStore`, which keeps
 * conversations). A small async contract: the command semantics (what
 * `create`, `str_replace` or `insert` mean, the caps, the messages) live in `createMemoryTool` and
 * are shared by every store, so a store only moves text around.
 *
 * Every path a store receives is already validated and normalised by `resolveMemoryPath`: it is
 * `/memories` or starts with `/memories/`, has no `.`/`..`/empty names, no backslash, control
 * character or percent-escape, and no trailing slash. The tool also checks preconditions before
 * calling (the source of `rename` exists, its target does not, `write` without `overwrite` targets a
 * missing file, no ancestor of a new file is a file), so stores need only enforce what they must to
 * stay consistent.
 *
 * Stores that map paths onto real resources must still confine them: the file store follows no
 * symbolic link at all, and refuses special files and files with other hard links.
 *
 * Concurrency: `createMemoryTool` runs one command at a time per store, from the first store call of
 * a command to its last, so a command's read, check and write never interleave with another's and
 * parallel tool calls lose no edit and respect `maxFiles`. The queue is shared by every tool built on
 * the same store object. A store whose storage can be reached through several store objects (two
 * stores on one directory, say) implements `runExclusive` to widen the queue to all of them: the
 * tool then calls `runExclusive(task)` around each command instead of using its own queue. Nothing
 * coordinates with other processes or with edits made outside the tool; a store method that never
 * settles blocks the commands queued behind it.
 *
 * Errors: methods throw (preferably a `StoreError` whose message names the virtual path, never a
 * host path) when a path that must exist is missing, when a confinement check fails, or when the
 * underlying storage fails. The tool turns every thrown error into an `{ error }` result; it never
 * reaches the model as a stack trace. `stat` returns `undefined` for a missing path instead of
 * throwing.
 *
 * @example
 * ```ts
 * import { createInMemoryMemoryStore } from 'ctxkit/memory';
 *
 * const store: MemoryStore = createInMemoryMemoryStore();
 * await store.write('/memories/notes.md', 'hello', { overwrite: false });
 * console.log(await store.list('/memories')); // [{ path: '/memories/notes.md', kind: 'file', size: 5 }]
 * ```
 */
export interface MemoryStore {
  /** The entry at `path`, or `undefined` when nothing is there (or an ancestor is a file). */
  stat(path: string): Promise<MemoryEntry | undefined>;
  /**
   * The direct children of the directory at `path`, in any order, dotfiles included (the tool
   * filters them), at most `options.limit` of them. Throws when `path` is not a directory.
   */
  list(path: string, options?: MemoryListOptions): Promise<MemoryEntry[]>;
  /**
   * The text of the file at `path`, at most `options.maxBytes` UTF-8 bytes of it. Throws when it is
   * missing or a directory.
   */
  read(path: string, options?: MemoryReadOptions): Promise<string>;
  /**
   * Writes `text` to the file at `path`, creating missing parent directories. Throws when `path` is
   * a directory, or when it exists and `options.overwrite` is false.
   */
  write(path: string, text: string, options: MemoryWriteOptions): Promise<void>;
  /** Deletes the file or the directory (recursively) at `path`. Throws when it is missing. */
  delete(path: string): Promise<void>;
  /**
   * Moves the file or directory at `from` to `to`, creating missing parent directories of `to`.
   * Throws when `from` is missing or `to` exists.
   */
  rename(from: string, to: string): Promise<void>;
  /**
   * Optional: runs `task` (one whole command) once no other command on the same storage is running,
   * and settles as it does. Implement it when several store objects can share storage; without it
   * the tool queues commands per store object.
   */
  runExclusive?<T>(task: () => Promise<T>): Promise<T>;
}
