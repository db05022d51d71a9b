import { ConfigError, SessionError, StoreError } from '../errors.js';
import { deepFreeze } from '../internal/deep-freeze.js';
import { createKeyedQueue } from '../internal/keyed-queue.js';
import { recallIdOf } from '../messages/recall-id.js';
import { markStoreEntries } from '../session/check-entries.js';
import { checkExpectedLeaf } from '../session/check-expected-leaf.js';
import { contextBranchOf, wantsContextBranch } from '../session/context-branch.js';
import { entryToMessage } from '../session/entry-to-message.js';
import { describeEntryProblems, parseStoredEntry } from '../session/parse-stored-entry.js';
import { checkToolResultSearch, queryWords, toolResultText } from '../session/search-tool-results.js';
import {
  createSessionInfo,
  sessionExists,
  sessionNotFound,
  sortSessions,
  storedSessionInfo,
} from '../session/session-info.js';
import type {
  AppendEntryOptions,
  CreateSessionInit,
  SessionInfo,
  SessionStore,
  SetLeafOptions,
  ToolResultHit,
  ToolResultSearch,
  TranscriptMessage,
} from '../session/session-store.js';
import type { SessionEntry, SessionEntryInput } from '../session-entry.js';
import { ENTRY_COLUMNS, entryRows, MESSAGE_COLUMNS } from '../sql/entry-row.js';
import type { ToolResultMessage } from '../types.js';
import * as v from '../validation/light-schema.js';
import { firstIssue } from '../validation/zod-issues.js';
import { checkSchemaVersion, type MigratePostgresResult, migratePostgres } from './migrate-postgres.js';
import {
  connectionOf,
  type PostgresConnectionOptions,
  type Query,
  runRead,
  runTransaction,
} from './postgres-connection.js';
import { type PostgresTableOptions, type PostgresTables, resolveTables } from './postgres-tables.js';

/**
 * Options of {@link createPostgresStore}.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * const options: CreatePostgresStoreOptions = { pool: new pg.Pool(), tablePrefix: 'agent_' };
 * ```
 */
export interface CreatePostgresStoreOptions extends PostgresConnectionOptions, PostgresTableOptions {
  /** The clock used for timestamps. @default Date.now */
  now?: () => number;
  /** How many entries the store keeps parsed in memory, across sessions (least recently used sessions go first). @default 250_000 */
  maxCachedEntries?: number;
}

/**
 * A {@link SessionStore} on PostgreSQL, with `migrate()`.
 *
 * @example
 * ```ts
 * const store: PostgresSessionStore = createPostgresStore({ pool });
 * await store.migrate();
 * ```
 */
export interface PostgresSessionStore extends SessionStore {
  /**
   * Creates or upgrades the store's tables (see {@link migratePostgres}); safe to run again.
   *
   * @returns The versions before and after.
   */
  migrate(): Promise<MigratePostgresResult>;
}

const settingsSchema = /* @__PURE__ */ (() =>
  v.object({
    now: v
      .custom<() => number>((value) => typeof value === 'function', 'must be a function returning milliseconds')
      .optional(),
    maxCachedEntries: v.number().int('must be a whole number').nonnegative().optional(),
  }))();

function infoOf(value: unknown, table: string): SessionInfo {
  return storedSessionInfo(value, `A row of ${table}`);
}

/**
 * A {@link SessionStore} on PostgreSQL through node-postgres, for a fleet of workers that share
 * sessions. The tables follow the durable-session design (as the SQLite store): `<prefix>sessions`,
 * `<prefix>session_entries` (the tree, with the entry as the JSON text written, so that it reads back
 * byte for byte, and typed metadata columns) and
 * `<prefix>session_messages` (the flat transcript), created by {@link migratePostgres} or
 * `store.migrate()`, which is never run implicitly.
 *
 * Many writers: each write locks the session's row (`SELECT … FOR UPDATE`), so appends and leaf
 * moves from every process are serialized and the tree never forks by accident. An append that
 * states `expectedLeafId` is refused with a `LeafConflictError` (`LEAF_CONFLICT`, with the
 * current leaf) when another writer moved the leaf first. Given a `client`, writes nest in the
 * host's transaction as savepoints; entries are cached by row, never by what a transaction
 * claimed, so a rollback leaves no trace. A branch is read in one recursive query.
 *
 * @param options - A `pool` (or the host's `client`), the schema or table prefix, the clock.
 * @returns The store. Its `close()` does not end the pool or client.
 * @throws `StoreError` (`DEPENDENCY_MISSING`) without a node-postgres pool or client; `ConfigError`
 * for an invalid `schema` or `tablePrefix`.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { createPostgresStore } from 'ctxkit/postgres';
 *
 * const store = createPostgresStore({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL }) });
 * await store.migrate(); // once, when you deploy
 * const leaf = await store.getLeaf(sessionId);
 * await store.appendEntry(sessionId, { type: 'message', message }, { expectedLeafId: leaf });
 * ```
 */
