import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SessionError, StoreError } from '../errors.js';
import {
  createSessionInfo,
  isSessionId,
  SessionIndex,
  sessionExists,
  sessionNotFound,
  sortSessions,
} from '../session/session-index.js';
import type { CreateSessionInit, SessionInfo, SessionStore, TranscriptMessage } from '../session/session-store.js';
import type { SessionEntry, SessionEntryInput } from '../types.js';
import {
  appendDurably,
  applyLine,
  errorCode,
  JSONL_FORMAT_VERSION,
  parseHeader,
  readInfo,
  storeFailed,
  syncDirectory,
} from './jsonl-file.js';

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
}

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

interface LoadedSession {
  index: SessionIndex;
  /** Whether the file ends with a newline; if not, the next write starts with one. */
  endsWithNewline: boolean;
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
 * - A session is read once and then served from memory: one process should write a session at a time.
 *
 * @param options - The directory, a warning callback and the clock.
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

  async function read(sessionId: string): Promise<LoadedSession> {
    const file = fileOf(sessionId);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') throw sessionNotFound(sessionId);
      throw storeFailed('read', file, error);
    }
    const lines = text.split('\n');
    const endsWithNewline = text.endsWith('\n');
    if (lines.length === 1 && !isCompleteHeader(text)) {
      // A crash while the session was created tore its header: the session never existed.
      warn({
        sessionId,
        file,
        line: 1,
        torn: true,
        reason: 'the header line was cut off; the session counts as never created',
      });
      throw sessionNotFound(sessionId);
    }
    const index = new SessionIndex(parseHeader(lines[0] ?? '', file, sessionId));
    for (let number = 2; number <= lines.length; number++) {
      const line = lines[number - 1]!;
      if (line.trim().length === 0) continue;
      const torn = number === lines.length && !endsWithNewline;
      const problem = applyLine(index, line);
      if (problem !== undefined) warn({ sessionId, file, line: number, torn, reason: problem });
    }
    return { index, endsWithNewline };
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
    try {
      await appendDurably(file, line, 'append');
      session.endsWithNewline = true;
    } catch (error) {
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
      loaded.set(info.id, Promise.resolve({ index: new SessionIndex(info), endsWithNewline: true }));
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
    appendEntry(sessionId: string, input: SessionEntryInput): Promise<SessionEntry> {
      return enqueue(sessionId, async () => {
        const session = await load(sessionId);
        const entry = session.index.prepare(input, now());
        await write(sessionId, session, entry);
        session.index.add(entry);
        return entry;
      });
    },
    async getEntries(sessionId: string): Promise<SessionEntry[]> {
      return [...(await load(sessionId)).index.entries];
    },
    async getBranch(sessionId: string, leafId?: string | null): Promise<SessionEntry[]> {
      return (await load(sessionId)).index.branch(leafId);
    },
    async getLeaf(sessionId: string): Promise<string | null> {
      return (await load(sessionId)).index.leafId;
    },
    setLeaf(sessionId: string, entryId: string | null): Promise<void> {
      return enqueue(sessionId, async () => {
        const session = await load(sessionId);
        session.index.checkEntry(entryId);
        if (session.index.leafId === entryId) return;
        await write(sessionId, session, { type: 'leaf', leafId: entryId, timestamp: now() });
        session.index.leafId = entryId;
      });
    },
    async getMessages(sessionId: string): Promise<TranscriptMessage[]> {
      return (await load(sessionId)).index.messages();
    },
    async close(): Promise<void> {
      await Promise.all([...queues.values()]);
    },
    getDiagnostics(): JsonlStoreWarning[] {
      return [...warnings];
    },
  };
}

/** Whether `text` (a file with no newline) is a whole header line that only lacks its newline. */
function isCompleteHeader(text: string): boolean {
  try {
    parseHeader(text, '');
    return true;
  } catch {
    return false;
  }
}

/** Whether a session file holds only a header cut off by a crash (no newline, not a whole header). */
async function holdsTornHeader(file: string): Promise<boolean> {
  try {
    const text = await readFile(file, 'utf8');
    return !text.includes('\n') && !isCompleteHeader(text);
  } catch {
    return false;
  }
}
