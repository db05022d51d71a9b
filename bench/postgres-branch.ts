/**
 * `npm run bench:postgres`: reading a 100,000-entry branch from the PostgreSQL store, against the
 * server in `CTXKIT_TEST_POSTGRES_URL` (`eval "$(bash scripts/postgres-test-server.sh start)"`).
 * Prints the time and the number of queries of a cold read (a new store), a warm read (nothing
 * new), a read after one append, and one append. The session is written with one SQL statement
 * in the store's row format, then checked through the store.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createPostgresStore, migratePostgres } from '../src/postgres/index.js';

const ENTRIES = Number(process.env['ENTRIES'] ?? 100_000);
const url = process.env['CTXKIT_TEST_POSTGRES_URL'];
if (url === undefined) {
  console.error('Set CTXKIT_TEST_POSTGRES_URL: eval "$(bash scripts/postgres-test-server.sh start)"');
  process.exit(1);
}

const pool = new pg.Pool({ connectionString: url, max: 4 });
const schema = `ctxkit_bench_${process.pid}`;
let queries = 0;
const counted = {
  query: (text: string, values?: unknown[]) => {
    queries++;
    return pool.query(text, values);
  },
  connect: async () => {
    const client = await pool.connect();
    return Object.assign(Object.create(client) as pg.PoolClient, {
      query: (text: string, values?: unknown[]) => {
        queries++;
        return client.query(text, values);
      },
      release: (error?: Error | boolean) => client.release(error),
    });
  },
};

async function time<T>(label: string, work: () => Promise<T>): Promise<T> {
  queries = 0;
  const started = performance.now();
  const result = await work();
  console.log(
    `${label.padEnd(34)} ${(performance.now() - started).toFixed(0).padStart(6)} ms  ${queries} statement${queries === 1 ? '' : 's'}`,
  );
  return result;
}

try {
  await migratePostgres({ pool, schema });
  const table = (name: string) => `"${schema}".ctxkit_${name}`;
  await pool.query(
    `INSERT INTO ${table('sessions')} (id, created_at, updated_at, leaf_id, entry_count, info, info_text)
     VALUES ('long', now(), now(), $1, $2, '{"id":"long","createdAt":0}', '{"id":"long","createdAt":0}')`,
    [`e${ENTRIES}`, ENTRIES],
  );
  await pool.query(
    `INSERT INTO ${table('session_entries')} (id, session_id, parent_id, run_id, depth, entry_type, role, content, data_text, created_at, token_estimate, model_facing, display)
     SELECT 'e' || i, 'long', CASE WHEN i = 1 THEN NULL ELSE 'e' || (i - 1) END, 'e1', i - 1, 'message', 'user', m.text,
            json_build_object('id', 'e' || i, 'parentId', CASE WHEN i = 1 THEN NULL ELSE 'e' || (i - 1) END,
              'timestamp', i, 'type', 'message', 'message', json_build_object('role', 'user', 'content', m.text))::text,
            now(), 20, true, true
       FROM generate_series(1, $1::int) AS i,
            LATERAL (SELECT 'step ' || i || ': checked src/module_' || (i % 97) || '.ts and ran the tests' AS text) AS m`,
    [ENTRIES],
  );
  await pool.query(`ANALYZE ${table('session_entries')}`);
  console.log(`PostgreSQL store, one branch of ${ENTRIES.toLocaleString('en')} entries (${new Date().toISOString()})`);
  const store = createPostgresStore({ pool: counted, schema });
  await store.getLeaf('long');
  const cold = await time('getBranch, cold (new store)', () => store.getBranch('long'));
  if (cold.length !== ENTRIES) throw new Error(`read ${cold.length} entries`);
  await time('getBranch, warm (nothing new)', () => store.getBranch('long'));
  await time('appendEntry', () =>
    store.appendEntry('long', { type: 'message', message: { role: 'user', content: 'one more' } }),
  );
  const after = await time('getBranch after one append', () => store.getBranch('long'));
  if (after.length !== ENTRIES + 1 || after[0] !== cold[0]) throw new Error('warm read did not reuse entries');
  await time('getEntries, cold (new store)', () => createPostgresStore({ pool: counted, schema }).getEntries('long'));
} finally {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
}
