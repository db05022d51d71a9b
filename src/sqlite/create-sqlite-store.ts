import { SessionError, StoreError } from '../errors.js';
import { markStoreEntries } from '../session/check-entries.js';
import { checkExpectedLeaf } from '../session/check-expected-leaf.js';
import { wantsContextBranch } from '../session/context-branch.js';
import { entryToMessage } from '../session/entry-to-message.js';
import { parseStoredEntry } from '../session/parse-stored-entry.js';
import { prepareEntry } from '../session/prepare-entry.js';
import { checkToolResultSearch, queryWords, toolResultText } from '../session/search-tool-results.js';
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
  ToolResultHit,
  ToolResultSearch,
  TranscriptMessage,
} from '../session/session-store.js';
import type { SessionEntry, SessionEntryInput } from '../session-entry.js';
import { ENTRY_COLUMNS, entryRows, MESSAGE_COLUMNS } from '../sql/entry-row.js';
import type { ToolResultMessage } from '../types.js';
import {
  ensureSchema,
  indexToolResult,
  inTransaction,
  type SqliteDatabase,
  type SqliteStatement,
  toolResultIndexStatements,
} from './sqlite-schema.js';

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
  const indexing = toolResultIndexStatements(database);
  const searching = searchStatements(database);

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
          if (entry.type === 'message' && entry.message.role === 'toolResult')
            indexToolResult(indexing, sessionId, Number(lastInsertRowid), entry.message);
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
    searchToolResults: (sessionId: string, search: ToolResultSearch) =>
      read('search the tool results', () => {
        const checked = checkToolResultSearch(search, 'searchToolResults');
        return searchIndexed(searching, sessionId, checked);
      }),
    close: async () => {
      cache.clear();
    },
  };
}

/** The statements of `searchToolResults`. @internal */
function searchStatements(database: SqliteDatabase) {
  return {
    session: database.prepare('SELECT leaf_id, branched FROM sessions WHERE id = ?'),
    seqOf: plucked(database.prepare('SELECT seq FROM session_entries WHERE session_id = ? AND id = ?')),
    byId: plucked(
      database.prepare(
        'SELECT entry_seq FROM session_tool_results WHERE session_id = ? AND tool_call_id = ? UNION SELECT entry_seq FROM session_tool_results WHERE session_id = ? AND recall_id = ? ORDER BY 1',
      ),
    ),
    /** Newest first: FTS5 walks its row ids backwards and stops at the limit (bm25 would score every match). */
    byWords: plucked(
      database.prepare(
        `SELECT t.entry_seq FROM session_tool_results_fts AS f JOIN session_tool_results AS t ON t.entry_seq = f.rowid
         WHERE session_tool_results_fts MATCH ? AND f.rowid <= ? AND t.session_id = ? ORDER BY f.rowid DESC LIMIT ?`,
      ),
    ),
    /** The seqs of the branch from the leaf up, as far as `seq` (parents are always older). */
    branchDownTo: plucked(
      database.prepare(
        `WITH RECURSIVE up(id, parent_id, seq) AS (
           SELECT id, parent_id, seq FROM session_entries WHERE session_id = ? AND id = ?
           UNION ALL
           SELECT e.id, e.parent_id, e.seq FROM up JOIN session_entries AS e ON e.session_id = ? AND e.id = up.parent_id
           WHERE up.seq > ?)
         SELECT seq FROM up`,
      ),
    ),
    entry: database.prepare('SELECT id, data_json FROM session_entries WHERE seq = ?'),
  };
}

/** FTS5 queries matching every word, then any of them (each a quoted string, never read as syntax). */
function ftsQueries(query: string): { every: string; any: string } | undefined {
  const words = queryWords(query).map((word) => `"${word.replace(/"/g, '""')}"`);
  return words.length === 0 ? undefined : { every: words.join(' '), any: words.join(' OR ') };
}

