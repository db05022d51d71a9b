import { StoreError } from '../errors.js';
import { recallIdOf } from '../messages/recall-id.js';
import {
  type Connection,
  connectionOf,
  type PostgresConnectionOptions,
  type Query,
  runTransaction,
} from './postgres-connection.js';
import { type PostgresTableOptions, type PostgresTables, resolveTables } from './postgres-tables.js';

/** The schema version this release writes and reads: the number of migrations it knows. */
export const POSTGRES_SCHEMA_VERSION = 3;

/** Each migration takes the schema from version `index` to `index + 1`. Migrations only add. */
const MIGRATIONS: readonly {
  name: string;
  sql: (tables: PostgresTables) => string;
  /** Work SQL alone cannot do, run after `sql` in the same transaction. */
  after?: (query: Query, tables: PostgresTables) => Promise<void>;
}[] = [
  {
    name: 'session tree',
    sql: ({ sessions, entries, messages, prefix }) => `
      CREATE TABLE ${sessions} (
        id text PRIMARY KEY,
        cwd text,
        name text,
        parent_session text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        leaf_id text,
        entry_count integer NOT NULL DEFAULT 0,
        info jsonb NOT NULL
      );
      CREATE TABLE ${entries} (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text NOT NULL,
        session_id text NOT NULL REFERENCES ${sessions} (id),
        parent_id text,
        run_id text NOT NULL,
        depth integer NOT NULL,
        entry_type text NOT NULL,
        role text,
        content text,
        provider text,
        model text,
        custom_type text,
        data jsonb,
        data_text text,
        summary text,
        created_at timestamptz NOT NULL,
        tool_name text,
        tool_status text,
        tool_args jsonb,
        token_estimate bigint NOT NULL DEFAULT 0,
        model_facing boolean NOT NULL DEFAULT false,
        display boolean NOT NULL DEFAULT false,
        compaction_first_kept_entry_id text,
        compaction_tokens_before double precision,
        branch_from_entry_id text,
        CONSTRAINT ${prefix}session_entries_id_unique UNIQUE (session_id, id),
        CONSTRAINT ${prefix}session_entries_data_present CHECK (data IS NOT NULL OR data_text IS NOT NULL)
      );
      CREATE INDEX ${prefix}session_entries_by_session ON ${entries} (session_id, seq);
      CREATE INDEX ${prefix}session_entries_by_parent ON ${entries} (session_id, parent_id);
      CREATE INDEX ${prefix}session_entries_by_run ON ${entries} (session_id, run_id, depth);
      CREATE TABLE ${messages} (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text NOT NULL,
        session_id text NOT NULL REFERENCES ${sessions} (id),
        entry_id text NOT NULL,
        sender text NOT NULL,
        role text NOT NULL,
        content text NOT NULL,
        provider text,
        model text,
        created_at timestamptz NOT NULL,
        CONSTRAINT ${prefix}session_messages_entry_unique UNIQUE (session_id, entry_id)
      );
      CREATE INDEX ${prefix}session_messages_by_session ON ${messages} (session_id, seq);`,
  },
  {
    // jsonb sorts object keys (shorter first): an entry read back serialized in another order than
    // it was sent, and the provider's prompt cache missed. Entries and session info are kept as
    // the JSON text written (`data_text`, `info_text`). Rows written before keep jsonb's order,
    // which is all that is left of them: their text is moved as jsonb prints it. An older release
    // still reads every row (it reads `coalesce(data::text, data_text)` and `info`).
    name: 'entries as text',
    sql: ({ sessions, entries }) => `
      ALTER TABLE ${sessions} ADD COLUMN info_text text;
      UPDATE ${sessions} SET info_text = info::text;
      UPDATE ${entries} SET data_text = data::text, data = NULL WHERE data IS NOT NULL;`,
  },
  {
    // The tool results `recall` finds: by tool call id, by recall id and by words (a tsvector of
    // the 'simple' configuration with a GIN index). Rows already stored are indexed here; their
    // recall ids are computed by ctxkit (a hash it defines), in \`after\`.
    name: 'tool result index',
    sql: ({ entries, toolResults, prefix }) => `
      CREATE TABLE ${toolResults} (
        entry_seq bigint PRIMARY KEY REFERENCES ${entries} (seq),
        session_id text NOT NULL,
        tool_call_id text NOT NULL,
        recall_id text NOT NULL,
        search tsvector NOT NULL
      );
      CREATE INDEX ${prefix}session_tool_results_by_call ON ${toolResults} (session_id, tool_call_id);
      CREATE INDEX ${prefix}session_tool_results_by_recall ON ${toolResults} (session_id, recall_id);
      CREATE INDEX ${prefix}session_tool_results_search ON ${toolResults} USING gin (search);
      INSERT INTO ${toolResults} (entry_seq, session_id, tool_call_id, recall_id, search)
      SELECT seq, session_id, coalesce(data_text, data::text)::jsonb -> 'message' ->> 'toolCallId', '',
             to_tsvector('simple', coalesce(content, ''))
        FROM ${entries} WHERE entry_type = 'message' AND tool_name IS NOT NULL;`,
    after: async (query, { toolResults }) => {
      const { rows } = await query(`SELECT entry_seq, tool_call_id FROM ${toolResults} WHERE recall_id = ''`);
      const list = rows as { entry_seq: string; tool_call_id: string }[];
      for (let start = 0; start < list.length; start += 5000) {
        const batch = list.slice(start, start + 5000);
        await query(
          `UPDATE ${toolResults} t SET recall_id = u.recall_id FROM unnest($1::bigint[], $2::text[]) AS u(seq, recall_id) WHERE t.entry_seq = u.seq`,
          [batch.map((row) => row.entry_seq), batch.map((row) => recallIdOf(row.tool_call_id))],
        );
      }
    },
  },
];

