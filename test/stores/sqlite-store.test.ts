import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describeSessionStoreConformance } from 'ctxkit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/index.js';
import { type CreateSqliteStoreOptions, createSqliteStore, SQLITE_SCHEMA_VERSION } from '../../src/sqlite/index.js';

describeSessionStoreConformance({
  name: 'SQLite store',
  runner: { afterEach, describe, expect, it },
  create: async () => {
    const directory = await mkdtemp(join(tmpdir(), 'ctxkit-sqlite-'));
    const path = join(directory, 'sessions.db');
    // As a host would open it: write-ahead log, synced at checkpoints (not on every append).
    const connect = () => {
      const database = new Database(path);
      database.pragma('journal_mode = WAL');
      database.pragma('synchronous = NORMAL');
      return database;
    };
    const databases = [connect()];
    const open = () => {
      const database = connect();
      databases.push(database);
      return createSqliteStore({ database });
    };
    return {
      store: createSqliteStore({ database: databases[0]! }),
      reopen: open,
      cleanup: async () => {
        for (const database of databases) database.close();
        await rm(directory, { recursive: true, force: true });
      },
    };
  },
});

describe('SQLite store schema', () => {
  const open = () => new Database(':memory:');

  it('writes the typed metadata columns and the message index in one go', async () => {
    const database = open();
    const store = createSqliteStore({ database });
    const { id } = await store.createSession({ id: 's1', name: 'demo', metadata: { cwd: '/repo' } });
    await store.appendEntry(id, { type: 'message', message: { role: 'user', content: 'read a.ts' } });
    await store.appendEntry(id, {
      type: 'message',
      message: {
        role: 'assistant',
        content: [{ type: 'toolCall', id: 'c1', name: 'read', arguments: { path: 'a.ts' } }],
        provider: 'openai',
        model: 'gpt-4o',
      },
    });
    const result = await store.appendEntry(id, {
      type: 'message',
      message: {
        role: 'toolResult',
        toolCallId: 'c1',
        toolName: 'read',
        content: [{ type: 'text', text: 'boom' }],
        isError: true,
        meta: { agentVisible: false },
      },
    });
    const compaction = await store.appendEntry(id, {
      type: 'compaction',
      summary: 'so far',
      firstKeptEntryId: result.id,
      tokensBefore: 900,
    });
    await store.appendEntry(id, { type: 'branch_summary', fromId: compaction.id, summary: 'left' });
    await store.appendEntry(id, { type: 'label', targetId: result.id, label: 'x' });

    const rows = database.prepare('SELECT * FROM session_entries ORDER BY seq').all() as Record<string, unknown>[];
    expect(rows[1]).toMatchObject({
      role: 'assistant',
      provider: 'openai',
      model: 'gpt-4o',
      model_facing: 1,
      display: 1,
    });
    expect(rows[2]).toMatchObject({
      entry_type: 'message',
      role: 'toolResult',
      tool_name: 'read',
      tool_status: 'error',
      tool_args_json: '{"path":"a.ts"}',
      token_estimate: 1,
      model_facing: 0,
      content: 'boom',
    });
    expect(rows[3]).toMatchObject({
      entry_type: 'compaction',
      role: 'compaction_summary',
      summary: 'so far',
      compaction_first_kept_entry_id: result.id,
      compaction_tokens_before: 900,
    });
    expect(rows[4]).toMatchObject({ entry_type: 'branch_summary', branch_from_entry_id: compaction.id });
    expect(rows[5]).toMatchObject({ entry_type: 'label', role: null, model_facing: 0, display: 0 });
    expect(JSON.parse(rows[2]!['data_json'] as string)).toEqual(result);

    const messages = database.prepare('SELECT sender, role, entry_id FROM session_messages ORDER BY seq').all();
    expect(messages).toHaveLength(5);
    expect(messages[2]).toMatchObject({ sender: 'tool', role: 'toolResult', entry_id: result.id });
    expect(database.prepare('SELECT cwd, name, leaf_id FROM sessions').get()).toMatchObject({
      cwd: '/repo',
      name: 'demo',
    });
    expect(database.prepare("SELECT value FROM ctxkit_meta WHERE key = 'schema_version'").get()).toEqual({
      value: String(SQLITE_SCHEMA_VERSION),
    });
    database.close();
  });

  it('rolls back a rejected append', async () => {
    const database = open();
    const store = createSqliteStore({ database });
    const { id } = await store.createSession();
    await expect(
      store.appendEntry(id, { type: 'message', message: { role: 'user', content: 'x' }, parentId: 'ghost' }),
    ).rejects.toThrow(/ghost/);
    expect(database.prepare('SELECT count(*) AS n FROM session_entries').get()).toEqual({ n: 0 });
    expect(database.prepare('SELECT count(*) AS n FROM session_messages').get()).toEqual({ n: 0 });
    database.close();
  });

  it('sees entries another connection appended', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'ctxkit-sqlite-'));
    const path = join(directory, 'shared.db');
    const first = new Database(path);
    const second = new Database(path);
    const a = createSqliteStore({ database: first });
    const b = createSqliteStore({ database: second });
    const { id } = await a.createSession();
    const one = await a.appendEntry(id, { type: 'message', message: { role: 'user', content: 'one' } });
    const two = await b.appendEntry(id, { type: 'message', message: { role: 'user', content: 'two' } });
    expect(two.parentId).toBe(one.id);
    expect((await a.getBranch(id)).map((entry) => entry.id)).toEqual([one.id, two.id]);
    first.close();
    second.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('reads through a database whose statements cannot iterate (only `all`)', async () => {
    const database = open();
    // The structural minimum of the store's types: statements with run, get and all, nothing else.
    const minimal = {
      prepare: (source: string) => {
        const statement = database.prepare(source);
        return {
          run: (...parameters: unknown[]) => statement.run(...parameters),
          get: (...parameters: unknown[]) => statement.get(...parameters),
          all: (...parameters: unknown[]) => statement.all(...parameters),
        };
      },
      exec: (source: string) => database.exec(source),
      get inTransaction() {
        return database.inTransaction;
      },
    };
    const store = createSqliteStore({ database: minimal });
    const { id } = await store.createSession();
    const ids: string[] = [];
    for (const text of ['one', 'two', 'three']) {
      ids.push((await store.appendEntry(id, { type: 'message', message: { role: 'user', content: text } })).id);
    }
    expect((await createSqliteStore({ database: minimal }).getBranch(id)).map((entry) => entry.id)).toEqual(ids);
    expect((await createSqliteStore({ database }).getEntries(id)).map((entry) => entry.id)).toEqual(ids);
    await expectCorruptRowNamed(database, minimal);
  });

  /** Damages the second row of the only session in `database`: a new store names that row. */
  async function expectCorruptRowNamed(
    database: Database.Database,
    through: CreateSqliteStoreOptions['database'],
    damaged = '{"id":"broken"}',
  ) {
    const seq = (
      database.prepare('SELECT seq FROM session_entries ORDER BY seq LIMIT 1 OFFSET 1').get() as { seq: number }
    ).seq;
    database.prepare('UPDATE session_entries SET data_json = ? WHERE seq = ?').run(damaged, seq);
    const [{ id }] = database.prepare('SELECT id FROM sessions').all() as [{ id: string }];
    const error = await createSqliteStore({ database: through })
      .getBranch(id)
      .catch((caught: unknown) => caught);
    expect(StoreError.isInstance(error) && error.code).toBe('STORE_CORRUPT');
    expect((error as Error).message).toContain(`Row ${seq} of session_entries is not a valid entry`);
  }

  it('names the row that is not a valid entry', async () => {
    const database = open();
    const store = createSqliteStore({ database });
    const { id } = await store.createSession();
    for (const text of ['one', 'two', 'three']) {
      await store.appendEntry(id, { type: 'message', message: { role: 'user', content: text } });
    }
    await expectCorruptRowNamed(database, database);
  });

  it('names the row whose JSON is torn', async () => {
    const database = open();
    const store = createSqliteStore({ database });
    const { id } = await store.createSession();
    for (const text of ['one', 'two', 'three']) {
      await store.appendEntry(id, { type: 'message', message: { role: 'user', content: text } });
    }
    await expectCorruptRowNamed(database, database, '{"id":"e2","parentId":"e1","type":"mess');
  });

  it('names the session whose row of sessions is torn or not session info, on every read of it', async () => {
    for (const damaged of ['{"id":"s1","createdAt":', '{"id":"s1","createdAt":"yesterday"}']) {
      const database = open();
      const store = createSqliteStore({ database });
      await store.createSession({ id: 's1' });
      await store.appendEntry('s1', { type: 'message', message: { role: 'user', content: 'hi' } });
      database.prepare('UPDATE sessions SET data_json = ? WHERE id = ?').run(damaged, 's1');
      const fresh = createSqliteStore({ database });
      for (const read of [() => fresh.getSession('s1'), () => fresh.listSessions(), () => fresh.getEntries('s1')]) {
        const error = await read().catch((caught: unknown) => caught);
        expect(StoreError.isInstance(error) && error.code, damaged).toBe('STORE_CORRUPT');
        expect((error as Error).message).toContain('The sessions row of session "s1"');
      }
    }
  });

  it('says how to install better-sqlite3 when the database is missing or wrong', () => {
    for (const database of [undefined, {}, 'sessions.db']) {
      let error: unknown;
      try {
        createSqliteStore({ database } as unknown as CreateSqliteStoreOptions);
      } catch (caught) {
        error = caught;
      }
      expect(StoreError.isInstance(error) && error.code).toBe('DEPENDENCY_MISSING');
      expect((error as Error).message).toContain('npm install better-sqlite3');
      expect((error as Error).message).toContain('new Database(path)');
    }
  });

  it('refuses tables of its names that it did not create, and records no schema version', () => {
    const database = open();
    database.exec('CREATE TABLE sessions (id TEXT PRIMARY KEY, title TEXT)');
    const attempt = () => createSqliteStore({ database });
    expect(attempt).toThrow(StoreError);
    expect(attempt).toThrow(/"sessions" table that ctxkit did not create/);
    // Nothing was written: not even the table of the schema version.
    const meta = database.prepare("SELECT name FROM sqlite_master WHERE name = 'ctxkit_meta'").get();
    expect(meta).toBeUndefined();
  });

  it("appends inside the host's own transaction, committing or rolling back with it", async () => {
    const database = open();
    const store = createSqliteStore({ database });
    const { id } = await store.createSession({ id: 's1' });
    database.exec('BEGIN');
    await store.appendEntry(id, { type: 'message', message: { role: 'user', content: 'in the host transaction' } });
    database.exec('ROLLBACK');
    const reopened = createSqliteStore({ database });
    expect(await reopened.getEntries(id)).toEqual([]);
    database.exec('BEGIN');
    await reopened.appendEntry(id, { type: 'message', message: { role: 'user', content: 'kept' } });
    database.exec('COMMIT');
    expect(await createSqliteStore({ database }).getEntries(id)).toHaveLength(1);
  });

  it("forgets an append the host's transaction rolled back: the same store appends on, readable", async () => {
    const database = open();
    const store = createSqliteStore({ database });
    const { id } = await store.createSession({ id: 's1' });
    const say = (content: string) => ({ type: 'message' as const, message: { role: 'user' as const, content } });
    const first = await store.appendEntry(id, say('committed'));
    database.exec('BEGIN');
    const rolledBack = await store.appendEntry(id, say('rolled back'));
    expect(await store.getLeaf(id)).toBe(rolledBack.id);
    database.exec('ROLLBACK');
    expect(await store.getEntries(id)).toEqual([first]);
    expect(await store.getLeaf(id)).toBe(first.id);
    const next = await store.appendEntry(id, say('after the rollback'));
    expect(next.parentId).toBe(first.id);
    const again = await store.appendEntry(id, say('and on'));
    expect(again.parentId).toBe(next.id);
    // A fresh store on the database sees the same tree, and it opens.
    const fresh = createSqliteStore({ database });
    expect((await fresh.getBranch(id)).map((entry) => entry.id)).toEqual([first.id, next.id, again.id]);
    // A rolled-back first append (no committed row at all) is forgotten too.
    const { id: other } = await store.createSession({ id: 's2' });
    database.exec('BEGIN');
    await store.appendEntry(other, say('gone'));
    database.exec('ROLLBACK');
    expect((await store.appendEntry(other, say('root'))).parentId).toBeNull();
    expect(await createSqliteStore({ database }).getEntries(other)).toHaveLength(1);
  });

  it('refuses a schema from a newer release', () => {
    const database = open();
    database.exec(
      "CREATE TABLE ctxkit_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO ctxkit_meta VALUES ('schema_version', '99')",
    );
    expect(() => createSqliteStore({ database })).toThrow(/version 99/);
    database.close();
  });

  it('opens an existing database without migrating it again', async () => {
    const database = open();
    const store = createSqliteStore({ database });
    const { id } = await store.createSession();
    await store.appendEntry(id, { type: 'message', message: { role: 'user', content: 'kept' } });
    const again = createSqliteStore({ database });
    expect(await again.getEntries(id)).toEqual(await store.getEntries(id));
    database.close();
  });
});
