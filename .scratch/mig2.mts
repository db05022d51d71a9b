import pg from 'pg';
import { migratePostgres } from '../src/postgres/index.ts';
const pool = new pg.Pool({ connectionString: process.env.CTXKIT_TEST_POSTGRES_URL, max: 8 });
let failures = 0;
for (let round = 0; round < 40; round++) {
  const schema = 'dbg_' + Date.now() + '_' + round;
  try {
    await Promise.all(Array.from({ length: 4 }, () => migratePostgres({ pool, schema })));
  } catch (e) { failures++; console.log(e.message); }
  await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
}
console.log('failures', failures);
await pool.end();
