import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SessionError, StoreError } from '../errors.js';
import { checkExpectedLeaf } from '../session/check-expected-leaf.js';
import { wantsContextBranch } from '../session/context-branch.js';
import { SourceMismatch } from '../session/entry-source.js';
import { prepareEntry } from '../session/prepare-entry.js';
import { SessionIndex } from '../session/session-index.js';
import { createSessionInfo, isSessionId, sessionNotFound, sortSessions } from '../session/session-info.js';
import type {
  AppendEntryOptions,
  CreateSessionInit,
  SessionInfo,
  SessionStore,
  SetLeafOptions,
  TranscriptMessage,
} from '../session/session-store.js';
import type { SessionEntry, SessionEntryInput } from '../session-entry.js';
import * as v from '../validation/light-schema.js';
import { option, parseOptions } from '../validation/parse-options.js';
import {
  appendRecord,
  createSessionFile,
  errorCode,
  type LoadedSession,
  readInfo,
  readSessionFile,
  storeFailed,
} from './jsonl-file.js';
import { DEFAULT_LOCK_TIMING, type LockTiming, lockSession } from './jsonl-lock.js';

/**
 * A {@link SessionStore} that keeps one append-only JSONL file per session in `directory`
 * (`<sessionId>.jsonl`): a header line with the format version and the session info, then one line
 * per entry, plus a `{"type":"leaf"}` line whenever the leaf is moved with `setLeaf`.
 *
 * - Appends are durable when the call resolves (written and fsynced), and appends to one session
 *   are serialized, so concurrent calls from one process lose nothing.
 * - The reader survives a torn last line (a crash mid-write): the entries before it are kept and
 *   the skipped line is reported through `onWarning` and `getDiagnostics()`. The next append
 *   starts on a new line; nothing in the file is rewritten.
 * - On reopen the leaf is the last appended entry, or the last persisted leaf move after it.
 * - A line that breaks the tree (its parent is not an earlier entry: missing, itself, a cycle; or a
 *   compaction that keeps from an entry not on its branch before it) is skipped and reported like a
 *   torn one when the file is read, with its descendants; the rest of the tree stays readable.
 * - One writer per session: each append holds `<sessionId>.jsonl.lock` while it checks that the
 *   file is the size this store last saw and writes. A session changed by another writer (process
 *   or store object) is refused with a `LeafConflictError` (`LEAF_CONFLICT`, with the current
 *   leaf) and nothing is appended; the session is read again, so a retry continues after the other
 *   writer's entries. The lock is created with its owner in it (linked from a claim file), and
 *   names the process exactly (pid, host, and on Linux boot id, pid namespace and start time): a
 *   lock whose owner is gone, or whose pid now names a process started at another time, is taken
 *   over at once; one whose owner cannot be checked (another host or container) once its heartbeat
 *   (the mtime, refreshed every tenth of `lockStaleMs` while held) is `lockStaleMs` (10 s) old. A
 *   lock held by a live writer for over `lockWaitMs` (2 s) is refused, naming its owner.
 * - An append that would grow the file past `maxSessionBytes` is refused before anything is written.
 * - A session is read once and then served from memory (and read again after a refused append):
 *   indexed by its lines' first fields when first read for a branch or the leaf, parsed in full
 *   when first read by `getEntries` or `getMessages`, which need every entry anyway.
 *
 * @param options - The directory, a warning callback, the clock, the size cap and the lock's timing.
 * @returns The store.
 *
 * @example
 * ```ts
 * import { createJsonlStore } from 'ctxkit/node';
 *
 * const store = createJsonlStore({ directory: '.sessions', onWarning: (warning) => console.warn(warning.reason) });
 * const { id } = await store.createSession({ name: 'demo' });
 * await store.appendEntry(id, { type: 'message', message: { role: 'user', content: 'hello' } });
 * ```
 */