/**
 * The indexed search: candidates from the index (by id; or by words: the newest results holding
 * every word, then the newest holding any), kept when they are on the branch ending at the leaf.
 * Newest first rather than FTS5's bm25: scoring every match of a word that most results hold took
 * 60 ms at 25,000 results, a walk back to the limit takes well under one (`npm run bench:recall`). A session that is one chain (`branched` 0) has
 * every entry up to the leaf on it; otherwise the branch is walked from the leaf up to the oldest
 * candidate.
 */
function searchIndexed(
  statements: ReturnType<typeof searchStatements>,
  sessionId: string,
  search: ToolResultSearch & { limit: number },
): ToolResultHit[] {
  const session = statements.session.get(sessionId) as { leaf_id: string | null; branched: number } | undefined;
  if (session === undefined) throw sessionNotFound(sessionId);
  const leaf = search.leafId === undefined ? session.leaf_id : search.leafId;
  if (leaf === null) return [];
  const leafSeq = statements.seqOf.get(sessionId, leaf) as number | undefined;
  if (leafSeq === undefined)
    throw new SessionError({
      message: `searchToolResults: there is no entry "${leaf}" in session "${sessionId}".`,
      code: 'ENTRY_NOT_FOUND',
    });
  const branched = session.branched !== 0;
  let candidates: number[];
  if (search.id !== undefined) {
    candidates = (statements.byId.all(sessionId, search.id, sessionId, search.id) as number[]).filter(
      (seq) => seq <= leafSeq,
    );
  } else {
    const queries = ftsQueries(search.query!);
    if (queries === undefined) return [];
    // Another branch's results can take places: read more of them where there are other branches.
    const limit = branched ? search.limit * 4 + 20 : search.limit;
    candidates = statements.byWords.all(queries.every, leafSeq, sessionId, limit) as number[];
    if (candidates.length < limit && queries.any !== queries.every) {
      const seen = new Set(candidates);
      for (const seq of statements.byWords.all(queries.any, leafSeq, sessionId, limit) as number[])
        if (!seen.has(seq) && candidates.length < limit) candidates.push(seq);
    }
  }
  if (branched && candidates.length > 0) {
    const oldest = Math.min(...candidates);
    const onBranch = new Set(statements.branchDownTo.all(sessionId, leaf, sessionId, oldest) as number[]);
    candidates = candidates.filter((seq) => onBranch.has(seq));
  }
  if (search.query !== undefined) candidates = candidates.slice(0, search.limit);
  return candidates.map((seq) => {
    const row = statements.entry.get(seq) as { id: string; data_json: string };
    const message = (JSON.parse(row.data_json) as { message: ToolResultMessage }).message;
    return {
      entryId: row.id,
      toolCallId: message.toolCallId,
      toolName: message.toolName,
      text: toolResultText(message),
    };
  });
}

/** `?, ?, …` for `count` parameters. */
const placeholders = (count: number) => new Array<string>(count).fill('?').join(', ');

/**
 * The statements of the SQLite store, prepared once per store.
 *
 * @internal
 */
function prepareStatements(database: SqliteDatabase) {
  return {
    insertSession: database.prepare(
      'INSERT INTO sessions (id, cwd, name, parent_session, created_at, updated_at, leaf_id, data_json) VALUES (?, ?, ?, ?, ?, ?, NULL, ?)',
    ),
    session: database.prepare('SELECT data_json, leaf_id, branched FROM sessions WHERE id = ?'),
    /** Whether an entry of the session already has this parent (`NULL`: whether it has a root). */
    hasChild: database.prepare(
      'SELECT 1 AS found FROM session_entries WHERE session_id = ? AND parent_id IS ? LIMIT 1',
    ),
    setBranched: database.prepare('UPDATE sessions SET branched = 1 WHERE id = ?'),
    sessions: database.prepare('SELECT id, data_json FROM sessions'),
    entryAt: database.prepare('SELECT id FROM session_entries WHERE seq = ? AND session_id = ?'),
    insertEntry: database.prepare(
      `INSERT INTO session_entries (${ENTRY_COLUMNS.join(', ')}) VALUES (${placeholders(ENTRY_COLUMNS.length)})`,
    ),
    insertMessage: database.prepare(
      `INSERT INTO session_messages (${MESSAGE_COLUMNS.join(', ')}) VALUES (${placeholders(MESSAGE_COLUMNS.length)})`,
    ),
    setLeaf: database.prepare('UPDATE sessions SET leaf_id = ?, updated_at = ? WHERE id = ?'),
    messages: database.prepare('SELECT entry_id FROM session_messages WHERE session_id = ? ORDER BY seq'),
  };
}

