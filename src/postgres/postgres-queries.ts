import type { PostgresTables } from './postgres-schema.js';

/**
 * The read statements of the PostgreSQL store. Each takes the session id as `$1` and the cache's
 * watermark as the last parameter: rows above it come with their JSON, the rest by sequence
 * number only (the cache has them, or fetches them).
 *
 * @internal
 */
export function readQueries(tables: PostgresTables) {
  const { sessions, entries, messages } = tables;
  const data = (alias: string, watermark: string) =>
    `CASE WHEN ${alias}.seq > ${watermark}::bigint THEN coalesce(${alias}.data::text, ${alias}.data_text) END`;
  return {
    /**
     * The branch from a leaf (`$3` when `$2` is true, else the session's leaf) to the root, in one
     * recursive walk along the `(session_id, id)` index, deepest first; one row with a null `seq`
     * when the branch is empty; no row when there is no session. The walk stops after
     * `entry_count + 1` steps, so a cycle ends (and is reported).
     */
    branch: `
      WITH RECURSIVE head AS (
        SELECT s.entry_count, CASE WHEN $2::boolean THEN $3::text ELSE s.leaf_id END AS leaf_id
          FROM ${sessions} s WHERE s.id = $1
      ), walk AS (
        SELECT e.seq, e.parent_id, 1 AS depth, ${data('e', '$4')} AS data
          FROM head JOIN ${entries} e ON e.session_id = $1 AND e.id = head.leaf_id
        UNION ALL
        SELECT e.seq, e.parent_id, w.depth + 1, ${data('e', '$4')}
          FROM walk w JOIN ${entries} e ON e.session_id = $1 AND e.id = w.parent_id
         WHERE w.depth <= (SELECT entry_count FROM head)
      )
      SELECT head.leaf_id, head.entry_count, w.seq, w.parent_id, w.data
        FROM head LEFT JOIN walk w ON true
       ORDER BY w.depth DESC`,
    /** Every entry in append order; one row with a null `seq` for an empty session. */
    entries: `
      SELECT e.seq, ${data('e', '$2')} AS data
        FROM ${sessions} s LEFT JOIN ${entries} e ON e.session_id = s.id
       WHERE s.id = $1
       ORDER BY e.seq`,
    /** The entries that carry a transcript message, in append order. */
    messages: `
      SELECT e.seq, ${data('e', '$2')} AS data
        FROM ${sessions} s
        LEFT JOIN ${messages} m ON m.session_id = s.id
        LEFT JOIN ${entries} e ON e.session_id = m.session_id AND e.id = m.entry_id
       WHERE s.id = $1
       ORDER BY m.seq`,
    leaf: `SELECT leaf_id FROM ${sessions} WHERE id = $1`,
    session: `SELECT info FROM ${sessions} WHERE id = $1`,
    sessions: `SELECT info FROM ${sessions}`,
    lockSession: `SELECT leaf_id, entry_count FROM ${sessions} WHERE id = $1 FOR UPDATE`,
    existing: `SELECT id FROM ${entries} WHERE session_id = $1 AND id = ANY($2::text[])`,
    setLeaf: `UPDATE ${sessions} SET leaf_id = $2, updated_at = to_timestamp($3::float8 / 1000) WHERE id = $1`,
    insertSession: `
      INSERT INTO ${sessions} (id, cwd, name, parent_session, created_at, updated_at, leaf_id, entry_count, info)
      VALUES ($1, $2, $3, $4, to_timestamp($5::float8 / 1000), to_timestamp($5::float8 / 1000), NULL, 0, $6::jsonb)
      ON CONFLICT (id) DO NOTHING
      RETURNING id`,
  };
}
