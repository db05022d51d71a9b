import { ENTRY_COLUMNS, MESSAGE_COLUMNS } from '../sql/entry-row.js';
import type { SqliteDatabase } from './sqlite-schema.js';

/** `?, ?, …` for `count` parameters. */
const placeholders = (count: number) => new Array<string>(count).fill('?').join(', ');

/**
 * The statements of the SQLite store, prepared once per store.
 *
 * @internal
 */
export function prepareStatements(database: SqliteDatabase) {
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
