import { constants } from 'node:fs';
import { mkdir, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, LeafConflictError, SessionError, StoreError } from '../errors.js';
import { checkExpectedLeaf } from '../session/check-expected-leaf.js';
import { wantsContextBranch } from '../session/context-branch.js';
import { SessionIndex, SourceMismatch } from '../session/session-index.js';
import {
  createSessionInfo,
  isSessionId,
  sessionExists,
  sessionNotFound,
  sortSessions,
} from '../session/session-info.js';
import type {
  AppendEntryOptions,
  CreateSessionInit,
  SessionInfo,
  SessionStore,
  SetLeafOptions,
  TranscriptMessage,
} from '../session/session-store.js';
import type { SessionEntry, SessionEntryInput } from '../session-entry.js';
import { appendDurably, errorCode, JSONL_FORMAT_VERSION, readInfo, storeFailed, syncDirectory } from './jsonl-file.js';
import { lockSession } from './jsonl-lock.js';
import { holdsTornHeader, type LoadedSession, readSessionFile } from './jsonl-read.js';

export { JSONL_FORMAT_VERSION } from './jsonl-file.js';

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
}

/** The default {@link CreateJsonlStoreOptions.maxSessionBytes}: 256 MiB. */
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
 * - A line that breaks the tree (its parent is not an earlier entry: missing, itself, a cycle) is
 *   skipped and reported like a torn one, with its descendants; the rest of the tree stays readable.
 * - One writer per session: each append holds `<sessionId>.jsonl.lock` (pid, host, time) while it
 *   checks that the file is the size this store last saw and writes. A session changed by another
 *   writer (process or store object) is refused with a `LeafConflictError` (`LEAF_CONFLICT`, with
 *   the current leaf) and nothing is appended; the session is read again, so a retry continues
 *   after the other writer's entries. A lock left by a dead process on this host is taken
 *   over; one held for over 2 s otherwise is refused, naming its owner.
 * - An append that would grow the file past `maxSessionBytes` is refused before anything is written.
 * - A session is read once and then served from memory (and read again after a refused append).
 *
 * @param options - The directory, a warning callback, the clock and the size cap.
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
  if (typeof options?.directory !== 'string' || options.directory.length === 0) {
    throw new StoreError({
      message: 'createJsonlStore needs a directory: createJsonlStore({ directory: ".sessions" }).',
      code: 'INPUT_INVALID',
    });
  }
  const { directory } = options;
  const now = options.now ?? Date.now;
  const maxSessionBytes = options.maxSessionBytes ?? DEFAULT_MAX_SESSION_BYTES;
  if (!Number.isSafeInteger(maxSessionBytes) || maxSessionBytes <= 0) {
    throw new ConfigError({
      message: `maxSessionBytes must be a positive integer number of bytes (got ${String(maxSessionBytes)}); the default is ${DEFAULT_MAX_SESSION_BYTES}.`,
      field: 'maxSessionBytes',
    });
  }
  /** Tells this store's lock files from another store object's in the same process. */
  const token = crypto.randomUUID();
  const loaded = new Map<string, Promise<LoadedSession>>();
  const queues = new Map<string, Promise<unknown>>();
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

  /** Reads a session: lazily (only line heads), or in full after a line did not match its head. */
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
  async function withSession<T>(sessionId: string, work: (session: LoadedSession) => T | Promise<T>): Promise<T> {
    const session = await load(sessionId);
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

  function load(sessionId: string): Promise<LoadedSession> {
    if (!isSessionId(sessionId)) return Promise.reject(sessionNotFound(sessionId));
    let session = loaded.get(sessionId);
    if (session === undefined) {
      session = read(sessionId);
      loaded.set(sessionId, session);
      session.catch(() => loaded.delete(sessionId));
    }
    return session;
  }

  /** Runs `task` after every earlier write to the session. */
  function enqueue<T>(sessionId: string, task: () => Promise<T>): Promise<T> {
    const previous = queues.get(sessionId) ?? Promise.resolve();
    const next = previous.then(task, task);
    const settled = next.catch(() => undefined);
    queues.set(sessionId, settled);
    void settled.then(() => {
      if (queues.get(sessionId) === settled) queues.delete(sessionId);
    });
    return next;
  }

  async function write(sessionId: string, session: LoadedSession, record: unknown): Promise<void> {
    const file = fileOf(sessionId);
    const line = `${session.endsWithNewline ? '' : '\n'}${JSON.stringify(record)}\n`;
    const bytes = Buffer.byteLength(line);
    if (session.size + bytes > maxSessionBytes) {
      throw new StoreError({
        message:
          `Session "${sessionId}" would grow to ${session.size + bytes} bytes, over maxSessionBytes ` +
          `(${maxSessionBytes}); nothing was appended. Start a new session (or branch this one) to go on, ` +
          'or raise maxSessionBytes.',
        code: 'STORE_FAILED',
      });
    }
    const release = await lockSession(sessionId, file, token, now());
    try {
      const handle = await open(file, constants.O_WRONLY | constants.O_APPEND).catch((error: unknown) => {
        session.endsWithNewline = false;
        if (errorCode(error) === 'ENOENT') {
          loaded.delete(sessionId);
          throw new StoreError({
            message: `${file} was removed while the session was open; nothing was appended.`,
            code: 'STORE_FAILED',
            cause: error,
          });
        }
        throw storeFailed('append to', file, error);
      });
      try {
        const { size } = await handle.stat();
        if (size !== session.size) {
          // Another process (or another store object) appended: appending from this store's view
          // would fork the tree silently. Read the session again, so a retry continues after it.
          loaded.delete(sessionId);
          const message =
            `Session "${sessionId}" was changed by another writer (${file} is ${size} bytes, this store last ` +
            `saw ${session.size}); nothing was appended. The session was read again: retry to append after ` +
            "the other writer's entries. Keep one writer per session.";
          const fresh = await load(sessionId).catch(() => undefined);
          if (fresh === undefined) throw new StoreError({ message, code: 'STORE_FAILED' });
          throw new LeafConflictError({
            message,
            sessionId,
            expectedLeafId: session.index.leafId,
            currentLeafId: fresh.index.leafId,
          });
        }
        await handle.write(line);
        await handle.sync();
        session.endsWithNewline = true;
        session.size += bytes;
      } catch (error) {
        if (StoreError.isInstance(error)) throw error;
        // A failed write may have left part of the line: read the session again next time.
        loaded.delete(sessionId);
        throw storeFailed('append to', file, error);
      } finally {
        await handle.close();
      }
    } finally {
      await release();
    }
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
      const file = fileOf(info.id);
      const header = `${JSON.stringify({ type: 'session', version: JSONL_FORMAT_VERSION, ...info })}\n`;
      try {
        await appendDurably(file, header, 'create');
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw storeFailed('create', file, error);
        if (!(await holdsTornHeader(file))) throw sessionExists(info.id);
        await appendDurably(file, header, 'replace').catch((cause: unknown) => {
          throw storeFailed('create', file, cause);
        });
      }
      await syncDirectory(directory);
      const size = Buffer.byteLength(header);
      const session = {
        index: new SessionIndex(info),
        endsWithNewline: true,
        size,
        full: true,
        reported: new Set<number>(),
      };
      loaded.set(info.id, Promise.resolve(session));
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
      return enqueue(sessionId, async () => {
        const { session, entry } = await withSession(sessionId, (session) => {
          checkExpectedLeaf(sessionId, options, session.index.leafId);
          return { session, entry: session.index.prepare(input, now()) };
        });
        await write(sessionId, session, entry);
        session.index.add(entry);
        return entry;
      });
    },
    async getEntries(sessionId: string): Promise<SessionEntry[]> {
      return withSession(sessionId, (session) => session.index.entries());
    },
    async getBranch(sessionId: string, leafId?: string | null, options?: { from?: 'root' | 'context' }) {
      const context = wantsContextBranch('getBranch', options);
      return withSession(sessionId, (session) => session.index.branch(leafId, context));
    },
    async getLeaf(sessionId: string): Promise<string | null> {
      return (await load(sessionId)).index.leafId;
    },
    setLeaf(sessionId: string, entryId: string | null, options?: SetLeafOptions): Promise<void> {
      return enqueue(sessionId, async () => {
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
      return withSession(sessionId, (session) => session.index.messages());
    },
    async close(): Promise<void> {
      await Promise.all([...queues.values()]);
    },
    getDiagnostics(): JsonlStoreWarning[] {
      return [...warnings];
    },
  };
}
