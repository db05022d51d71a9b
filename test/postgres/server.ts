/**
 * The PostgreSQL server the tests use: `CTXKIT_TEST_POSTGRES_URL` (started by
 * `scripts/postgres-test-server.sh start`). Locally, without it, the tests skip with a warning; in
 * CI (`CI` set), a missing server fails the run.
 */
import pg from 'pg';
import { expect, it } from 'vitest';
import { migratePostgres } from '../../src/postgres/index.js';

export const postgresUrl = process.env['CTXKIT_TEST_POSTGRES_URL'];
const inCi = process.env['CI'] !== undefined && process.env['CI'] !== '' && process.env['CI'] !== 'false';

if (postgresUrl === undefined) {
  console.warn(
    'Skipping the PostgreSQL store tests: CTXKIT_TEST_POSTGRES_URL is not set. Start a server with `eval "$(bash scripts/postgres-test-server.sh start)"`.',
  );
}

/** In CI, a test that fails when the server is missing (so the Postgres tests never skip there). */
export function requireServerInCi(): void {
  it.runIf(inCi && postgresUrl === undefined)('has a PostgreSQL server in CI', () => {
    expect(postgresUrl, 'CI must run the PostgreSQL tests: set CTXKIT_TEST_POSTGRES_URL (see .ci/run)').toBeDefined();
  });
}

/** A pool on the test server that survives terminated connections. */
export function createTestPool(max = 8): pg.Pool {
  const pool = new pg.Pool({ connectionString: postgresUrl, max });
  pool.on('error', () => {});
  return pool;
}

let counter = 0;

/** A fresh, migrated schema name, so that every test has its own tables. */
export async function createTestSchema(pool: pg.Pool, migrate = true): Promise<string> {
  const schema = `ctxkit_test_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  if (migrate) await migratePostgres({ pool, schema });
  return schema;
}

export async function dropTestSchema(pool: pg.Pool, schema: string): Promise<void> {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}