/**
 * Options of {@link migratePostgres}: a connection and where the tables live.
 *
 * @example
 * ```ts
 * const options: MigratePostgresOptions = { pool, schema: 'agents' };
 * ```
 */
export interface MigratePostgresOptions extends PostgresConnectionOptions, PostgresTableOptions {}

/**
 * What {@link migratePostgres} did.
 *
 * @example
 * ```ts
 * const { from, to } = await migratePostgres({ pool });
 * if (from !== to) console.log(`ctxkit tables migrated from version ${from} to ${to}`);
 * ```
 */
export interface MigratePostgresResult {
  /** The schema version before. `0` for a database without ctxkit tables. */
  from: number;
  /** The schema version after: {@link POSTGRES_SCHEMA_VERSION}, or the database's when it is newer. */
  to: number;
  /** The versions applied now, oldest first; empty when the tables were up to date. */
  applied: number[];
}

/**
 * Creates or upgrades the tables of the PostgreSQL session store. Run it once when a release is
 * deployed (it is never run implicitly); running it again, or from several workers at once, is
 * safe: workers take an advisory lock, and each migration is applied once, in one transaction,
 * and recorded in `<prefix>migrations`. Migrations add tables, columns and indexes, and move data
 * only where an older release still reads it (version 2 moves entries from `jsonb` to text: their
 * key order was already lost), so an older release keeps working during a rolling deploy.
 *
 * @param options - The pool or client, and the schema and table prefix.
 * @returns The versions before and after, and what was applied.
 * @throws `StoreError` (`STORE_FAILED`) when a statement fails, for example because a table of the
 * same name that ctxkit did not create is in the way (pick another `tablePrefix` or `schema`).
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { migratePostgres } from 'ctxkit/postgres';
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * await migratePostgres({ pool });
 * ```
 */
export async function migratePostgres(options: MigratePostgresOptions): Promise<MigratePostgresResult> {
  const tables = resolveTables(options ?? {}, 'migratePostgres');
  const connection = connectionOf(options, 'migratePostgres');
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateOnce(connection, tables);
    } catch (error) {
      // A backend that looked the schema up before another worker created it can hold a stale
      // catalog entry until its next transaction; the second attempt sees the schema.
      const code = (error as { cause?: { code?: string } }).cause?.code;
      if (attempt >= 3 || !DUPLICATE_OBJECT.has(String(code))) throw error;
    }
  }
}

/** Unique violation in the catalog, duplicate schema, duplicate table. */
const DUPLICATE_OBJECT = new Set(['23505', '42P06', '42P07']);

function migrateOnce(connection: Connection, tables: PostgresTables): Promise<MigratePostgresResult> {
  return runTransaction(connection, 'migrate the session tables', async (query) => {
    await query('SELECT pg_advisory_xact_lock(hashtext($1))', [tables.lockKey]);
    if (tables.schema !== undefined) await query(`CREATE SCHEMA IF NOT EXISTS "${tables.schema}"`);
    await query(
      `CREATE TABLE IF NOT EXISTS ${tables.migrations} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await query(`SELECT coalesce(max(version), 0) AS version FROM ${tables.migrations}`);
    const from = Number((rows[0] as { version: number }).version);
    const applied: number[] = [];
    for (let version = from + 1; version <= MIGRATIONS.length; version++) {
      const migration = MIGRATIONS[version - 1]!;
      await query(migration.sql(tables));
      await migration.after?.(query, tables);
      await query(`INSERT INTO ${tables.migrations} (version, name) VALUES ($1, $2)`, [version, migration.name]);
      applied.push(version);
    }
    return { from, to: Math.max(from, MIGRATIONS.length), applied };
  });
}

/**
 * Throws a `StoreError` that says to run the migrations, unless the tables are at the version
 * this release needs (or newer).
 *
 * @internal
 */
export async function checkSchemaVersion(
  query: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>,
  tables: PostgresTables,
): Promise<void> {
  // Two steps, so that a missing table is never an error (which would abort the host's transaction).
  const { rows: found } = await query('SELECT to_regclass($1) IS NOT NULL AS present', [tables.migrations]);
  const present = (found[0] as { present: boolean }).present;
  const { rows } = present
    ? await query(`SELECT coalesce(max(version), 0) AS version FROM ${tables.migrations}`)
    : { rows: [{ version: 0 }] };
  const version = Number((rows[0] as { version: number }).version);
  if (version < POSTGRES_SCHEMA_VERSION) {
    throw new StoreError({
      message: `The ctxkit session tables${tables.schema === undefined ? '' : ` in schema "${tables.schema}"`} are at version ${version}, and this release needs version ${POSTGRES_SCHEMA_VERSION}. Run \`await store.migrate()\` (or \`migratePostgres({ pool })\`) once when you deploy.`,
      code: 'STORE_FAILED',
    });
  }
}
