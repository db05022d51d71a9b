// The SQLite store's tool-result index (schema version 4): FTS5 and the id columns, created for a
// new database and built from the rows of a database written at version 3.
import Database from 'better-sqlite3';
import { recallIdOf } from 'ctxkit/agent-tools';
import { describe, expect, it } from 'vitest';
import { createSqliteStore, SQLITE_SCHEMA_VERSION } from '../../src/sqlite/index.js';
import { toolCallMessage, toolResultMessage, userMessage } from '../../src/testing/index.js';

async function writeSession(database: Database.Database) {
  const store = createSqliteStore({ database });
  const { id } = await store.createSession({ id: 'older' });
  await store.appendEntry(id, { type: 'message', message: userMessage('build it') });
  for (let step = 0; step < 30; step++) {
    const callId = `call_${step}`;
    await store.appendEntry(id, {
      type: 'message',
      message: toolCallMessage([{ id: callId, name: 'bash', arguments: { command: `make part${step}` } }]),
    });
    await store.appendEntry(id, {
      type: 'message',
      message: toolResultMessage(callId, step === 7 ? 'artifact checksum sha256-5f1c' : `built part${step}`, {
        toolName: 'bash',
      }),
    });
  }
  return id;
}

describe('SQLite tool-result index', () => {
  it('has FTS5 compiled in (better-sqlite3 bundles SQLite with it)', () => {
    const database = new Database(':memory:');
    const options = database.pragma('compile_options', { simple: false }) as { compile_options: string }[];
    expect(options.map((row) => row.compile_options)).toContain('ENABLE_FTS5');
    expect(SQLITE_SCHEMA_VERSION).toBe(4);
  });

  it('upgrades a version-3 database: the results stored before are found by id, recall id and words', async () => {
    const database = new Database(':memory:');
    const sessionId = await writeSession(database);
    // The database as release 3 left it: the same tables, without the index and at version 3.
    database.exec(
      "DROP TABLE session_tool_results; DROP TABLE session_tool_results_fts; UPDATE ctxkit_meta SET value = '3' WHERE key = 'schema_version'",
    );
    const tables = () =>
      (
        database
          .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'session_tool_results%'")
          .all() as {
          name: string;
        }[]
      )
        .map((row) => row.name)
        .filter((name) => !name.includes('_fts_'));
    expect(tables()).toEqual([]);
    const store = createSqliteStore({ database });
    expect(tables().sort()).toEqual(['session_tool_results', 'session_tool_results_fts']);
    const version = database.prepare("SELECT value FROM ctxkit_meta WHERE key = 'schema_version'").get() as {
      value: string;
    };
    expect(version.value).toBe('4');
    const [hit] = await store.searchToolResults!(sessionId, { id: recallIdOf('call_7') });
    expect(hit).toMatchObject({ toolCallId: 'call_7', toolName: 'bash', text: 'artifact checksum sha256-5f1c' });
    const byWords = await store.searchToolResults!(sessionId, { query: 'checksum' });
    expect(byWords.map((found) => found.toolCallId)).toEqual(['call_7']);
    // And what is appended after the upgrade is indexed as it is written.
    await store.appendEntry(sessionId, {
      type: 'message',
      message: toolCallMessage([{ id: 'call_new', name: 'bash', arguments: {} }]),
    });
    await store.appendEntry(sessionId, {
      type: 'message',
      message: toolResultMessage('call_new', 'second checksum', { toolName: 'bash' }),
    });
    const again = await store.searchToolResults!(sessionId, { query: 'checksum' });
    expect(again.map((found) => found.toolCallId).sort()).toEqual(['call_7', 'call_new']);
  });

  it('reads query words as words, never as FTS5 syntax', async () => {
    const database = new Database(':memory:');
    const sessionId = await writeSession(database);
    const store = createSqliteStore({ database });
    for (const query of ['"', 'NEAR(', 'checksum OR', '* AND ^', 'col:value', "'; DROP TABLE sessions; --"])
      await expect(store.searchToolResults!(sessionId, { query })).resolves.toBeInstanceOf(Array);
    expect((await store.searchToolResults!(sessionId, { query: 'checksum"' })).length).toBeLessThanOrEqual(1);
  });
});