export function createJsonlStore(options: CreateJsonlStoreOptions): JsonlSessionStore {
  const { directory, now, maxSessionBytes, lockTiming } = resolveJsonlOptions(options);
  /** Tells this store's lock files from another store object's in the same process. */
  const token = crypto.randomUUID();
  const loaded = new Map<string, Promise<LoadedSession>>();
  /** Each session's writes, one after the other. */
  const writes = createWriteQueue();
  const warnings: JsonlStoreWarning[] = [];
  let ready: Promise<void> | undefined;

  const fileOf = (sessionId: string) => join(directory, `${sessionId}.jsonl`);

  function warn(warning: JsonlStoreWarning): void {
    warnings.push(warning);
    try {
      options.onWarning?.(warning);
    } catch {
      // A failing listener must not break reading.
    }
  }

  /** Reads a session: lazily (only line heads), or in full (for every entry, or after a line did not match its head). */
  async function read(sessionId: string, full = false, reported?: Set<number>): Promise<LoadedSession> {
    const file = fileOf(sessionId);
    const session = await readSessionFile(file, sessionId, {
      full,
      ...(reported === undefined ? {} : { reported }),
      warn: (line, torn, reason) => warn({ sessionId, file, line, torn, reason }),
    });
    if (session === undefined) throw sessionNotFound(sessionId);
    return session;
  }

  /**
   * Runs `work` on the session; when a lazily read line turns out not to be the entry its head
   * said (an edited or damaged file), reads the session in full, as the reader always did, and
   * runs it again.
   */
  async function withSession<T>(
    sessionId: string,
    work: (session: LoadedSession) => T | Promise<T>,
    everyEntry = false,
  ): Promise<T> {
    const session = await load(sessionId, everyEntry);
    try {
      return await work(session);
    } catch (error) {
      if (!(error instanceof SourceMismatch) || session.full) throw error;
      const full = read(sessionId, true, session.reported);
      loaded.set(sessionId, full);
      full.catch(() => loaded.delete(sessionId));
      return work(await full);
    }
  }

  function load(sessionId: string, everyEntry = false): Promise<LoadedSession> {
    if (!isSessionId(sessionId)) return Promise.reject(sessionNotFound(sessionId));
    let session = loaded.get(sessionId);
    if (session === undefined) {
      session = read(sessionId, everyEntry);
      loaded.set(sessionId, session);
      session.catch(() => loaded.delete(sessionId));
    }
    return session;
  }

  /** Appends one record line to the session's file, as {@link appendRecord} does. */
  function write(sessionId: string, session: LoadedSession, record: unknown): Promise<void> {
    return appendRecord(
      {
        sessionId,
        file: fileOf(sessionId),
        maxSessionBytes,
        lock: () => lockSession(sessionId, fileOf(sessionId), token, now(), lockTiming),
        forget: () => loaded.delete(sessionId),
        // Read again, in full when its leaf's line is damaged: the conflict names the current leaf.
        reload: () =>
          withSession(sessionId, (fresh) => {
            fresh.index.leafId;
            return fresh;
          }),
      },
      session,
      record,
    );
  }

  async function ensureDirectory(): Promise<void> {
    ready ??= mkdir(directory, { recursive: true }).then(
      () => undefined,
      (error: unknown) => {
        ready = undefined;
        throw storeFailed('create the directory', directory, error);
      },
    );
    return ready;
  }

  return {
    async createSession(init?: CreateSessionInit): Promise<SessionInfo> {
      const info = createSessionInfo(init, now());
      await ensureDirectory();
      const size = await createSessionFile(directory, fileOf(info.id), info);
      const index = new SessionIndex(info);
      loaded.set(
        info.id,
        Promise.resolve({ index, endsWithNewline: true, size, full: true, reported: new Set<number>() }),
      );
      return info;
    },
    async getSession(sessionId: string): Promise<SessionInfo | undefined> {
      try {
        return (await load(sessionId)).index.info;
      } catch (error) {
        if (SessionError.isInstance(error) && error.code === 'SESSION_NOT_FOUND') return undefined;
        throw error;
      }
    },
    async listSessions(): Promise<SessionInfo[]> {
      let names: string[];
      try {
        names = await readdir(directory);
      } catch (error) {
        if (errorCode(error) === 'ENOENT') return [];
        throw storeFailed('list', directory, error);
      }
      const infos: SessionInfo[] = [];
      for (const name of names) {
        const sessionId = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : '';
        if (!isSessionId(sessionId)) continue;
        const session = loaded.get(sessionId);
        try {
          infos.push(session === undefined ? await readInfo(fileOf(sessionId), sessionId) : (await session).index.info);
        } catch (error) {
          if (!StoreError.isInstance(error) || error.code !== 'STORE_CORRUPT') throw error;
          warn({ sessionId, file: fileOf(sessionId), line: 1, torn: false, reason: error.message });
        }
      }
      return sortSessions(infos);
    },
    appendEntry(sessionId: string, input: SessionEntryInput, options?: AppendEntryOptions): Promise<SessionEntry> {
      return writes.run(sessionId, async () => {
        const { session, entry } = await withSession(sessionId, (session) => {
          checkExpectedLeaf(sessionId, options, session.index.leafId);
          return { session, entry: prepareEntry(session.index, input, now()) };
        });
        await write(sessionId, session, entry);
        session.index.add(entry);
        return entry;
      });
    },
    async getEntries(sessionId: string): Promise<SessionEntry[]> {
      return withSession(sessionId, (session) => session.index.entries(), true);
    },
    async getBranch(sessionId: string, leafId?: string | null, options?: { from?: 'root' | 'context' }) {
      const context = wantsContextBranch('getBranch', options);
      return withSession(sessionId, (session) => session.index.branch(leafId, context));
    },
    async getLeaf(sessionId: string): Promise<string | null> {
      return withSession(sessionId, (session) => session.index.leafId);
    },
    setLeaf(sessionId: string, entryId: string | null, options?: SetLeafOptions): Promise<void> {
      return writes.run(sessionId, async () => {
        const session = await withSession(sessionId, (session) => {
          checkExpectedLeaf(sessionId, options, session.index.leafId);
          session.index.checkEntry(entryId);
          return session;
        });
        if (session.index.leafId === entryId) return;
        await write(sessionId, session, { type: 'leaf', leafId: entryId, timestamp: now() });
        session.index.leafId = entryId;
      });
    },
    async getMessages(sessionId: string): Promise<TranscriptMessage[]> {
      return withSession(sessionId, (session) => session.index.messages(), true);
    },
    async close(): Promise<void> {
      await writes.idle();
    },
    getDiagnostics(): JsonlStoreWarning[] {
      return [...warnings];
    },
  };
}

