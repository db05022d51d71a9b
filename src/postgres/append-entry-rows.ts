import { SessionError } from '../errors.js';
import { deepFreeze } from '../internal/deep-freeze.js';
import { sessionEntryInputSchema } from '../schemas/entries.js';
import { describeIssues } from '../session/session-info.js';
import type { SessionEntry, SessionEntryInput } from '../session-entry.js';
import { ENTRY_COLUMNS, entryRows, MESSAGE_COLUMNS } from '../sql/entry-row.js';
import type { PostgresTables } from './postgres-tables.js';

/** An appended entry, validated, before the transaction fills its parent. @internal */
export interface ValidatedInput {
  id: string;
  /** The given parent; `undefined` continues from the leaf. */
  parentId: string | null | undefined;
  timestamp: number | undefined;
  rest: Record<string, unknown>;
}

/** PostgreSQL text cannot hold NUL characters: the derived text columns get U+FFFD instead. */
const withoutNul = (value: unknown) => (typeof value === 'string' ? value.replaceAll('\u0000', '\uFFFD') : value);

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A JSON value jsonb can hold: NUL characters and lone surrogates (in strings and keys) become
 * U+FFFD. For the columns kept for queries; the exact JSON goes to the text columns.
 *
 * @internal
 */
export function forJsonb(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('\u0000', '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');
  if (Array.isArray(value)) return value.map(forJsonb);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [forJsonb(key), forJsonb(item)]));
  }
  return value;
}

/** JSON that jsonb refuses: a `\u0000` escape or a lone surrogate (kept out of the `tool_args` column). */
const NOT_JSONB = /\\u0000|\\ud[89a-f]/i;

/**
 * Validates what will be stored: the JSON form of the input (a `toJSON` method or an `undefined`
 * field changes it), with the same zod schema and messages as every other store.
 *
 * @internal
 */
export function validateInput(input: SessionEntryInput, sessionId: string): ValidatedInput {
  let json: unknown;
  try {
    json = JSON.parse(JSON.stringify(input));
  } catch (error) {
    throw new SessionError({
      message: 'The entry is not JSON (a cycle, a BigInt or similar); session data must be JSON.',
      code: 'INPUT_INVALID',
      cause: error,
    });
  }
  const parsed = sessionEntryInputSchema.safeParse(json);
  if (!parsed.success) {
    throw new SessionError({
      message: `Invalid entry for session "${sessionId}": ${describeIssues(parsed.error, 'entry')}.`,
      code: 'INPUT_INVALID',
    });
  }
  const { id, parentId, timestamp, ...rest } = json as Record<string, unknown>;
  return {
    id: (id as string | undefined) ?? crypto.randomUUID(),
    parentId: parentId as string | null | undefined,
    timestamp: timestamp as number | undefined,
    rest,
  };
}

/**
 * The stored entry, frozen: the input with its id, parent and timestamp.
 *
 * @internal
 */
export function completeEntry(input: ValidatedInput, parentId: string | null, now: number): SessionEntry {
  return deepFreeze({
    id: input.id,
    parentId,
    timestamp: input.timestamp ?? now,
    ...input.rest,
  } as unknown as SessionEntry);
}

/**
 * The statement that inserts the entry's row, its transcript row (when it carries a message) and
 * moves the session's leaf to it, with its parameters. Returns the row's sequence number.
 *
 * @internal
 */
export function insertStatement(
  tables: PostgresTables,
  sessionId: string,
  entry: SessionEntry,
  toolArguments: string | null,
  now: number,
): { text: string; values: unknown[] } {
  const rows = entryRows(sessionId, entry, new Map());
  const column = Object.fromEntries(ENTRY_COLUMNS.map((name, index) => [name, rows.entry[index]]));
  const message =
    rows.message === undefined
      ? undefined
      : Object.fromEntries(MESSAGE_COLUMNS.map((name, index) => [name, rows.message![index]]));
  const values = [
    entry.id,
    sessionId,
    entry.parentId,
    entry.type,
    withoutNul(column['role']),
    withoutNul(column['content']),
    withoutNul(column['provider']),
    withoutNul(column['model']),
    withoutNul(column['custom_type']),
    // The entry's JSON text exactly as serialized: jsonb would sort its keys (see migration 2).
    column['data_json'],
    withoutNul(column['summary']),
    entry.timestamp,
    withoutNul(column['tool_name']),
    column['tool_status'],
    toolArguments,
    column['token_estimate'],
    column['model_facing'] === 1,
    column['display'] === 1,
    column['compaction_first_kept_entry_id'],
    column['compaction_tokens_before'],
    column['branch_from_entry_id'],
    message === undefined ? null : withoutNul(message['sender']),
    message === undefined ? null : withoutNul(message['role']),
    message === undefined ? null : withoutNul(message['content']),
    now,
  ];
  // A run is a chain that continues while the parent has no other child: the entry joins its
  // parent's run, or starts one (named after itself) at a root or a fork.
  const text = `
    WITH parent AS (
      SELECT p.run_id, p.depth,
             EXISTS (SELECT 1 FROM ${tables.entries} c WHERE c.session_id = $2 AND c.parent_id = p.id) AS forked
        FROM ${tables.entries} p WHERE p.session_id = $2 AND p.id = $3
    ), entry AS (
      INSERT INTO ${tables.entries} (id, session_id, parent_id, run_id, depth, entry_type, role, content, provider,
        model, custom_type, data_text, summary, created_at, tool_name, tool_status, tool_args, token_estimate,
        model_facing, display, compaction_first_kept_entry_id, compaction_tokens_before, branch_from_entry_id)
      VALUES ($1, $2, $3,
        coalesce((SELECT run_id FROM parent WHERE NOT forked), $1),
        coalesce((SELECT depth + 1 FROM parent), 0),
        $4, $5, $6, $7, $8, $9, $10, $11, to_timestamp($12::float8 / 1000), $13, $14,
        $15::jsonb, $16, $17, $18, $19, $20, $21)
      RETURNING seq
    ), message AS (
      INSERT INTO ${tables.messages} (id, session_id, entry_id, sender, role, content, provider, model, created_at)
      SELECT $1, $2, $1, $22::text, $23::text, $24::text, $7, $8, to_timestamp($12::float8 / 1000)
      WHERE $22::text IS NOT NULL
    ), leaf AS (
      UPDATE ${tables.sessions}
         SET leaf_id = $1, updated_at = to_timestamp($25::float8 / 1000), entry_count = entry_count + 1
       WHERE id = $2
    )
    SELECT seq FROM entry`;
  return { text, values };
}

