/**
 * Resuming a SQLite session (`getBranch(…, { from: 'context' })`) costs what its context branch
 * costs: every statement it runs looks entries up by an index narrower than the session (never
 * counts or ranges over the whole session), and whether the tree is one chain is kept by appends.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { SessionEntryInput, SessionStore } from '../../src/session/index.js';
import { createSqliteStore, type SqliteDatabase, type SqliteStatement } from '../../src/sqlite/index.js';

const say = (text: string): SessionEntryInput => ({ type: 'message', message: { role: 'user', content: text } });

/** A database that records every statement run through it, with its parameters. */
function recording(database: Database.Database) {
  const runs: { source: string; parameters: unknown[] }[] = [];
  const recorded =
    <T>(source: string, run: (...parameters: unknown[]) => T) =>
    (...parameters: unknown[]): T => {
      runs.push({ source, parameters });
      return run(...parameters);
    };
  const wrap = (source: string, statement: SqliteStatement): SqliteStatement => ({
    run: (...parameters) => statement.run(...parameters),
    get: recorded(source, (...parameters) => statement.get(...parameters)),
    all: recorded(source, (...parameters) => statement.all(...parameters)),
    iterate: recorded(source, (...parameters) => statement.iterate!(...parameters)),
    pluck: (toggle) => wrap(source, statement.pluck!(toggle)),
  });
  const wrapped: SqliteDatabase = {
    prepare: (source) => wrap(source, database.prepare(source) as unknown as SqliteStatement),
    exec: (source) => database.exec(source),
    get inTransaction() {
      return database.inTransaction;
    },
  };
  return { wrapped, runs };
}

/** A session of `size` entries with a compaction keeping the last 20 entries, then 10 more. */
async function compactedSession(store: SessionStore, id: string, size: number): Promise<void> {
  await store.createSession({ id });
  await store.appendEntry(id, { type: 'model_change', provider: 'openai', modelId: 'gpt-4o' });
  const ids: string[] = [];
  for (let index = 0; index < size; index++) ids.push((await store.appendEntry(id, say(`m${index}`))).id);
  await store.appendEntry(id, {
    type: 'compaction',
    summary: 'so far',
    firstKeptEntryId: ids[size - 20]!,
    tokensBefore: 9,
  });
  for (let index = 0; index < 10; index++) await store.appendEntry(id, say(`after ${index}`));
}

describe('SQLite store: resuming a session', () => {
  it('looks entries up by index only: no statement reads every row of the session', async () => {
    const database = new Database(':memory:');
    await compactedSession(createSqliteStore({ database }), 's', 300);
    const { wrapped, runs } = recording(database);
    const store = createSqliteStore({ database: wrapped });
    runs.length = 0;
    const branch = await store.getBranch('s', undefined, { from: 'context' });
    expect(branch.map((entry) => entry.type)).toEqual([
      'model_change',
      ...new Array(20).fill('message'),
      'compaction',
      ...new Array(10).fill('message'),
    ]);
    const wholeSession: string[] = [];
    for (const { source, parameters } of runs) {
      const plan = database.prepare(`EXPLAIN QUERY PLAN ${source}`).all(...parameters) as { detail: string }[];
      for (const { detail } of plan) {
        // A lookup keyed by the session id alone reads every row (or index entry) of the session.
        if (/session_entries/.test(detail) && (/^SCAN/.test(detail) || /\(session_id=\?\)$/.test(detail))) {
          wholeSession.push(`${detail}: ${source.replace(/\s+/g, ' ').trim()}`);
        }
      }
    }
    expect(wholeSession).toEqual([]);
  });

  it('keeps whether the tree is one chain as entries are appended, and resumes a forked tree from its whole path', async () => {
    const database = new Database(':memory:');
    const store = createSqliteStore({ database });
    await compactedSession(store, 's', 50);
    const branched = () =>
      (database.prepare("SELECT branched FROM sessions WHERE id = 's'").get() as { branched: number }).branched;
    expect(branched()).toBe(0);
    const chain = await store.getBranch('s', undefined, { from: 'context' });
    // A second child of an entry before the compaction, carrying a later model change.
    const entries = await store.getEntries('s');
    const fork = await store.appendEntry('s', {
      type: 'model_change',
      provider: 'anthropic',
      modelId: 'claude',
      parentId: entries[5]!.id,
    });
    expect(branched()).toBe(1);
    await store.setLeaf('s', chain[chain.length - 1]!.id);
    const again = await createSqliteStore({ database }).getBranch('s', undefined, { from: 'context' });
    expect(again).toEqual(chain);
    expect(again.some((entry) => entry.id === fork.id)).toBe(false);
  });

  it('migrates a version 2 database: sessions already forked are marked', async () => {
    const database = new Database(':memory:');
    const store = createSqliteStore({ database });
    await compactedSession(store, 'chain', 30);
    await compactedSession(store, 'forked', 30);
    const first = (await store.getEntries('forked'))[1]!;
    await store.appendEntry('forked', { ...say('another child'), parentId: first.parentId });
    await store.createSession({ id: 'two-roots' });
    await store.appendEntry('two-roots', say('a'));
    await store.appendEntry('two-roots', { ...say('b'), parentId: null });
    // Back to version 2, as an older release left it.
    database.exec("ALTER TABLE sessions DROP COLUMN branched; UPDATE ctxkit_meta SET value = '2'");
    const migrated = createSqliteStore({ database });
    const rows = database.prepare('SELECT id, branched FROM sessions ORDER BY id').all();
    expect(rows).toEqual([
      { id: 'chain', branched: 0 },
      { id: 'forked', branched: 1 },
      { id: 'two-roots', branched: 1 },
    ]);
    expect((await migrated.getBranch('chain', undefined, { from: 'context' })).length).toBe(32);
  });
});
