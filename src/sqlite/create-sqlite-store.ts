import { SessionError, StoreError } from '../errors.js';
import { checkExpectedLeaf } from '../session/check-expected-leaf.js';
import { wantsContextBranch } from '../session/context-branch.js';
import { entryToMessage } from '../session/entry-to-message.js';
import { prepareEntry } from '../session/prepare-entry.js';
import { SessionIndex } from '../session/session-index.js';
import {
  createSessionInfo,
  sessionExists,
  sessionNotFound,
  sortSessions,
  storedSessionInfo,
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
import { entryRows } from '../sql/entry-row.js';
import { contextStatements, readContextBranch } from './read-context-branch.js';
import { entryRowStatements, type RowsRead, readEntryRows } from './read-entry-rows.js';
import { ensureSchema, inTransaction, type SqliteDatabase } from './sqlite-schema.js';
import { prepareStatements } from './sqlite-statements.js';

/**
 * Options of {@link createSqliteStore}.
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * const options: CreateSqliteStoreOptions = { database: new Database('sessions.db') };
 * ```
 */
export interface CreateSqliteStoreOptions {
  /** A better-sqlite3 `Database` the host opened (and closes). */
  database: SqliteDatabase;
  /** The clock used for timestamps. @default Date.now */
  now?: () => number;
}

/** A session's index and where its read stopped (the entry at `lastSeq`: a host's rollback removes it or reuses its seq). */
interface CachedSession extends RowsRead {
  index: SessionIndex;
}

function isDatabase(value: unknown): value is SqliteDatabase {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as SqliteDatabase).prepare === 'function' &&
    typeof (value as SqliteDatabase).exec === 'function'
  );
}

/** The session info of a row of `sessions`, checked: a damaged row is named. */
function infoOfRow(row: { data_json: string }, sessionId: string): SessionInfo {
  return storedSessionInfo(row.data_json, `The sessions row of session "${sessionId}"`);
}

function failed(action: string, error: unknown): unknown {
  if (SessionError.isInstance(error) || StoreError.isInstance(error)) return error;
  return new StoreError({
    message: `Could not ${action} (${error instanceof Error ? error.message : String(error)}).`,
    code: 'STORE_FAILED',
    cause: error,
  });
}

/**
 * A {@link SessionStore} on SQLite, through a better-sqlite3 database the host opened. It creates
 * (or migrates) the schema of the durable-session design: `sessions`; `session_entries`, the tree,
 * with the whole entry as `data_json` and typed metadata columns (`tool_name`, `tool_status`,
 * `tool_args_json`, `token_estimate`, `model_facing`, `display`, `compaction_first_kept_entry_id`,
 * `compaction_tokens_before`, `branch_from_entry_id`); and `session_messages`, the flat transcript
 * index, written in the same transaction. The schema version is kept in a `ctxkit_meta` table.
 *
 * Entries are read back from `data_json`, exactly as written, and cached by id, so repeated reads
 * return the same objects. Rows another connection appended are picked up on the next call. Appends
 * nest inside a transaction the host has open (as a savepoint); when the host rolls it back, the
 * cache notices on the next call (the last cached row is gone or has another id) and reads the
 * session again, so nothing rolled back is served or used as a parent.
 *
 * @param options - The database and the clock.
 * @returns The store. Its `close()` does not close the database.
 * @throws `StoreError` (`DEPENDENCY_MISSING`) when `database` is not a better-sqlite3 database.
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * import { createSqliteStore } from 'ctxkit/sqlite';
 *
 * const store = createSqliteStore({ database: new Database('sessions.db') });
 * const { id } = await store.createSession();
 * ```
 */
