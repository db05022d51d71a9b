import { SessionError } from '../errors.js';
import { checkExpectedLeaf } from '../session/check-expected-leaf.js';
import { sessionNotFound } from '../session/session-info.js';
import type { AppendEntryOptions } from '../session/session-store.js';
import type { SessionEntry, SessionEntryInput } from '../session-entry.js';
import {
  completeEntry,
  insertStatement,
  onBranchQuery,
  toolArgumentsOf,
  toolArgumentsQuery,
  validateInput,
} from './append-entry-rows.js';
import type { Query } from './postgres-connection.js';
import type { PostgresTables } from './postgres-tables.js';

/**
 * Locks the session's row for the rest of the transaction; returns its leaf and entry count.
 *
 * @internal
 */
export async function lockSessionRow(
  query: Query,
  tables: PostgresTables,
  sessionId: string,
): Promise<{ leaf: string | null; count: number }> {
  const { rows } = await query(`SELECT leaf_id, entry_count FROM ${tables.sessions} WHERE id = $1 FOR UPDATE`, [
    sessionId,
  ]);
  if (rows.length === 0) throw sessionNotFound(sessionId);
  return { leaf: rows[0].leaf_id, count: rows[0].entry_count };
}

/** Where and when an entry is appended. @internal */
export interface AppendContext {
  query: Query;
  tables: PostgresTables;
  sessionId: string;
  /** The clock's time for the append. */
  now: number;
}

/**
 * Appends an entry inside the caller's transaction: locks the session's row, checks the expected
 * leaf, the parent and the references, and inserts the rows. Returns the entry and its row's
 * sequence number.
 *
 * @internal
 */
export async function appendPostgresEntry(
  { query, tables, sessionId, now }: AppendContext,
  input: SessionEntryInput,
  options?: AppendEntryOptions,
): Promise<{ entry: SessionEntry; seq: number }> {
  const validated = validateInput(input, sessionId);
  const { leaf, count } = await lockSessionRow(query, tables, sessionId);
  checkExpectedLeaf(sessionId, options, leaf);
  const parent = validated.parentId === undefined ? leaf : validated.parentId;
  const entry = completeEntry(validated, parent, now);
  const target = entry.type === 'branch_summary' ? entry.fromId : entry.type === 'label' ? entry.targetId : null;
  const taken = () =>
    new SessionError({
      message: `Entry id "${entry.id}" is already used in session "${sessionId}"; entry ids are unique.`,
      code: 'INPUT_INVALID',
    });
  // The leaf is an entry of the session: only a given parent or a target needs looking up (and
  // then the id too, to report it first); otherwise the unique index reports a taken id.
  const lookup = [parent === leaf ? null : parent, target].filter((id) => id !== null);
  const found = new Set<string>();
  if (lookup.length > 0) {
    const { rows } = await query(`SELECT id FROM ${tables.entries} WHERE session_id = $1 AND id = ANY($2::text[])`, [
      sessionId,
      [entry.id, ...lookup],
    ]);
    for (const row of rows as { id: string }[]) found.add(row.id);
    if (found.has(entry.id)) throw taken();
    if (parent !== null && parent === leaf) found.add(parent);
  } else if (parent !== null) {
    found.add(parent);
  }
  if (parent !== null && !found.has(parent)) {
    throw new SessionError({
      message: `entry.parentId: "${parent}" is not an entry of session "${sessionId}". Omit parentId to continue from the leaf.`,
      code: 'PARENT_MISSING',
    });
  }
  if (target !== null && !found.has(target)) {
    const field = entry.type === 'branch_summary' ? 'fromId' : 'targetId';
    throw new SessionError({
      message: `entry.${field}: "${target}" is not an entry of session "${sessionId}".`,
      code: 'INPUT_INVALID',
    });
  }
  if (entry.type === 'compaction') {
    const onBranch =
      parent !== null &&
      (await query(onBranchQuery(tables), [sessionId, parent, entry.firstKeptEntryId, count])).rows[0].found;
    if (!onBranch) {
      throw new SessionError({
        message: `entry.firstKeptEntryId: "${entry.firstKeptEntryId}" is not on the branch the compaction is appended to. Keep from an entry between the root and the compaction's parent.`,
        code: 'INPUT_INVALID',
      });
    }
  }
  let toolArguments: string | null = null;
  if (entry.type === 'message' && entry.message.role === 'toolResult' && parent !== null) {
    const callId = entry.message.toolCallId;
    const { rows } = await query(toolArgumentsQuery(tables), [sessionId, parent, JSON.stringify(callId)]);
    toolArguments = toolArgumentsOf(rows as { data: string }[], callId);
  }
  const statement = insertStatement(tables, sessionId, entry, toolArguments, now);
  const inserted = await query(statement.text, statement.values).catch((error: { code?: string }) => {
    throw error?.code === '23505' ? taken() : error;
  });
  return { entry, seq: Number(inserted.rows[0].seq) };
}