/**
 * The SQLite store's read of a session's rows into its cached index.
 *
 * @internal
 */

/** The statement returning the first column's value alone where the driver can (no row object or array). */
function plucked(statement: SqliteStatement): SqliteStatement {
  return typeof statement.pluck === 'function' ? statement.pluck(true) : statement;
}

/** The prepared statements of {@link readEntryRows}. @internal */
function entryRowStatements(database: SqliteDatabase) {
  return {
    lastSeq: plucked(database.prepare('SELECT max(seq) FROM session_entries WHERE session_id = ?')),
    /** Only the JSON: a second column costs each row an array (a third of reading the rows). */
    between: plucked(
      database.prepare(
        'SELECT data_json FROM session_entries WHERE session_id = ? AND seq > ? AND seq <= ? ORDER BY seq',
      ),
    ),
    seqAt: plucked(
      database.prepare(
        'SELECT seq FROM session_entries WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT 1 OFFSET ?',
      ),
    ),
  } satisfies Record<string, SqliteStatement>;
}

/** Where a cached session's read stopped. @internal */
interface RowsRead {
  /** The seq of the last row read (`0` before any). */
  lastSeq: number;
  /** The id of the entry at `lastSeq`. */
  lastId: string | null;
}

/**
 * The entry a row's `data_json` holds; `seqOf` gives the row's seq for the error, only when needed.
 *
 * @throws `StoreError` (`STORE_CORRUPT`) naming the row when it is not JSON or not a valid entry.
 * @internal
 */