/**
 * The query that finds the entries that may hold the call a tool result answers, walking up to
 * 256 entries up its branch (as the SQLite store does): assistant entries whose JSON names the
 * call id (`$3`, as a JSON string), nearest first. {@link toolArgumentsOf} reads the arguments.
 *
 * @internal
 */
export function toolArgumentsQuery(tables: PostgresTables): string {
  return `
    WITH RECURSIVE up AS (
      SELECT seq, parent_id, role, 1 AS depth FROM ${tables.entries} WHERE session_id = $1 AND id = $2
      UNION ALL
      SELECT e.seq, e.parent_id, e.role, up.depth + 1
        FROM up JOIN ${tables.entries} e ON e.session_id = $1 AND e.id = up.parent_id
       WHERE up.depth < 256
    )
    SELECT coalesce(e.data_text, e.data::text) AS data
      FROM up JOIN ${tables.entries} e ON e.seq = up.seq
     WHERE up.role = 'assistant' AND strpos(coalesce(e.data_text, e.data::text), $3) > 0
     ORDER BY up.depth
     LIMIT 8`;
}

/**
 * The `tool_args` column of a tool result: the JSON arguments of the call `callId` in the first of
 * `rows` (entries' JSON, nearest first) that holds it; `null` when none does, or when jsonb cannot
 * hold them (a NUL or a lone surrogate).
 *
 * @internal
 */
export function toolArgumentsOf(rows: readonly { data: string }[], callId: string): string | null {
  for (const row of rows) {
    const content = (JSON.parse(row.data) as { message?: { content?: unknown } }).message?.content;
    if (!Array.isArray(content)) continue;
    for (const part of content as { type?: unknown; id?: unknown; arguments?: unknown }[]) {
      if (part?.type !== 'toolCall' || part.id !== callId) continue;
      const json = JSON.stringify(part.arguments ?? null);
      return NOT_JSONB.test(json) ? null : json;
    }
  }
  return null;
}

/**
 * The query that says whether `$3` is on the branch that ends at `$2` (a compaction keeps from an
 * entry of its own branch): whether it is in one of the branch's runs, at or before the point
 * where the branch leaves that run.
 *
 * @internal
 */
export function onBranchQuery(tables: PostgresTables): string {
  return `
    WITH RECURSIVE ${runsOfBranch(tables, '$2', '$4')}
    SELECT EXISTS (
      SELECT 1 FROM runs JOIN ${tables.entries} t
        ON t.session_id = $1 AND t.id = $3 AND t.run_id = runs.run_id AND t.depth <= runs.upto
    ) AS found`;
}

/**
 * The `runs` CTE: the runs a branch goes through, from the run of the entry `leaf` (a parameter
 * or column) back to a root run, each with the depth where the branch leaves it (`upto`). At most
 * `limit` steps, so a corrupt table cannot loop.
 *
 * @internal
 */
export function runsOfBranch(tables: PostgresTables, leaf: string, limit: string): string {
  return `runs AS (
      SELECT e.run_id, e.depth AS upto, 1 AS step FROM ${tables.entries} e WHERE e.session_id = $1 AND e.id = ${leaf}
      UNION ALL
      SELECT p.run_id, p.depth, runs.step + 1
        FROM runs
        JOIN ${tables.entries} f ON f.session_id = $1 AND f.id = runs.run_id
        JOIN ${tables.entries} p ON p.session_id = $1 AND p.id = f.parent_id
       WHERE runs.step <= ${limit}
    )`;
}
