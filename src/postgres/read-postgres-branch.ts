import { SessionError } from '../errors.js';
import { sessionNotFound } from '../session/session-info.js';
import type { SessionEntry } from '../session-entry.js';
import type { EntryCache, EntryList } from './entry-cache.js';
import type { Query } from './postgres-connection.js';
import type { readQueries } from './postgres-queries.js';

interface BranchRow extends EntryList {
  leaf_id: string | null;
  linked: boolean | null;
}

interface WalkRow extends EntryList {
  leaf_id: string;
  entry_count: number;
  steps: number;
  missing_parent: string | null;
}

/**
 * The branch from the entry-by-entry walk, checking that it reached the root without a cycle.
 */
async function walkedBranch(
  sessionId: string,
  walk: WalkRow,
  cache: EntryCache,
  query: Query,
): Promise<SessionEntry[]> {
  if (walk.steps > walk.entry_count) {
    throw new SessionError({
      message: `The session tree has a cycle: following parentId from "${walk.leaf_id}" does not reach a root. The stored tree is corrupt.`,
      code: 'TREE_CYCLE',
    });
  }
  if (walk.missing_parent !== null) {
    throw new SessionError({
      message: `An entry of session "${sessionId}" names parent "${walk.missing_parent}", which is not in the session. The stored tree is incomplete; move the leaf to another branch with setLeaf.`,
      code: 'PARENT_MISSING',
    });
  }
  return cache.resolve(sessionId, walk, query);
}

/** What a branch read needs. @internal */
export interface BranchReadContext {
  query: Query;
  sql: ReturnType<typeof readQueries>;
  cache: EntryCache;
  sessionId: string;
}

/**
 * The whole path to a leaf (`undefined`: the session's leaf; `null`: empty), root first, in one
 * query (two for a table whose runs do not line up).
 *
 * @internal
 */
export async function readPostgresBranch(
  { query, sql, cache, sessionId }: BranchReadContext,
  leafId: string | null | undefined,
): Promise<SessionEntry[]> {
  if (leafId === null) {
    if ((await query(sql.leaf, [sessionId])).rows.length === 0) throw sessionNotFound(sessionId);
    return [];
  }
  const given = leafId !== undefined;
  const values = [sessionId, given, given ? leafId : null, cache.watermark(sessionId)];
  const { rows } = (await query(sql.branch, values)) as { rows: BranchRow[] };
  const head = rows[0];
  if (head === undefined) throw sessionNotFound(sessionId);
  if (head.list === null) {
    if (head.leaf_id === null) return [];
    throw new SessionError({
      message: `Entry "${head.leaf_id}" is not in session "${sessionId}".`,
      code: 'ENTRY_NOT_FOUND',
    });
  }
  if (head.linked === true) return cache.resolve(sessionId, head, query);
  // The runs do not line up (rows written by hand?): walk entry by entry, and report what is wrong.
  return walkedBranch(sessionId, (await query(sql.walk, values)).rows[0] as WalkRow, cache, query);
}