export function createSqliteStore(options: CreateSqliteStoreOptions): SessionStore {
  const database: unknown = options?.database;
  if (!isDatabase(database)) {
    throw new StoreError({
      message:
        'createSqliteStore needs a better-sqlite3 database: run `npm install better-sqlite3`, then pass `createSqliteStore({ database: new Database(path) })` with `import Database from "better-sqlite3"`.',
      code: 'DEPENDENCY_MISSING',
    });
  }
  const now = options.now ?? Date.now;
  ensureSchema(database);
  const cache = new Map<string, CachedSession>();
  const statements = prepareStatements(database);
  const contextRead = contextStatements(database);
  const rowReads = entryRowStatements(database);

  /** The session's cached index, brought up to date with the database. */
  function refresh(sessionId: string): SessionIndex {
    const row = statements.session.get(sessionId) as { data_json: string; leaf_id: string | null } | undefined;
    if (row === undefined) {
      cache.delete(sessionId);
      throw sessionNotFound(sessionId);
    }
    let cached = cache.get(sessionId);
    if (cached !== undefined && cached.lastId !== null) {
      // A host transaction that was rolled back takes the cached rows with it: start over.
      const last = statements.entryAt.get(cached.lastSeq, sessionId) as { id: string } | undefined;
      if (last?.id !== cached.lastId) cached = undefined;
    }
    if (cached === undefined) {
      cached = { index: new SessionIndex(infoOfRow(row, sessionId)), lastSeq: 0, lastId: null };
      cache.set(sessionId, cached);
    }
    readEntryRows(rowReads, sessionId, cached.index, cached);
    cached.index.leafId = row.leaf_id;
    return cached.index;
  }

  function read<T>(action: string, work: () => T): Promise<T> {
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(failed(action, error));
    }
  }

  return {
    createSession: (init?: CreateSessionInit) =>
      read('create the session', () => {
        const info = createSessionInfo(init, now());
        if (statements.session.get(info.id) !== undefined) throw sessionExists(info.id);
        const createdAt = new Date(info.createdAt).toISOString();
        const cwd = typeof info.metadata?.['cwd'] === 'string' ? info.metadata['cwd'] : null;
        statements.insertSession.run(
          info.id,
          cwd,
          info.name ?? null,
          info.parentSessionId ?? null,
          createdAt,
          createdAt,
          JSON.stringify(info),
        );
        return info;
      }),
    getSession: (sessionId: string) =>
      read('read the session', () => {
        const cached = cache.get(sessionId);
        if (cached !== undefined) return cached.index.info;
        const row = statements.session.get(sessionId) as { data_json: string } | undefined;
        return row === undefined ? undefined : infoOfRow(row, sessionId);
      }),
    listSessions: () =>
      read('list the sessions', () => {
        const infos = (statements.sessions.all() as { id: string; data_json: string }[]).map((row) =>
          infoOfRow(row, row.id),
        );
        return sortSessions(infos);
      }),
    appendEntry: (sessionId: string, input: SessionEntryInput, options?: AppendEntryOptions) =>
      read('append the entry', () => {
        // The refresh inside the immediate transaction sees every other writer's rows, and none
        // can be added between it and the insert.
        const { index, entry, seq } = inTransaction(database, () => {
          const index = refresh(sessionId);
          checkExpectedLeaf(sessionId, options, index.leafId);
          const entry = prepareEntry(index, input, now());
          // A second child of the parent (or a second root) makes the tree more than one chain.
          if (statements.hasChild.get(sessionId, entry.parentId) !== undefined) statements.setBranched.run(sessionId);
          const rows = entryRows(sessionId, entry, index);
          const { lastInsertRowid } = statements.insertEntry.run(...rows.entry);
          if (rows.message !== undefined) statements.insertMessage.run(...rows.message);
          statements.setLeaf.run(entry.id, new Date(now()).toISOString(), sessionId);
          return { index, entry, seq: Number(lastInsertRowid) };
        });
        index.add(entry);
        const cached = cache.get(sessionId)!;
        cached.lastSeq = seq;
        cached.lastId = entry.id;
        return entry as SessionEntry;
      }),
    getEntries: (sessionId: string) => read('read the entries', () => refresh(sessionId).entries()),
    getBranch: (sessionId: string, leafId?: string | null, options?: { from?: 'root' | 'context' }) =>
      read('read the branch', () => {
        const context = wantsContextBranch('getBranch', options);
        if (context && leafId !== null) {
          // A resume reads the context branch alone; the cases it cannot serve read the whole path.
          const row = statements.session.get(sessionId) as { leaf_id: string | null; branched: number } | undefined;
          if (row === undefined) throw sessionNotFound(sessionId);
          const leaf = leafId ?? row.leaf_id;
          const branch = leaf === null ? [] : readContextBranch(contextRead, sessionId, leaf, row.branched !== 0);
          if (branch !== undefined) return branch;
        }
        return refresh(sessionId).branch(leafId, context);
      }),
    getLeaf: (sessionId: string) => read('read the leaf', () => refresh(sessionId).leafId),
    setLeaf: (sessionId: string, entryId: string | null, options?: SetLeafOptions) =>
      read('move the leaf', () => {
        const index = inTransaction(database, () => {
          const index = refresh(sessionId);
          checkExpectedLeaf(sessionId, options, index.leafId);
          index.checkEntry(entryId);
          statements.setLeaf.run(entryId, new Date(now()).toISOString(), sessionId);
          return index;
        });
        index.leafId = entryId;
      }),
    getMessages: (sessionId: string) =>
      read('read the messages', () => {
        const index = refresh(sessionId);
        const transcript: TranscriptMessage[] = [];
        for (const { entry_id } of statements.messages.all(sessionId) as { entry_id: string }[]) {
          const found = index.get(entry_id);
          const message = found === undefined ? undefined : entryToMessage(found);
          if (found !== undefined && message !== undefined) {
            transcript.push({ entryId: found.id, timestamp: found.timestamp, message });
          }
        }
        return transcript;
      }),
    close: async () => {
      cache.clear();
    },
  };
}