export function createPostgresStore(options: CreatePostgresStoreOptions): PostgresSessionStore {
  const connection = connectionOf(options, 'createPostgresStore');
  const tables = resolveTables(options, 'createPostgresStore');
  const settings = settingsSchema.safeParse({ now: options.now, maxCachedEntries: options.maxCachedEntries });
  if (!settings.success) {
    const { field, detail } = firstIssue(settings.error, '(options)');
    throw new ConfigError({
      message: `Invalid createPostgresStore options: ${field} ${detail}.`,
      field,
      cause: settings.error,
    });
  }
  const now = options.now ?? Date.now;
  const cache = new EntryCache(options.maxCachedEntries ?? 250_000, tables.entries);
  const sql = readQueries(tables);
  const perSession = createKeyedQueue<string>();
  let schemaChecked: Promise<void> | undefined;

  /** Checks once (until it fails) that the tables are migrated. */
  function ready(query: Query): Promise<void> {
    schemaChecked ??= checkSchemaVersion(query, tables).catch((error: unknown) => {
      schemaChecked = undefined;
      throw error;
    });
    return schemaChecked;
  }
  const read = <T>(action: string, work: (query: Query) => Promise<T>) =>
    runRead(connection, action, async (query) => {
      await ready(query);
      return work(query);
    });
  const write = <T>(sessionId: string, action: string, work: (query: Query) => Promise<T>) =>
    perSession(sessionId, () =>
      runTransaction(connection, action, async (query) => {
        await ready(query);
        return work(query);
      }),
    );
  const entriesOf = async (query: Query, sessionId: string, text: string) => {
    const { rows } = await query(text, [sessionId, cache.watermark(sessionId)]);
    if (rows.length === 0) throw sessionNotFound(sessionId);
    return cache.resolve(sessionId, rows[0] as EntryList, query);
  };

  return {
    migrate: () =>
      migratePostgres({
        ...(connection.pool ? { pool: connection.pool } : { client: connection.client! }),
        ...(tables.schema === undefined ? {} : { schema: tables.schema }),
        tablePrefix: tables.prefix,
      }),
    createSession: async (init?: CreateSessionInit) => {
      const info = createSessionInfo(init, now());
      const cwd = typeof info.metadata?.['cwd'] === 'string' ? info.metadata['cwd'] : null;
      // `info_text` keeps the info as written; the jsonb `info` (for queries and older releases)
      // and the text columns cannot hold NUL or a lone surrogate, so they get U+FFFD instead.
      const values = [
        info.id,
        forJsonb(cwd),
        forJsonb(info.name ?? null),
        forJsonb(info.parentSessionId ?? null),
        info.createdAt,
        JSON.stringify(info),
        JSON.stringify(forJsonb(info)),
      ];
      const { rows } = await write(info.id, 'create the session', (query) => query(sql.insertSession, values));
      if (rows.length === 0) throw sessionExists(info.id);
      return info;
    },
    getSession: (sessionId: string) =>
      read('read the session', async (query) => {
        const { rows } = await query(sql.session, [sessionId]);
        return rows.length === 0 ? undefined : infoOf(rows[0].info, tables.sessions);
      }),
    listSessions: () =>
      read('list the sessions', async (query) =>
        sortSessions((await query(sql.sessions)).rows.map((row) => infoOf(row.info, tables.sessions))),
      ),
    appendEntry: async (sessionId: string, input: SessionEntryInput, options?: AppendEntryOptions) => {
      const { entry, seq } = await write(sessionId, 'append the entry', (query) =>
        appendPostgresEntry({ query, tables, sessionId, now: now() }, input, options),
      );
      cache.add(sessionId, seq, entry);
      return entry;
    },
    getEntries: (sessionId: string) => read('read the entries', (query) => entriesOf(query, sessionId, sql.entries)),
    getBranch: async (sessionId: string, leafId?: string | null, options?: { from?: 'root' | 'context' }) => {
      const context = wantsContextBranch('getBranch', options);
      const path = await read('read the branch', (query) =>
        readPostgresBranch({ query, sql, cache, sessionId }, leafId),
      );
      return context ? markStoreEntries(contextBranchOf(path)) : path;
    },
    getLeaf: (sessionId: string) =>
      read('read the leaf', async (query) => {
        const { rows } = await query(sql.leaf, [sessionId]);
        if (rows.length === 0) throw sessionNotFound(sessionId);
        return rows[0].leaf_id as string | null;
      }),
    setLeaf: (sessionId: string, entryId: string | null, options?: SetLeafOptions) =>
      write(sessionId, 'move the leaf', async (query) => {
        const { leaf } = await lockSessionRow(query, tables, sessionId);
        checkExpectedLeaf(sessionId, options, leaf);
        if (entryId !== null && (await query(sql.existing, [sessionId, [entryId]])).rows.length === 0) {
          throw new SessionError({
            message: `Entry "${entryId}" is not in session "${sessionId}".`,
            code: 'ENTRY_NOT_FOUND',
          });
        }
        await query(sql.setLeaf, [sessionId, entryId, now()]);
      }),
    getMessages: (sessionId: string) =>
      read('read the messages', async (query) => {
        const transcript: TranscriptMessage[] = [];
        for (const entry of await entriesOf(query, sessionId, sql.messages)) {
          const message = entryToMessage(entry);
          if (message !== undefined) transcript.push({ entryId: entry.id, timestamp: entry.timestamp, message });
        }
        return transcript;
      }),
    searchToolResults: (sessionId: string, search: ToolResultSearch) =>
      read('search the tool results', async (query) => {
        const checked = checkToolResultSearch(search, 'searchToolResults');
        return searchPostgresToolResults(query, tables, sessionId, checked);
      }),
    close: async () => {
      cache.clear();
    },
  };
}

