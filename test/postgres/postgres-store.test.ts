import { describeSessionStoreConformance } from 'ctxkit/testing';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { recallIdOf } from '../../src/agent-tools/index.js';
import { ConfigError, LeafConflictError, SessionError, StoreError } from '../../src/index.js';
import {
  type CreatePostgresStoreOptions,
  createPostgresStore,
  migratePostgres,
  POSTGRES_SCHEMA_VERSION,
} from '../../src/postgres/index.js';
import type { SessionEntryInput } from '../../src/session/index.js';
import { toolCallMessage, toolResultMessage, userMessage } from '../../src/testing/index.js';
import { createTestPool, createTestSchema, dropTestSchema, postgresUrl, requireServerInCi } from './server.js';

const say = (text: string): SessionEntryInput => ({ type: 'message', message: userMessage(text) });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected a rejection'),
    (error: unknown) => error,
  );
}

requireServerInCi();

it('says how to install pg when the connection is missing or wrong', () => {
  for (const options of [undefined, {}, { pool: 'postgres://x' }, { pool: {}, client: {} }]) {
    let error: unknown;
    try {
      createPostgresStore(options as unknown as CreatePostgresStoreOptions);
    } catch (caught) {
      error = caught;
    }
    expect(StoreError.isInstance(error) && error.code).toBe('DEPENDENCY_MISSING');
    expect((error as Error).message).toContain('npm install pg');
  }
  const pool = { query: async () => ({ rows: [] }), connect: async () => ({}) } as never;
  expect(() => createPostgresStore({ pool, schema: 'Bad Name' })).toThrow(ConfigError);
  expect(() => createPostgresStore({ pool, tablePrefix: 'x;drop' })).toThrow(/tablePrefix/);
});