/**
 * A problem the JSONL reader skipped over instead of failing: a line torn by a crash mid-write,
 * or a line that is not a valid entry.
 *
 * @example
 * ```ts
 * const warning: JsonlStoreWarning = { sessionId: 's1', file: '/data/s1.jsonl', line: 42, torn: true, reason: 'Unexpected end of JSON input' };
 * ```
 */
export interface JsonlStoreWarning {
  sessionId: string;
  file: string;
  /** The 1-based line number. */
  line: number;
  /** True for an unterminated last line: an append that a crash cut short. */
  torn: boolean;
  /** What was wrong with the line. */
  reason: string;
}

/**
 * Options of {@link createJsonlStore}.
 *
 * @example
 * ```ts
 * const options: CreateJsonlStoreOptions = { directory: '.sessions', onWarning: (warning) => console.warn(warning) };
 * ```
 */
export interface CreateJsonlStoreOptions {
  /** Where the session files live; created when missing. */
  directory: string;
  /** Called for every line the reader skipped (see also `getDiagnostics`). */
  onWarning?: (warning: JsonlStoreWarning) => void;
  /** The clock used for timestamps. @default Date.now */
  now?: () => number;
  /**
   * The most bytes a session file may grow to: an append that would pass it is refused with a
   * `StoreError` (`STORE_FAILED`) and nothing is written, so a session never grows past what can be
   * read back. Start a new session (or branch one) to go on, or raise the cap.
   * @default 268435456 (256 MiB)
   */
  maxSessionBytes?: number;
  /**
   * How long, in milliseconds, an append waits for another live writer's lock before it is refused
   * with a `StoreError` naming that writer. Raise it where appends queue up behind each other (many
   * processes on one session, a slow disk); lower it to fail fast. 0 refuses at once.
   * @default 2000
   */
  lockWaitMs?: number;
  /**
   * How old, in milliseconds, the heartbeat of a lock whose owner cannot be checked (another host
   * or container, a platform without `/proc`) must be before the lock is taken over. A held lock's
   * heartbeat is refreshed every tenth of it, so a writer stalled for longer than this between
   * taking the lock and writing could be taken over: keep it well above the longest stall, and the
   * hosts' clocks well within it.
   * @default 10000
   */
  lockStaleMs?: number;
}