/**
 * The indexed search of `searchToolResults`: candidates from the tool-result index (by id, or by
 * words ranked by `ts_rank`) joined with the runs of the branch that ends at the leaf, so only
 * results on that branch count. A run is a chain without forks: a branch goes through a few of
 * them, so the check costs a few index lookups whatever the session's length.
 */
async function searchPostgresToolResults(
  query: Query,
  tables: PostgresTables,
  sessionId: string,
  search: ToolResultSearch & { limit: number },
): Promise<ToolResultHit[]> {
  const head = await query(`SELECT leaf_id, entry_count FROM ${tables.sessions} WHERE id = $1`, [sessionId]);
  if (head.rows.length === 0) throw sessionNotFound(sessionId);
  const leaf = search.leafId === undefined ? (head.rows[0].leaf_id as string | null) : search.leafId;
  if (leaf === null) return [];
  const found = await query(`SELECT 1 FROM ${tables.entries} WHERE session_id = $1 AND id = $2`, [sessionId, leaf]);
  if (found.rows.length === 0)
    throw new SessionError({
      message: `searchToolResults: there is no entry "${leaf}" in session "${sessionId}".`,
      code: 'ENTRY_NOT_FOUND',
    });
  const onBranch = `WITH RECURSIVE ${runsOfBranch(tables, '$2', '$3')}
    SELECT e.seq, e.id, coalesce(e.data_text, e.data::text) AS data
      FROM ${tables.toolResults} t
      JOIN ${tables.entries} e ON e.seq = t.entry_seq
      JOIN runs ON e.run_id = runs.run_id AND e.depth <= runs.upto
     WHERE t.session_id = $1`;
  const count = Number(head.rows[0].entry_count);
  let rows: unknown[];
  if (search.id !== undefined) {
    ({ rows } = await query(`${onBranch} AND (t.tool_call_id = $4 OR t.recall_id = $4) ORDER BY e.seq`, [
      sessionId,
      leaf,
      count,
      search.id,
    ]));
  } else {
    // Each word as plain text (no tsquery syntax): the newest results holding every word, then
    // the newest holding any. Newest first rather than ts_rank, which reads every match (a word
    // most results hold: 25,000 rows); a walk back along the primary key stops at the limit.
    const words = queryWords(search.query!)
      .map((word) => word.replace(/[^\p{L}\p{N}_]+/gu, ' ').trim())
      .filter(Boolean);
    if (words.length === 0) return [];
    const limit = search.limit * 4 + 20;
    const candidates = `SELECT entry_seq FROM ${tables.toolResults}
      WHERE session_id = $1 AND search @@ websearch_to_tsquery('simple', $2) ORDER BY entry_seq DESC LIMIT $3`;
    const seqs = (await query(candidates, [sessionId, words.join(' '), limit])).rows.map((row) =>
      String(row.entry_seq),
    );
    if (seqs.length < limit && words.length > 1) {
      const seen = new Set(seqs);
      for (const row of (await query(candidates, [sessionId, words.join(' or '), limit])).rows)
        if (!seen.has(String(row.entry_seq)) && seqs.length < limit) seqs.push(String(row.entry_seq));
    }
    if (seqs.length === 0) return [];
    ({ rows } = await query(`${onBranch} AND t.entry_seq = ANY($4::bigint[])`, [sessionId, leaf, count, seqs]));
    const order = new Map(seqs.map((seq, index) => [seq, index]));
    rows = (rows as { seq: string }[])
      .sort((a, b) => order.get(String(a.seq))! - order.get(String(b.seq))!)
      .slice(0, search.limit);
  }
  return (rows as { id: string; data: string }[]).map((row) => {
    const message = (JSON.parse(row.data) as { message: ToolResultMessage }).message;
    return {
      entryId: row.id,
      toolCallId: message.toolCallId,
      toolName: message.toolName,
      text: toolResultText(message),
    };
  });
}