describe.skipIf(postgresUrl === undefined)('PostgreSQL store', () => {
  let pool: pg.Pool;
  const schemas: string[] = [];
  beforeAll(() => {
    pool = createTestPool();
  });
  afterAll(async () => {
    for (const schema of schemas) await dropTestSchema(pool, schema);
    await pool.end();
  });
  const freshSchema = async (migrate = true) => {
    const schema = await createTestSchema(pool, migrate);
    schemas.push(schema);
    return schema;
  };

  describeSessionStoreConformance({
    name: 'PostgreSQL store',
    runner: { afterEach, describe, expect, it },
    create: async () => {
      const schema = await freshSchema();
      return {
        store: createPostgresStore({ pool, schema }),
        reopen: () => createPostgresStore({ pool, schema }),
      };
    },
  });

  describe('migrations', () => {
    it('runs explicitly, once, even when run twice or by several workers at once', async () => {
      const schema = await freshSchema(false);
      const store = createPostgresStore({ pool, schema });
      const before = await rejection(store.listSessions());
      expect(StoreError.isInstance(before) && before.message).toContain('store.migrate()');
      const results = await Promise.all([store.migrate(), migratePostgres({ pool, schema }), store.migrate()]);
      expect(results.flatMap((result) => result.applied)).toEqual([1, 2, 3]);
      expect(results.map((result) => result.to)).toEqual([3, 3, 3]);
      expect(await store.migrate()).toEqual({
        from: POSTGRES_SCHEMA_VERSION,
        to: POSTGRES_SCHEMA_VERSION,
        applied: [],
      });
      const { rows } = await pool.query(`SELECT version, name FROM "${schema}".ctxkit_migrations`);
      expect(rows).toEqual([
        { version: 1, name: 'session tree' },
        { version: 2, name: 'entries as text' },
        { version: 3, name: 'tool result index' },
      ]);
      await store.createSession({ id: 's' });
      expect(await store.getEntries('s')).toEqual([]);
    });

    it('indexes the tool results of a version-2 database: found by id, recall id and words after the upgrade', async () => {
      const schema = await freshSchema();
      const table = (name: string) => `"${schema}".ctxkit_${name}`;
      const store = createPostgresStore({ pool, schema });
      const { id } = await store.createSession({ id: 'older' });
      for (let step = 0; step < 12; step++) {
        const callId = `call_${step}`;
        await store.appendEntry(id, {
          type: 'message',
          message: toolCallMessage([{ id: callId, name: 'bash', arguments: { step } }]),
        });
        await store.appendEntry(id, {
          type: 'message',
          message: toolResultMessage(callId, step === 7 ? 'artifact checksum sha256-5f1c' : `built part ${step}`, {
            toolName: 'bash',
          }),
        });
      }
      // The tables as version 2 left them: no tool-result index.
      await pool.query(`DROP TABLE ${table('session_tool_results')}`);
      await pool.query(`DELETE FROM ${table('migrations')} WHERE version = 3`);
      const older = createPostgresStore({ pool, schema });
      expect(String(await rejection(older.getBranch(id)))).toMatch(/version 2, and this release needs version 3/);
      expect(await older.migrate()).toEqual({ from: 2, to: 3, applied: [3] });
      const [hit] = await older.searchToolResults!(id, { id: recallIdOf('call_7') });
      expect(hit).toMatchObject({ toolCallId: 'call_7', toolName: 'bash', text: 'artifact checksum sha256-5f1c' });
      expect((await older.searchToolResults!(id, { query: 'Checksum' })).map((found) => found.toolCallId)).toEqual([
        'call_7',
      ]);
      expect((await older.searchToolResults!(id, { id: 'call_3' })).map((found) => found.entryId)).toHaveLength(1);
    });

    it('moves version 1 rows (jsonb) to text: their key order is already lost, new rows keep theirs', async () => {
      const schema = await freshSchema();
      const table = (name: string) => `"${schema}".ctxkit_${name}`;
      // The tables as version 1 left them: entries and session info in jsonb only.
      await pool.query(`ALTER TABLE ${table('sessions')} DROP COLUMN info_text`);
      await pool.query(`DROP TABLE ${table('session_tool_results')}`);
      await pool.query(`DELETE FROM ${table('migrations')} WHERE version >= 2`);
      const info = { id: 'old', createdAt: 1, metadata: { zeta: 1, alpha: 2 } };
      await pool.query(
        `INSERT INTO ${table('sessions')} (id, created_at, updated_at, leaf_id, entry_count, info) VALUES ('old', now(), now(), 'e1', 1, $1::jsonb)`,
        [JSON.stringify(info)],
      );
      const entry = {
        id: 'e1',
        parentId: null,
        timestamp: 1,
        type: 'message',
        message: {
          role: 'assistant',
          content: [{ type: 'toolCall', id: 'c', name: 'f', arguments: { zeta: 1, alpha: 2 } }],
        },
      };
      await pool.query(
        `INSERT INTO ${table('session_entries')} (id, session_id, parent_id, run_id, depth, entry_type, role, data, created_at) VALUES ('e1', 'old', NULL, 'e1', 0, 'message', 'assistant', $1::jsonb, now())`,
        [JSON.stringify(entry)],
      );
      const store = createPostgresStore({ pool, schema });
      expect(String(await rejection(store.getBranch('old')))).toMatch(/version 1, and this release needs version 3/);
      expect(await store.migrate()).toEqual({ from: 1, to: 3, applied: [2, 3] });
      const { rows } = await pool.query(`SELECT data, data_text FROM ${table('session_entries')}`);
      expect(rows[0].data).toBeNull();
      // jsonb sorted the keys long ago (shorter first); the text keeps that order, and the same value.
      expect(JSON.parse(rows[0].data_text)).toEqual(entry);
      const [read] = await store.getBranch('old');
      expect(read).toEqual(entry);
      expect(JSON.stringify(read)).not.toBe(JSON.stringify(entry));
      expect((await store.getSession('old'))?.metadata).toEqual(info.metadata);
      // What is appended from now on comes back in its own order.
      const next = await store.appendEntry('old', {
        type: 'custom',
        customType: 'state',
        data: { zeta: 1, alpha: 2, mid: { b: 1, a: 2 } },
      });
      const again = await createPostgresStore({ pool, schema }).getBranch('old');
      expect(JSON.stringify(again[1])).toBe(JSON.stringify(next));
    });

    it('puts the tables under a prefix and refuses tables it did not create', async () => {
      const schema = await freshSchema(false);
      await pool.query(`CREATE SCHEMA "${schema}"; CREATE TABLE "${schema}".agent_sessions (id int)`);
      const error = await rejection(migratePostgres({ pool, schema, tablePrefix: 'agent_' }));
      expect(StoreError.isInstance(error) && error.code).toBe('STORE_FAILED');
      expect((error as Error).message).toMatch(/already exists/);
      const store = createPostgresStore({ pool, schema, tablePrefix: 'other_' });
      await store.migrate();
      await store.createSession({ id: 'p' });
      const { rows } = await pool.query(`SELECT count(*)::int AS n FROM "${schema}".other_sessions`);
      expect(rows[0].n).toBe(1);
    });
  });

  describe('rows', () => {
    it('stores the entry as the JSON text written, with the typed columns and the transcript row in one go', async () => {
      const schema = await freshSchema();
      const store = createPostgresStore({ pool, schema });
      await store.createSession({ id: 's', metadata: { cwd: '/repo' } });
      await store.appendEntry('s', say('read a.ts'));
      await store.appendEntry('s', {
        type: 'message',
        message: {
          role: 'assistant',
          content: [{ type: 'toolCall', id: 'c1', name: 'read', arguments: { path: 'a.ts' } }],
          provider: 'openai',
          model: 'gpt-4o',
        },
      });
      const result = await store.appendEntry('s', {
        type: 'message',
        message: {
          role: 'toolResult',
          toolCallId: 'c1',
          toolName: 'read',
          content: [{ type: 'text', text: 'boom' }],
          isError: true,
        },
      });
      await store.appendEntry('s', {
        type: 'compaction',
        summary: 'so far',
        firstKeptEntryId: result.id,
        tokensBefore: 900,
      });
      const { rows } = await pool.query(`SELECT * FROM "${schema}".ctxkit_session_entries ORDER BY seq`);
      expect(rows[1]).toMatchObject({ role: 'assistant', provider: 'openai', model_facing: true, display: true });
      expect(rows[2]).toMatchObject({
        role: 'toolResult',
        tool_name: 'read',
        tool_status: 'error',
        tool_args: { path: 'a.ts' },
        content: 'boom',
        data: null,
        data_text: JSON.stringify(result),
      });
      expect(rows[3]).toMatchObject({
        entry_type: 'compaction',
        compaction_first_kept_entry_id: result.id,
        compaction_tokens_before: 900,
      });
      const messages = await pool.query(
        `SELECT sender, entry_id FROM "${schema}".ctxkit_session_messages ORDER BY seq`,
      );
      expect(messages.rows.map((row) => row.sender)).toEqual(['user', 'assistant', 'tool', 'ctxkit']);
      expect((await pool.query(`SELECT cwd, leaf_id, entry_count FROM "${schema}".ctxkit_sessions`)).rows[0]).toEqual({
        cwd: '/repo',
        leaf_id: rows[3].id,
        entry_count: 4,
      });
    });

    it('keeps text that JSONB cannot hold (NUL, lone surrogates) exactly, in entries and session info', async () => {
      const schema = await freshSchema();
      const store = createPostgresStore({ pool, schema });
      const info = await store.createSession({
        id: 's',
        name: 'a\u0000b',
        metadata: { 'k\ud800': '\udc00', cwd: '/x\u0000' },
      });
      const text = 'before\u0000after \ud800 end';
      const entry = await store.appendEntry('s', say(text));
      const reopened = createPostgresStore({ pool, schema });
      expect(await reopened.getBranch('s')).toEqual([entry]);
      expect(JSON.stringify(await reopened.getSession('s'))).toBe(JSON.stringify(info));
      expect((await reopened.getMessages('s'))[0]!.message.content).toBe(text);
    });

    it('reports a row that is not a valid entry, and a broken tree, clearly', async () => {
      const schema = await freshSchema();
      const store = createPostgresStore({ pool, schema });
      await store.createSession({ id: 's' });
      const a = await store.appendEntry('s', say('a'));
      const b = await store.appendEntry('s', say('b'));
      const table = `"${schema}".ctxkit_session_entries`;
      await pool.query(`UPDATE ${table} SET parent_id = $1 WHERE id = $2`, [b.id, a.id]);
      const cycle = await rejection(createPostgresStore({ pool, schema }).getBranch('s'));
      expect(SessionError.isInstance(cycle) && cycle.code).toBe('TREE_CYCLE');
      await pool.query(`UPDATE ${table} SET parent_id = 'ghost' WHERE id = $1`, [a.id]);
      const missing = await rejection(createPostgresStore({ pool, schema }).getBranch('s'));
      expect(SessionError.isInstance(missing) && missing.code).toBe('PARENT_MISSING');
      await pool.query(`UPDATE ${table} SET data_text = '{"type":"message"}' WHERE id = $1`, [b.id]);
      const corrupt = await rejection(createPostgresStore({ pool, schema }).getEntries('s'));
      expect(StoreError.isInstance(corrupt) && corrupt.code).toBe('STORE_CORRUPT');
    });

    it('reads a branch in one query, and only the rows it has not seen before', async () => {
      const schema = await freshSchema();
      const seen: string[] = [];
      const counting = {
        query: (text: string, values?: unknown[]) => {
          seen.push(text);
          return pool.query(text, values);
        },
        connect: () => pool.connect(),
      };
      const writer = createPostgresStore({ pool, schema });
      await writer.createSession({ id: 's' });
      for (let index = 0; index < 120; index++) await writer.appendEntry('s', say(`m${index}`));
      const store = createPostgresStore({ pool: counting, schema });
      await store.getLeaf('s');
      seen.length = 0;
      const cold = await store.getBranch('s');
      expect(cold).toHaveLength(120);
      expect(seen).toHaveLength(1);
      await writer.appendEntry('s', say('new'));
      seen.length = 0;
      const warm = await store.getBranch('s');
      expect(seen).toHaveLength(1);
      expect(warm).toHaveLength(121);
      expect(warm[0]).toBe(cold[0]);
    });
  });

  describe('many writers', () => {
    it('refuses an append from a stale leaf with LEAF_CONFLICT and the current leaf; stores nothing', async () => {
      const schema = await freshSchema();
      const first = createPostgresStore({ pool, schema });
      const second = createPostgresStore({ pool, schema });
      await first.createSession({ id: 's' });
      const root = await first.appendEntry('s', say('root'), { expectedLeafId: null });
      const mine = await first.appendEntry('s', say('first worker'), { expectedLeafId: root.id });
      const error = await rejection(second.appendEntry('s', say('second worker'), { expectedLeafId: root.id }));
      expect(LeafConflictError.isInstance(error)).toBe(true);
      expect(StoreError.isInstance(error) && error.code).toBe('LEAF_CONFLICT');
      expect(error).toMatchObject({ sessionId: 's', expectedLeafId: root.id, currentLeafId: mine.id });
      expect((await second.getEntries('s')).map((entry) => entry.id)).toEqual([root.id, mine.id]);
      // Retry from the current leaf, or branch explicitly.
      const retried = await second.appendEntry('s', say('second worker'), {
        expectedLeafId: (error as LeafConflictError).currentLeafId,
      });
      expect(retried.parentId).toBe(mine.id);
      const branched = await second.appendEntry('s', { ...say('side branch'), parentId: root.id });
      expect(branched.parentId).toBe(root.id);
      await expect(first.setLeaf('s', root.id, { expectedLeafId: mine.id })).rejects.toSatisfy(
        LeafConflictError.isInstance,
      );
      await first.setLeaf('s', root.id, { expectedLeafId: branched.id });
      expect(await second.getLeaf('s')).toBe(root.id);
      await expect(first.appendEntry('s', say('x'), { expectedLeafId: 42 as never })).rejects.toThrow(
        /options\.expectedLeafId/,
      );
    });

    it('nests appends in the host transaction: a rollback leaves no trace in any cache', async () => {
      const schema = await freshSchema();
      const shared = createPostgresStore({ pool, schema });
      await shared.createSession({ id: 's' });
      const base = await shared.appendEntry('s', say('base'));
      const client = await pool.connect();
      try {
        const inTransaction = createPostgresStore({ client, schema });
        await client.query('BEGIN');
        const ghost = await inTransaction.appendEntry('s', { ...say('rolled back'), id: 'ghost' });
        expect((await inTransaction.getBranch('s')).map((entry) => entry.id)).toEqual([base.id, 'ghost']);
        // A failed append rolls back to its savepoint; the host transaction goes on.
        await expect(inTransaction.appendEntry('s', { ...say('x'), parentId: 'nowhere' })).rejects.toThrow(/nowhere/);
        expect(ghost.parentId).toBe(base.id);
        await client.query('ROLLBACK');
        expect(await inTransaction.getEntries('s')).toEqual([base]);
        expect(await inTransaction.getLeaf('s')).toBe(base.id);
        // The same id now names another entry: no cache may hand out the rolled-back one.
        const again = await inTransaction.appendEntry('s', { ...say('committed'), id: 'ghost' });
        expect(await shared.getBranch('s')).toEqual([base, again]);
        expect((await inTransaction.getBranch('s'))[1]).toMatchObject({ message: { content: 'committed' } });
        await client.query('BEGIN');
        const kept = await inTransaction.appendEntry('s', say('kept'));
        await client.query('COMMIT');
        expect((await shared.getBranch('s')).at(-1)).toEqual(kept);
      } finally {
        client.release();
      }
    });
  });
});
