import pg from 'pg';
import { migratePostgres } from '../src/postgres/index.ts';
const pool = new pg.Pool({ connectionString: process.env.CTXKIT_TEST_POSTGRES_URL });
const schema = 'dbg_' + Date.now();
try {
  console.log(await Promise.all([migratePostgres({ pool, schema }), migratePostgres({ pool, schema }), migratePostgres({ pool, schema })]));
} catch (e) { console.log(e.message, e.cause?.detail); }
await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
await pool.end();
