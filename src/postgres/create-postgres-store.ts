import { z } from 'zod';
import { ConfigError, SessionError } from '../errors.js';
import { createKeyedQueue } from '../internal/keyed-queue.js';
import { markStoreEntries } from '../session/check-entries.js';
import { checkExpectedLeaf } from '../session/check-expected-leaf.js';
import { contextBranchOf, wantsContextBranch } from '../session/context-branch.js';
import { entryToMessage } from '../session/entry-to-message.js';
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
  TranscriptMessage,
} from '../session/session-store.js';
import type { SessionEntryInput } from '../session-entry.js';
import { firstIssue } from '../validation/first-issue.js';
import { forJsonb } from './append-entry-rows.js';
import { appendPostgresEntry, lockSessionRow } from './append-postgres-entry.js';
import { EntryCache, type EntryList } from './entry-cache.js';
import { checkSchemaVersion, type MigratePostgresResult, migratePostgres } from './migrate-postgres.js';
import {
  connectionOf,
  type PostgresConnectionOptions,
  type Query,
  runRead,
  runTransaction,
} from './postgres-connection.js';
import { readQueries } from './postgres-queries.js';
import { type PostgresTableOptions, resolveTables } from './postgres-tables.js';
import { readPostgresBranch } from './read-postgres-branch.js';

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

const settingsSchema = z.object({
  now: z
    .custom<() => number>((value) => typeof value === 'function', 'must be a function returning milliseconds')
    .optional(),
  maxCachedEntries: z.number().int('must be a whole number').nonnegative().optional(),
});

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
    close: async () => {
      cache.clear();
    },
  };
}