/** The default {@link CreateJsonlStoreOptions.maxSessionBytes}: 256 MiB. @internal */
const DEFAULT_MAX_SESSION_BYTES = 256 * 1024 * 1024;

/**
 * A {@link SessionStore} on JSONL files, with the reader's diagnostics.
 *
 * @example
 * ```ts
 * const store: JsonlSessionStore = createJsonlStore({ directory: '.sessions' });
 * console.log(store.getDiagnostics());
 * ```
 */
export interface JsonlSessionStore extends SessionStore {
  /** Waits for pending appends and leaf moves. The store stays usable. */
  close(): Promise<void>;
  /** Every line skipped while reading, since the store was created. */
  getDiagnostics(): JsonlStoreWarning[];
}

const DIRECTORY = 'must be the directory of the session files, e.g. createJsonlStore({ directory: ".sessions" })';
const MAX_SESSION_BYTES = `must be a whole number of bytes ≥ 1 (default ${DEFAULT_MAX_SESSION_BYTES})`;
const LOCK_WAIT = `must be a whole number of milliseconds ≥ 0 (default ${DEFAULT_LOCK_TIMING.waitMs})`;
const LOCK_STALE = `must be a whole number of milliseconds ≥ 100, its heartbeat every tenth of it (default ${DEFAULT_LOCK_TIMING.staleMs})`;

const optionsSchema = /* @__PURE__ */ (() =>
  v.strictObject(
    {
      directory: v.string({ error: DIRECTORY }).min(1, DIRECTORY),
      onWarning: v
        .custom<(warning: JsonlStoreWarning) => void>(
          (value) => typeof value === 'function',
          'must be a function that receives each skipped line',
        )
        .optional(),
      now: option.clock().optional(),
      // `int` also refuses numbers past the safe integers.
      maxSessionBytes: v
        .number({ error: MAX_SESSION_BYTES })
        .int(MAX_SESSION_BYTES)
        .min(1, MAX_SESSION_BYTES)
        .optional(),
      lockWaitMs: v.number({ error: LOCK_WAIT }).int(LOCK_WAIT).min(0, LOCK_WAIT).optional(),
      lockStaleMs: v.number({ error: LOCK_STALE }).int(LOCK_STALE).min(100, LOCK_STALE).optional(),
    },
    { error: 'must be an object: createJsonlStore({ directory: ".sessions" })' },
  ))();

/**
 * The checked options of `createJsonlStore`, with their defaults.
 *
 * @internal
 */
function resolveJsonlOptions(options: CreateJsonlStoreOptions): {
  directory: string;
  now: () => number;
  maxSessionBytes: number;
  lockTiming: LockTiming;
} {
  const parsed = parseOptions('createJsonlStore', optionsSchema, options);
  return {
    directory: parsed.directory,
    now: parsed.now ?? Date.now,
    maxSessionBytes: parsed.maxSessionBytes ?? DEFAULT_MAX_SESSION_BYTES,
    lockTiming: {
      waitMs: parsed.lockWaitMs ?? DEFAULT_LOCK_TIMING.waitMs,
      staleMs: parsed.lockStaleMs ?? DEFAULT_LOCK_TIMING.staleMs,
    },
  };
}

/** A queue of writes per session. @internal */
interface WriteQueue {
  /** Runs `task` after every earlier task of the same session has settled (fulfilled or rejected). */
  run<T>(sessionId: string, task: () => Promise<T>): Promise<T>;
  /** Settles once every task queued so far has settled. */
  idle(): Promise<void>;
}

/**
 * A queue per session, so a store's writes to one file never interleave. A session's entry is
 * dropped once its queue is empty.
 *
 * @internal
 */
function createWriteQueue(): WriteQueue {
  const queues = new Map<string, Promise<unknown>>();
  return {
    run<T>(sessionId: string, task: () => Promise<T>): Promise<T> {
      const previous = queues.get(sessionId) ?? Promise.resolve();
      const next = previous.then(task, task);
      const settled = next.catch(() => undefined);
      queues.set(sessionId, settled);
      void settled.then(() => {
        if (queues.get(sessionId) === settled) queues.delete(sessionId);
      });
      return next;
    },
    async idle(): Promise<void> {
      await Promise.all([...queues.values()]);
    },
  };
}
