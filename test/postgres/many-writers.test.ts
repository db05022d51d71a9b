import { type ChildProcess, spawn } from 'node:child_process';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SessionEntry, StoreError } from '../../src/index.js';
import { createPostgresStore, type PostgresSessionStore } from '../../src/postgres/index.js';
import type { SessionEntryInput } from '../../src/session/index.js';
import { userMessage } from '../../src/testing/index.js';
import { bundledScript } from '../harness/bundled-script.js';
import { createTestPool, createTestSchema, dropTestSchema, postgresUrl, requireServerInCi } from './server.js';

const worker = new URL('./worker.ts', import.meta.url);
const say = (text: string): SessionEntryInput => ({ type: 'message', message: userMessage(text) });

/** Runs the worker script in its own Node process. */
async function startWorker(mode: 'append' | 'hold', job: Record<string, unknown>): Promise<ChildProcess> {
  const script = await bundledScript(worker);
  return spawn(process.execPath, [script, mode, JSON.stringify({ url: postgresUrl, ...job })], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function finished(child: ChildProcess): Promise<string> {
  let output = '';
  let errors = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    errors += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`worker exited ${code}: ${errors}`))));
  });
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('\n')) resolve(output.split('\n')[0]!);
    });
    child.on('exit', (code) => reject(new Error(`worker exited ${code} before it was ready`)));
  });
}

/** Every entry of the session on one chain from the root to the leaf: nothing lost, nothing forked. */
async function expectOneChain(store: PostgresSessionStore, sessionId: string, count: number): Promise<SessionEntry[]> {
  const entries = await store.getEntries(sessionId);
  const branch = await store.getBranch(sessionId);
  expect(entries).toHaveLength(count);
  expect(branch).toHaveLength(count);
  const parents = new Set(entries.map((entry) => entry.parentId));
  expect(parents.size).toBe(count);
  return branch;
}

requireServerInCi();

describe.skipIf(postgresUrl === undefined)('PostgreSQL store: many writers', () => {
  let pool: pg.Pool;
  let schema: string;
  let store: PostgresSessionStore;
  beforeAll(async () => {
    pool = createTestPool();
    schema = await createTestSchema(pool);
    store = createPostgresStore({ pool, schema });
  });
  afterAll(async () => {
    await dropTestSchema(pool, schema);
    await pool.end();
  });

  it('8 processes append to one session and to many sessions: nothing lost or forked', async () => {
    const processes = 8;
    const count = 6;
    await store.createSession({ id: 'shared' });
    const sessions = Array.from({ length: 3 }, (_, index) => `many-${index}`);
    for (const id of sessions) await store.createSession({ id });
    const reports = await Promise.all(
      Array.from({ length: processes }, (_, worker) =>
        startWorker('append', { schema, worker, session: 'shared', sessions, count }).then(finished),
      ),
    );
    // Every worker finished; stale appends were refused and retried (how many depends on timing).
    expect(reports.map((line) => (JSON.parse(line) as { worker: number }).worker).sort()).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7,
    ]);
    const branch = await expectOneChain(store, 'shared', processes * count);
    const texts = branch.map((entry) => (entry.type === 'message' ? entry.message.content : ''));
    for (let index = 0; index < processes; index++) {
      // Each worker's appends are on the branch, in its own order.
      const own = texts.filter((text) => typeof text === 'string' && text.startsWith(`w${index}-`));
      expect(own).toEqual(Array.from({ length: count }, (_, step) => `w${index}-${step}`));
    }
    for (const id of sessions) await expectOneChain(store, id, processes * count);
  });

  it('a client killed mid-transaction leaves nothing behind and does not block the session', async () => {
    const session = await store.createSession();
    const before = await store.appendEntry(session.id, say('before'));
    const holder = await startWorker('hold', { schema, session: session.id });
    const line = await firstLine(holder);
    expect(line).toMatch(/^held /);
    const heldId = line.slice('held '.length);
    // This append waits for the holder's row lock, which goes when the killed client's
    // transaction is rolled back by the server.
    const waiting = store.appendEntry(session.id, say('after'), { expectedLeafId: before.id });
    holder.kill('SIGKILL');
    const after = await waiting;
    expect(after.parentId).toBe(before.id);
    const entries = await store.getEntries(session.id);
    expect(entries.map((entry) => entry.id)).toEqual([before.id, after.id]);
    expect(entries.some((entry) => entry.id === heldId)).toBe(false);
  });

  it('a dropped connection fails the call with a StoreError, writes nothing, and the next call works', async () => {
    const session = await store.createSession();
    const first = await store.appendEntry(session.id, say('first'));
    // Hold the session's row so that the store's append waits on its lock, then terminate it.
    const blocker = await pool.connect();
    await blocker.query('BEGIN');
    await blocker.query(`SELECT 1 FROM "${schema}".ctxkit_sessions WHERE id = $1 FOR UPDATE`, [session.id]);
    const waiting = store.appendEntry(session.id, { ...say('lost'), id: 'lost' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    let pid: number | undefined;
    for (let attempt = 0; pid === undefined && attempt < 200; attempt++) {
      // Only this test's schema: other test files share the server and may wait on locks too.
      const { rows } = await pool.query(
        "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE%' AND strpos(query, $1) > 0 AND pid <> pg_backend_pid()",
        [`"${schema}"`],
      );
      pid = rows[0]?.pid;
      if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(pid).toBeDefined();
    await pool.query('SELECT pg_terminate_backend($1)', [pid]);
    const error = await waiting;
    expect(StoreError.isInstance(error) && error.code).toBe('STORE_FAILED');
    expect((error as Error).message).toMatch(/connection|terminat/i);
    await blocker.query('COMMIT');
    blocker.release();
    const next = await store.appendEntry(session.id, say('next'));
    expect(next.parentId).toBe(first.id);
    expect((await store.getEntries(session.id)).map((entry) => entry.id)).toEqual([first.id, next.id]);
  });
});