function entryOfRow(json: string, seqOf: () => unknown): SessionEntry {
  let parsed: ReturnType<typeof parseStoredEntry>;
  try {
    parsed = parseStoredEntry(JSON.parse(json));
  } catch (error) {
    parsed = { problem: `its data_json is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if ('entry' in parsed) return parsed.entry;
  throw new StoreError({
    message: `Row ${String(seqOf())} of session_entries is not a valid entry: ${parsed.problem}.`,
    code: 'STORE_CORRUPT',
  });
}

/** A column of a row: the value itself when the statement plucks it. */
const columnValue = (row: unknown, column: string) =>
  typeof row === 'object' && row !== null ? (row as Record<string, unknown>)[column] : row;

/**
 * Adds the session's rows after `read.lastSeq` to `index`, in order, and moves `read` past them.
 *
 * @throws `StoreError` (`STORE_CORRUPT`) naming the first row that is not a valid entry.
 * @internal
 */
function readEntryRows(
  statements: ReturnType<typeof entryRowStatements>,
  sessionId: string,
  index: SessionIndex,
  read: RowsRead,
): void {
  // The rows up to the last seq now: rows appended meanwhile get higher seqs and are read next time.
  const last = columnValue(statements.lastSeq.get(sessionId), 'max(seq)') as number | null;
  if (last === null || last <= read.lastSeq) return;
  const after = read.lastSeq;
  // One row at a time, each parsed as it comes: rows read with `all()` would all survive until
  // parsed, and the garbage collector copies every surviving row string (half a 100k-entry read).
  const { between } = statements;
  const rows = between.iterate?.(sessionId, after, last) ?? between.all(sessionId, after, last);
  let count = 0;
  for (const row of rows) {
    const entry = entryOfRow(columnValue(row, 'data_json') as string, () =>
      columnValue(statements.seqAt.get(sessionId, after, count), 'seq'),
    );
    index.add(entry);
    // Moved row by row while `lastSeq` moves at the end: a read that throws leaves them apart, so
    // the next refresh finds another id at `lastSeq` and starts over instead of adding rows twice.
    read.lastId = entry.id;
    count++;
  }
  if (count > 0) read.lastSeq = last;
}

/**
 * The SQLite store's context-branch read: it walks the branch from the leaf to the latest
 * compaction's kept range with one recursive query over the tree's index, and finds the latest
 * model and thinking-level changes before it by type, so resuming a long session reads what its
 * context needs instead of every row.
 *
 * @internal
 */

interface WalkRow {
  seq: number;
  id: string;
  role: string | null;
  cut: string | null;
  data_json: string;
}

/** The prepared statements of {@link readContextBranch}. @internal */
function contextStatements(database: SqliteDatabase) {
  return {
    hasCompaction: database.prepare(
      "SELECT 1 AS found FROM session_entries WHERE session_id = ? AND entry_type = 'compaction' LIMIT 1",
    ),
    /**
     * From the leaf up to the latest compaction's first kept entry (or the root), leaf first. A
     * parent is appended before its children, so each step goes to a lower seq: a corrupt tree
     * (a cycle) ends the walk early instead of looping, and the whole read reports it.
     */
    walk: database.prepare(`
      WITH RECURSIVE walk(seq, id, parent_id, role, cut) AS (
        SELECT seq, id, parent_id, role, compaction_first_kept_entry_id
          FROM session_entries WHERE session_id = :session AND id = :leaf
        UNION ALL
        SELECT e.seq, e.id, e.parent_id, e.role, coalesce(w.cut, e.compaction_first_kept_entry_id)
          FROM walk w JOIN session_entries e ON e.session_id = :session AND e.id = w.parent_id
         WHERE (w.cut IS NULL OR w.id <> w.cut) AND e.seq < w.seq
      )
      SELECT w.seq, w.id, w.role, w.cut, e.data_json FROM walk w JOIN session_entries e ON e.seq = w.seq ORDER BY w.seq DESC`),
    latestOfType: database.prepare(
      'SELECT seq, data_json FROM session_entries WHERE session_id = ? AND entry_type = ? AND seq < ? ORDER BY seq DESC LIMIT 1',
    ),
  } satisfies Record<string, SqliteStatement>;
}

const entryOf = (seq: number, json: string) => entryOfRow(json, () => seq);

/**
 * The context branch of `leafId` (see `SessionStore.getBranch`), or `undefined` when the store
 * must read the whole path instead: no compaction on it, a kept range that starts at a tool result,
 * a tree that is not one chain (`branched`, kept by each append: the metadata before the cut would
 * need the whole walk), or a walk that does not reach the cut (a corrupt tree, which the whole read
 * reports). Every statement is an index lookup: a resume costs what its context branch costs.
 *
 * @internal
 */
function readContextBranch(
  statements: ReturnType<typeof contextStatements>,
  sessionId: string,
  leafId: string,
  branched: boolean,
): SessionEntry[] | undefined {
  // More than one chain: the latest metadata before the cut may be on another branch (whole walk).
  if (branched || statements.hasCompaction.get(sessionId) === undefined) return undefined;
  const rows = statements.walk.all({ session: sessionId, leaf: leafId }) as WalkRow[];
  const last = rows[rows.length - 1];
  if (last === undefined || last.cut === null || last.id !== last.cut || last.role === 'toolResult') return undefined;
  // One chain: every entry appended before the cut is on its branch, so the latest of a type is the one.
  const head: { seq: number; data_json: string }[] = [];
  for (const type of ['model_change', 'thinking_level_change']) {
    const row = statements.latestOfType.get(sessionId, type, last.seq) as
      | { seq: number; data_json: string }
      | undefined;
    if (row !== undefined) head.push(row);
  }
  head.sort((a, b) => a.seq - b.seq);
  const branch = head.map((row) => entryOf(row.seq, row.data_json));
  for (let index = rows.length - 1; index >= 0; index--) branch.push(entryOf(rows[index]!.seq, rows[index]!.data_json));
  return markStoreEntries(branch);
}
