/**
 * The SQLite store's read of a session's rows into its cached index.
 *
 * @internal
 */
import { StoreError } from '../errors.js';
import { parseStoredEntry } from '../session/parse-stored-entry.js';
import type { SessionIndex } from '../session/session-index.js';
import type { SessionEntry } from '../session-entry.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-schema.js';

/** The statement returning the first column's value alone where the driver can (no row object or array). */
function plucked(statement: SqliteStatement): SqliteStatement {
  return typeof statement.pluck === 'function' ? statement.pluck(true) : statement;
}

/** The prepared statements of {@link readEntryRows}. @internal */
export function entryRowStatements(database: SqliteDatabase) {
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
export interface RowsRead {
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
export function entryOfRow(json: string, seqOf: () => unknown): SessionEntry {
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
export function readEntryRows(
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