/**
 * Locks the session's row for the rest of the transaction; returns its leaf and entry count.
 *
 * @internal
 */
async function lockSessionRow(
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
interface AppendContext {
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
async function appendPostgresEntry(
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
interface BranchReadContext {
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
async function readPostgresBranch(
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

/**
 * What the read queries return: a JSON array of pairs, each row's sequence number and its entry
 * (`null` for rows the cache should have), in order; `null` for no rows.
 *
 * @internal
 */
interface EntryList {
  list: string | null;
}

interface SessionEntries {
  bySeq: Map<number, SessionEntry>;
  /** The highest sequence number cached; rows above it come with their JSON. */
  watermark: number;
}

/**
 * The entries the store has read or written, by row sequence number, so that repeated reads
 * return the same frozen objects and fetch only the JSON of rows not seen before.
 *
 * It never decides what exists: every read asks the server which rows are on the branch (or in
 * the session), and the cache only supplies the content of a row it names. Sequence numbers are
 * never reused (not even after a rollback), and rows are never updated, so a rolled-back append
 * leaves nothing that a later read could return. Whole sessions are evicted, least recently used
 * first, beyond `maxEntries`.
 *
 * @internal
 */
class EntryCache {
  private readonly sessions = new Map<string, SessionEntries>();
  private size = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly entriesTable: string,
  ) {}

  /** The sequence number above which reads must send the JSON of rows. */
  watermark(sessionId: string): string {
    return String(this.sessions.get(sessionId)?.watermark ?? 0);
  }

  /** Remembers an entry the store has just written. */
  add(sessionId: string, seq: number, entry: SessionEntry): void {
    const session = this.touch(sessionId);
    if (!session.bySeq.has(seq)) this.size++;
    session.bySeq.set(seq, entry);
    session.watermark = Math.max(session.watermark, seq);
    this.evict(sessionId);
  }

  /** The entries of the listed rows, in order: cached, parsed from the list, or fetched in one query. */
  async resolve(sessionId: string, list: EntryList, query: Query): Promise<SessionEntry[]> {
    const pairs = (list.list === null ? [] : JSON.parse(list.list)) as unknown[];
    const seqs: number[] = [];
    const session = this.touch(sessionId);
    const missing: number[] = [];
    for (let position = 0; position < pairs.length; position += 2) {
      const seq = pairs[position] as number;
      const value = pairs[position + 1];
      seqs.push(seq);
      if (session.bySeq.has(seq)) continue;
      if (value === null) missing.push(seq);
      else this.store(session, seq, value);
    }
    if (missing.length > 0) {
      const fetched = await query(
        `SELECT seq, coalesce(data_text, data::text) AS data FROM ${this.entriesTable} WHERE seq = ANY($1::bigint[])`,
        [missing],
      );
      for (const row of fetched.rows as { seq: string; data: string }[]) {
        this.store(session, Number(row.seq), JSON.parse(row.data));
      }
    }
    const entries = seqs.map((seq) => session.bySeq.get(seq)!);
    this.evict(sessionId);
    return markStoreEntries(entries);
  }

  clear(): void {
    this.sessions.clear();
    this.size = 0;
  }

  private store(session: SessionEntries, seq: number, value: unknown): void {
    const parsed = parseStoredEntry(value);
    if ('problem' in parsed) {
      throw new StoreError({
        message: `Row ${seq} of ${this.entriesTable} is not a valid entry: ${parsed.problem}.`,
        code: 'STORE_CORRUPT',
      });
    }
    session.bySeq.set(seq, parsed.entry);
    session.watermark = Math.max(session.watermark, seq);
    this.size++;
  }

  /** The session's entries, marked as the most recently used. */
  private touch(sessionId: string): SessionEntries {
    let session = this.sessions.get(sessionId);
    if (session === undefined) session = { bySeq: new Map(), watermark: 0 };
    else this.sessions.delete(sessionId);
    this.sessions.set(sessionId, session);
    return session;
  }

  private evict(keep: string): void {
    for (const [sessionId, session] of this.sessions) {
      if (this.size <= this.maxEntries) return;
      if (sessionId === keep) continue;
      this.sessions.delete(sessionId);
      this.size -= session.bySeq.size;
    }
  }
}

/**
 * The read statements of the PostgreSQL store. Each takes the session id as `$1` and the cache's
 * watermark as the last parameter. The entry reads return one row whose `list` is a JSON array
 * of the rows in order, as pairs: the row's sequence number, then its entry, or `null` for rows at
 * or below the watermark (the cache has them, or fetches them). One string to parse instead of a
 * row object per entry, and one sort, are what keep a 100,000-entry read fast.
 *
 * @internal
 */
function readQueries(tables: PostgresTables) {
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

/** An appended entry, validated, before the transaction fills its parent. @internal */
interface ValidatedInput {
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
function forJsonb(value: unknown): unknown {
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
 * field changes it), with the same check and messages as every other store.
 *
 * @internal
 */
function validateInput(input: SessionEntryInput, sessionId: string): ValidatedInput {
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
  const problem = describeEntryProblems(json, true);
  if (problem !== '') {
    throw new SessionError({
      message: `Invalid entry for session "${sessionId}": ${problem}.`,
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
function completeEntry(input: ValidatedInput, parentId: string | null, now: number): SessionEntry {
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
function insertStatement(
  tables: PostgresTables,
  sessionId: string,
  entry: SessionEntry,
  toolArguments: string | null,
  now: number,
): { text: string; values: unknown[] } {
  const rows = entryRows(sessionId, entry, new Map());
  const column = Object.fromEntries(ENTRY_COLUMNS.map((name, index) => [name, rows.entry[index]]));
  const toolResult = entry.type === 'message' && entry.message.role === 'toolResult' ? entry.message : undefined;
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
    // $26, $27, $28: the tool-result index row (a tool result only).
    toolResult === undefined ? null : toolResult.toolCallId,
    toolResult === undefined ? null : recallIdOf(toolResult.toolCallId),
    toolResult === undefined ? null : withoutNul(toolResultText(toolResult)),
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
    ), tool_result AS (
      INSERT INTO ${tables.toolResults} (entry_seq, session_id, tool_call_id, recall_id, search)
      SELECT seq, $2, $26::text, $27::text, to_tsvector('simple', $28::text) FROM entry WHERE $26::text IS NOT NULL
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
function toolArgumentsQuery(tables: PostgresTables): string {
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
function toolArgumentsOf(rows: readonly { data: string }[], callId: string): string | null {
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
function onBranchQuery(tables: PostgresTables): string {
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
function runsOfBranch(tables: PostgresTables, leaf: string, limit: string): string {
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
