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
    span: database.prepare('SELECT max(seq) - min(seq) + 1 AS span FROM session_entries WHERE session_id = ?'),
    /** From the leaf up to the latest compaction's first kept entry (or the root), leaf first. */
    walk: database.prepare(`
      WITH RECURSIVE walk(seq, id, parent_id, role, cut, step) AS (
        SELECT seq, id, parent_id, role, compaction_first_kept_entry_id, 1
          FROM session_entries WHERE session_id = :session AND id = :leaf
        UNION ALL
        SELECT e.seq, e.id, e.parent_id, e.role, coalesce(w.cut, e.compaction_first_kept_entry_id), w.step + 1
          FROM walk w JOIN session_entries e ON e.session_id = :session AND e.id = w.parent_id
         WHERE (w.cut IS NULL OR w.id <> w.cut) AND w.step <= :span
      )
      SELECT w.seq, w.id, w.role, w.cut, e.data_json FROM walk w JOIN session_entries e ON e.seq = w.seq ORDER BY w.step`),
    /** One root and every other entry the only child of its parent: a single chain. */
    shape: database.prepare(
      'SELECT count(*) AS entries, count(DISTINCT parent_id) AS parents, sum(parent_id IS NULL) AS roots FROM session_entries WHERE session_id = ?',
    ),
    latestOfType: database.prepare(
      'SELECT seq, data_json FROM session_entries WHERE session_id = ? AND entry_type = ? AND seq < ? ORDER BY seq DESC LIMIT 1',
    ),
  } satisfies Record<string, SqliteStatement>;
}

const entryOf = (seq: number, json: string) => entryOfRow(json, () => seq);

/**
 * The context branch of `leafId` (see `SessionStore.getBranch`), or `undefined` when the store
 * must read the whole path instead: no compaction on it, a kept range that starts at a tool result,
 * a tree that is not one chain (the metadata before the cut would need the whole walk), or a walk
 * that does not reach the cut (a corrupt tree, which the whole read reports).
 *
 * @internal
 */
export function readContextBranch(
  statements: ReturnType<typeof contextStatements>,
  sessionId: string,
  leafId: string,
): SessionEntry[] | undefined {
  if (statements.hasCompaction.get(sessionId) === undefined) return undefined;
  const { span } = statements.span.get(sessionId) as { span: number };
  const rows = statements.walk.all({ session: sessionId, leaf: leafId, span }) as WalkRow[];
  const last = rows[rows.length - 1];
  if (last === undefined || last.cut === null || last.id !== last.cut || last.role === 'toolResult') return undefined;
  const shape = statements.shape.get(sessionId) as { entries: number; parents: number; roots: number };
  if (shape.roots !== 1 || shape.parents !== shape.entries - 1) return undefined;
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
