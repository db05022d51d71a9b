/**
 * The SQLite store's context-branch read: it walks the branch from the leaf to the latest
 * compaction's kept range with one recursive query over the tree's index, and finds the latest
 * model and thinking-level changes before it by type, so resuming a long session reads what its
 * context needs instead of every row.
 *
 * @internal
 */
import { markStoreEntries } from '../session/check-entries.js';
import type { SessionEntry } from '../session-entry.js';
import { entryOfRow } from './read-entry-rows.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-schema.js';

interface WalkRow {
  seq: number;
  id: string;
  role: string | null;
  cut: string | null;
  data_json: string;
}

/** The prepared statements of {@link readContextBranch}. @internal */
export function contextStatements(database: SqliteDatabase) {
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
export function readContextBranch(
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
