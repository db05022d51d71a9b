import { StoreError } from '../errors.js';
import { recallIdOf } from '../messages/recall-id.js';
import { toolResultText } from '../session/search-tool-results.js';
import type { ToolResultMessage } from '../types.js';

/**
 * A prepared statement, typed structurally after better-sqlite3's `Statement` (positional
 * parameters only).
 *
 * @example
 * ```ts
 * const count = database.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number };
 * ```
 */
export interface SqliteStatement {
  /** Runs the statement; returns at least the last inserted row id. */
  run(...parameters: unknown[]): { lastInsertRowid: number | bigint; changes: number | bigint };
  /** The first row, or `undefined`. */
  get(...parameters: unknown[]): unknown;
  /** Every row. */
  all(...parameters: unknown[]): unknown[];
  /** better-sqlite3: the rows one at a time (a long read then holds no row it has used). */
  iterate?(...parameters: unknown[]): IterableIterator<unknown>;
  /** better-sqlite3: return the first column's value instead of a row. */
  pluck?(toggle?: boolean): SqliteStatement;
}

/**
 * The part of a better-sqlite3 `Database` the SQLite store uses, typed structurally so that the
 * module never imports better-sqlite3 itself.
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * const database: SqliteDatabase = new Database('sessions.db');
 * ```
 */
export interface SqliteDatabase {
  /** Compiles a statement. */
  prepare(source: string): SqliteStatement;
  /** Runs one or more statements without results. */
  exec(source: string): unknown;
  /** Whether a transaction is open (better-sqlite3 has it); the store then nests in a savepoint. */
  readonly inTransaction?: boolean;
}

/** The schema version this release writes and reads. */
export const SQLITE_SCHEMA_VERSION = 4;

/** Each migration takes the schema from version `index` to `index + 1`: SQL, or a step that runs some. */
const MIGRATIONS: readonly (string | ((database: SqliteDatabase) => void))[] = [
  `CREATE TABLE IF NOT EXISTS sessions (
     id TEXT PRIMARY KEY,
     cwd TEXT,
     name TEXT,
     parent_session TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     leaf_id TEXT,
     data_json TEXT NOT NULL
   );
   CREATE TABLE IF NOT EXISTS session_entries (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL,
     session_id TEXT NOT NULL REFERENCES sessions(id),
     parent_id TEXT,
     entry_type TEXT NOT NULL,
     role TEXT,
     content TEXT,
     provider TEXT,
     model TEXT,
     custom_type TEXT,
     data_json TEXT NOT NULL,
     summary TEXT,
     created_at TEXT NOT NULL,
     tool_name TEXT,
     tool_status TEXT,
     tool_args_json TEXT,
     token_estimate INTEGER NOT NULL DEFAULT 0,
     model_facing INTEGER NOT NULL DEFAULT 0,
     display INTEGER NOT NULL DEFAULT 0,
     compaction_first_kept_entry_id TEXT,
     compaction_tokens_before INTEGER,
     branch_from_entry_id TEXT,
     UNIQUE (session_id, id)
   );
   CREATE INDEX IF NOT EXISTS session_entries_by_session ON session_entries (session_id, seq);
   CREATE TABLE IF NOT EXISTS session_messages (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL,
     session_id TEXT NOT NULL REFERENCES sessions(id),
     entry_id TEXT NOT NULL,
     sender TEXT NOT NULL,
     role TEXT NOT NULL,
     content TEXT NOT NULL,
     provider TEXT,
     model TEXT,
     created_at TEXT NOT NULL,
     UNIQUE (session_id, entry_id)
   );
   CREATE INDEX IF NOT EXISTS session_messages_by_session ON session_messages (session_id, seq);`,
  // 2: what a resume reads without scanning the session: entries of a type (the latest compaction,
  // model and thinking-level changes) and children by parent (whether the tree is one chain).
  `CREATE INDEX IF NOT EXISTS session_entries_by_type ON session_entries (session_id, entry_type, seq);
   CREATE INDEX IF NOT EXISTS session_entries_by_parent ON session_entries (session_id, parent_id);`,
  // 3: whether a session's tree is more than one chain (a second root, or an entry with two
  // children), kept by each append, so that a resume need not count the session's parents.
  `ALTER TABLE sessions ADD COLUMN branched INTEGER NOT NULL DEFAULT 0;
   UPDATE sessions SET branched = 1 WHERE id IN (
     SELECT session_id FROM session_entries GROUP BY session_id
     HAVING coalesce(sum(parent_id IS NULL), 0) <> 1 OR count(DISTINCT parent_id) <> count(*) - 1);`,
  // 4: the tool results `recall` finds, by tool call id, by recall id and by words (FTS5).
  createToolResultIndex,
];

/**
 * Migration 4: `session_tool_results` (a tool result entry's tool call id and recall id, by its
 * entry's `seq`) and `session_tool_results_fts`, an FTS5 index of its text with the row id of the
 * entry's `seq` (contentless: the text stays in `session_entries` only). Rows already stored are
 * indexed here, so an upgraded database finds the results written before it.
 */
