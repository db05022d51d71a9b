/**
 * A separate process for the many-writers tests, bundled (test/harness/bundled-script.ts) and run as
 * `node <bundle> <mode> <json>`:
 * - `append`: appends `count` entries to `session`, each stating the leaf it extends and retrying
 *   on a conflict, then `count` entries to each of `sessions` without stating it; prints a JSON
 *   report.
 * - `hold`: appends one entry inside a transaction it never commits, prints `held <id>`, and waits
 *   to be killed.
 */
import pg from 'pg';
import { LeafConflictError } from '../../src/index.js';
import { createPostgresStore } from '../../src/postgres/index.js';

const [mode, json] = process.argv.slice(2);
const job = JSON.parse(json!) as {
  url: string;
  schema: string;
  worker: number;
  session: string;
  sessions: string[];
  count: number;
};

if (mode === 'append') {
  const pool = new pg.Pool({ connectionString: job.url, max: 2 });
  const store = createPostgresStore({ pool, schema: job.schema });
  let conflicts = 0;
  for (let index = 0; index < job.count; index++) {
    for (;;) {
      const leaf = await store.getLeaf(job.session);
      try {
        await store.appendEntry(
          job.session,
          { type: 'message', message: { role: 'user', content: `w${job.worker}-${index}` } },
          { expectedLeafId: leaf },
        );
        break;
      } catch (error) {
        if (!LeafConflictError.isInstance(error)) throw error;
        conflicts++;
      }
    }
  }
  for (let index = 0; index < job.count; index++) {
    await Promise.all(
      job.sessions.map((session) =>
        store.appendEntry(session, { type: 'message', message: { role: 'user', content: `w${job.worker}-${index}` } }),
      ),
    );
  }
  await pool.end();
  process.stdout.write(`${JSON.stringify({ worker: job.worker, conflicts })}\n`);
} else if (mode === 'hold') {
  const client = new pg.Client({ connectionString: job.url });
  await client.connect();
  await client.query('BEGIN');
  const store = createPostgresStore({ client, schema: job.schema });
  const entry = await store.appendEntry(job.session, { type: 'message', message: { role: 'user', content: 'held' } });
  process.stdout.write(`held ${entry.id}\n`);
  await new Promise(() => {});
} else {
  throw new Error(`unknown mode ${mode}`);
}
