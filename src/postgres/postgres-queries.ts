import { runsOfBranch } from './append-entry-rows.js';
import type { PostgresTables } from './postgres-tables.js';

/**
 * The read statements of the PostgreSQL store. Each takes the session id as `$1` and the cache's
 * watermark as the last parameter. The entry reads return one row whose `list` is a JSON array
 * of the rows in order, as pairs: the row's sequence number, then its entry, or `null` for rows at
 * or below the watermark (the cache has them, or fetches them). One string to parse instead of a
 * row object per entry, and one sort, are what keep a 100,000-entry read fast.
 *
 * @internal
 */
export function readQueries(tables: PostgresTables) {
  const { sessions, entries, messages } = tables;
  const json = (alias: string, watermark: string) =>
    `CASE WHEN ${alias}.seq > ${watermark}::bigint THEN coalesce(${alias}.data_text, ${alias}.data::text) END`;
  /** The `list` of rows with `seq` and `data`, in an order. */
  const list = (order: string) =>
    `'[' || string_agg(seq::text || ',' || coalesce(data, 'null'), ',' ORDER BY ${order}) || ']' AS list`;
  return {
    /**
     * The branch from a leaf (`$3` when `$2` is true, else the session's leaf) to the root, root
     * first: the runs (chains without a fork) the branch goes through, then each run's entries up
     * to where the branch leaves it, by an index range scan. `linked` says that each row's parent
     * is the row before (a corrupt table fails it; see `walk`). A null `list` when the branch is
     * empty or the leaf is unknown; no row when there is no session.
     */
    branch: `
      WITH RECURSIVE head AS (
        SELECT s.entry_count, CASE WHEN $2::boolean THEN $3::text ELSE s.leaf_id END AS leaf_id
          FROM ${sessions} s WHERE s.id = $1
      ), ${runsOfBranch(tables, '(SELECT leaf_id FROM head)', '(SELECT entry_count FROM head)')},
      path AS (
        SELECT seq, depth, data, parent_id IS NOT DISTINCT FROM lag(id) OVER (ORDER BY depth) AS linked
          FROM (
            -- OFFSET 0 keeps the JSON choice here, so that the sort carries no JSON it will not send.
            SELECT e.seq, e.depth, e.id, e.parent_id, ${json('e', '$4')} AS data
              FROM runs JOIN ${entries} e ON e.session_id = $1 AND e.run_id = runs.run_id AND e.depth <= runs.upto
            OFFSET 0
          ) AS branch
      )
      SELECT head.leaf_id, listed.list, listed.linked
        FROM head LEFT JOIN LATERAL (SELECT ${list('depth')}, bool_and(linked) AS linked FROM path) AS listed ON true`,
    /**
     * The same branch walked entry by entry along `parent_id`, for a table whose runs do not line
     * up. It stops after `entry_count + 1` steps, so a cycle ends (and is reported), and
     * `missing_parent` names a parent that is not there.
     */
    walk: `
      WITH RECURSIVE head AS (
        SELECT s.entry_count, CASE WHEN $2::boolean THEN $3::text ELSE s.leaf_id END AS leaf_id
          FROM ${sessions} s WHERE s.id = $1
      ), walk AS (
        SELECT e.seq, e.parent_id, 1 AS step, ${json('e', '$4')} AS data
          FROM head JOIN ${entries} e ON e.session_id = $1 AND e.id = head.leaf_id
        UNION ALL
        SELECT e.seq, e.parent_id, w.step + 1, ${json('e', '$4')}
          FROM walk w JOIN ${entries} e ON e.session_id = $1 AND e.id = w.parent_id
         WHERE w.step <= (SELECT entry_count FROM head)
      )
      SELECT head.leaf_id, head.entry_count, (SELECT ${list('step DESC')} FROM walk) AS list,
             (SELECT count(*) FROM walk)::int AS steps,
             (SELECT parent_id FROM walk ORDER BY step DESC LIMIT 1) AS missing_parent
        FROM head`,
    /** Every entry in append order. */
    entries: `
      WITH listed AS (SELECT e.seq, ${json('e', '$2')} AS data FROM ${entries} e WHERE e.session_id = $1)
      SELECT (SELECT ${list('seq')} FROM listed) AS list FROM ${sessions} s WHERE s.id = $1`,
    /** The entries that carry a transcript message, in transcript order. */
    messages: `
      WITH listed AS (
        SELECT e.seq, m.seq AS position, ${json('e', '$2')} AS data
          FROM ${messages} m JOIN ${entries} e ON e.session_id = m.session_id AND e.id = m.entry_id
         WHERE m.session_id = $1
      )
      SELECT (SELECT ${list('position')} FROM listed) AS list FROM ${sessions} s WHERE s.id = $1`,
    leaf: `SELECT leaf_id FROM ${sessions} WHERE id = $1`,
    /** The info as written (`info_text`), or as jsonb kept it for a session created before migration 2. */
    session: `SELECT coalesce(info_text, info::text) AS info FROM ${sessions} WHERE id = $1`,
    sessions: `SELECT coalesce(info_text, info::text) AS info FROM ${sessions}`,
    existing: `SELECT id FROM ${entries} WHERE session_id = $1 AND id = ANY($2::text[])`,
    setLeaf: `UPDATE ${sessions} SET leaf_id = $2, updated_at = to_timestamp($3::float8 / 1000) WHERE id = $1`,
    insertSession: `
      INSERT INTO ${sessions} (id, cwd, name, parent_session, created_at, updated_at, leaf_id, entry_count, info, info_text)
      VALUES ($1, $2, $3, $4, to_timestamp($5::float8 / 1000), to_timestamp($5::float8 / 1000), NULL, 0, $7::jsonb, $6)
      ON CONFLICT (id) DO NOTHING
      RETURNING id`,
  };
}