function createToolResultIndex(database: SqliteDatabase): void {
  database.exec(`CREATE TABLE IF NOT EXISTS session_tool_results (
       entry_seq INTEGER PRIMARY KEY,
       session_id TEXT NOT NULL,
       tool_call_id TEXT NOT NULL,
       recall_id TEXT NOT NULL
     );
     CREATE INDEX IF NOT EXISTS session_tool_results_by_call ON session_tool_results (session_id, tool_call_id);
     CREATE INDEX IF NOT EXISTS session_tool_results_by_recall ON session_tool_results (session_id, recall_id);
     CREATE VIRTUAL TABLE IF NOT EXISTS session_tool_results_fts USING fts5(
       text, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
     );`);
  const insert = toolResultIndexStatements(database);
  const rows = database.prepare(
    "SELECT seq, session_id, data_json FROM session_entries WHERE entry_type = 'message' AND tool_name IS NOT NULL ORDER BY seq",
  );
  // All rows first: better-sqlite3 refuses writes on a connection that is iterating a read.
  for (const row of rows.all() as { seq: number; session_id: string; data_json: string }[]) {
    const message = (JSON.parse(row.data_json) as { message?: ToolResultMessage }).message;
    if (message?.role === 'toolResult') indexToolResult(insert, row.session_id, row.seq, message);
  }
}

/**
 * The statements that index a tool result (migration 4 and every append).
 *
 * @internal
 */
export function toolResultIndexStatements(database: SqliteDatabase) {
  return {
    row: database.prepare(
      'INSERT INTO session_tool_results (entry_seq, session_id, tool_call_id, recall_id) VALUES (?, ?, ?, ?)',
    ),
    text: database.prepare('INSERT INTO session_tool_results_fts (rowid, text) VALUES (?, ?)'),
  };
}

/**
 * Indexes the tool result stored at `seq`, in the transaction that stores it.
 *
 * @internal
 */
export function indexToolResult(
  statements: ReturnType<typeof toolResultIndexStatements>,
  sessionId: string,
  seq: number,
  message: ToolResultMessage,
): void {
  statements.row.run(seq, sessionId, message.toolCallId, recallIdOf(message.toolCallId));
  statements.text.run(seq, toolResultText(message));
}

/**
 * Runs `work` in an immediate transaction, rolling back when it throws.
 *
 * @internal
 */
export function inTransaction<T>(database: SqliteDatabase, work: () => T): T {
  // Inside the host's own transaction, nest: the work commits or rolls back with it.
  const nested = database.inTransaction === true;
  database.exec(nested ? 'SAVEPOINT ctxkit' : 'BEGIN IMMEDIATE');
  try {
    const result = work();
    database.exec(nested ? 'RELEASE ctxkit' : 'COMMIT');
    return result;
  } catch (error) {
    database.exec(nested ? 'ROLLBACK TO ctxkit; RELEASE ctxkit' : 'ROLLBACK');
    throw error;
  }
}

const OWN_TABLES = ['sessions', 'session_entries', 'session_messages'];

/** Before the first migration, tables of these names belong to someone else: refuse to share them. */
function refuseForeignTables(database: SqliteDatabase): void {
  for (const table of OWN_TABLES) {
    const row = database.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
    if (row !== undefined) {
      throw new StoreError({
        message: `The database already has a "${table}" table that ctxkit did not create (no ctxkit schema version is recorded). Give the session store its own database file, or move that table aside.`,
        code: 'STORE_CORRUPT',
      });
    }
  }
}

/**
 * The schema version the database records (`0` without ctxkit tables), read without writing,
 * checked: a damaged or newer version is refused.
 */
function recordedVersion(database: SqliteDatabase): number {
  const meta = database.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'ctxkit_meta'");
  if (meta.get() === undefined) return 0;
  const row = database.prepare("SELECT value FROM ctxkit_meta WHERE key = 'schema_version'").get() as
    | { value: string }
    | undefined;
  const version = row === undefined ? 0 : Number(row.value);
  if (!Number.isInteger(version) || version < 0) {
    throw new StoreError({
      message: `The database records ctxkit schema version "${row?.value}", which is not a version number. The ctxkit_meta table is damaged.`,
      code: 'STORE_CORRUPT',
    });
  }
  if (version > SQLITE_SCHEMA_VERSION) {
    throw new StoreError({
      message: `The database has ctxkit schema version ${version}, newer than this release reads (${SQLITE_SCHEMA_VERSION}). Upgrade ctxkit.`,
      code: 'STORE_CORRUPT',
    });
  }
  return version;
}

/**
 * Creates or migrates the ctxkit tables. The version lives in a `ctxkit_meta` table (not in
 * `PRAGMA user_version`, which the host's own schema may use). A database whose schema is current
 * is only read: opening it takes no write lock (a read-only connection opens it, and openers never
 * queue behind writers, nor fail with "database is locked" in rollback-journal mode).
 *
 * @internal
 */
export function ensureSchema(database: SqliteDatabase): void {
  try {
    if (recordedVersion(database) === SQLITE_SCHEMA_VERSION) return;
    inTransaction(database, () => {
      // Read again under the write lock: another connection may have migrated meanwhile.
      const version = recordedVersion(database);
      if (version === SQLITE_SCHEMA_VERSION) return;
      if (version === 0) refuseForeignTables(database);
      database.exec('CREATE TABLE IF NOT EXISTS ctxkit_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
      for (let step = version; step < SQLITE_SCHEMA_VERSION; step++) {
        const migration = MIGRATIONS[step]!;
        if (typeof migration === 'string') database.exec(migration);
        else migration(database);
      }
      database
        .prepare(
          "INSERT INTO ctxkit_meta (key, value) VALUES ('schema_version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        )
        .run(String(SQLITE_SCHEMA_VERSION));
    });
  } catch (error) {
    if (StoreError.isInstance(error)) throw error;
    throw new StoreError({
      message: `Could not create the session tables (${error instanceof Error ? error.message : String(error)}). Check that the database is writable and that its tables of the same names are ctxkit's.`,
      code: 'STORE_FAILED',
      cause: error,
    });
  }
}
