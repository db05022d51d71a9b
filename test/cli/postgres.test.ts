// `ctxkit inspect` and `replay` on a Postgres session (the server of test/postgres/server.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJsonlStore } from 'ctxkit/node';
import { createPostgresStore } from 'ctxkit/postgres';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SessionInspection } from '../../src/cli/inspect-session.js';
import { createTestPool, createTestSchema, dropTestSchema, postgresUrl } from '../postgres/server.js';
import { type RecordedSessions, recordSessions } from './record-sessions.js';
import { runCli } from './run-cli.js';

const SETTINGS = ['--window', '16000', '--reserve', '3000', '--keep-recent-tokens', '2000'];

describe.skipIf(postgresUrl === undefined)('ctxkit on a Postgres session', () => {
  let sessions: RecordedSessions;
  let pool: pg.Pool;
  let schema: string;
  let url: string;

  beforeAll(async () => {
    sessions = await recordSessions(mkdtempSync(join(tmpdir(), 'ctxkit-cli-pg-')));
    pool = createTestPool(2);
    schema = await createTestSchema(pool);
    const store = createPostgresStore({ pool, schema });
    const source = createJsonlStore({ directory: sessions.directory });
    // The compacted and the plain session, entry by entry (ids, parents and timestamps kept).
    for (const id of ['compacted', 'plain']) {
      await store.createSession({ id });
      for (const entry of await source.getEntries(id)) await store.appendEntry(id, entry);
    }
    url = postgresUrl!;
  });

  afterAll(async () => {
    await dropTestSchema(pool, schema);
    await pool.end();
    rmSync(sessions.directory, { recursive: true, force: true });
  });

  test('inspects a session as it inspects the same session in a JSONL file, without writing', async () => {
    const before = await pool.query(`SELECT count(*)::int AS rows FROM "${schema}".ctxkit_session_entries`);
    const [fromPostgres, fromFile, unchosen] = await Promise.all([
      runCli(['inspect', url, '--schema', schema, '--session', 'compacted', '--json', ...SETTINGS]),
      runCli(['inspect', sessions.compacted, '--json', ...SETTINGS]),
      runCli(['inspect', url, '--schema', schema]),
    ]);
    expect(fromPostgres.stderr).toBe('');
    expect(fromPostgres.exitCode).toBe(0);
    const postgres = JSON.parse(fromPostgres.stdout) as SessionInspection;
    const file = JSON.parse(fromFile.stdout) as SessionInspection;
    expect(postgres.session.source.kind).toBe('postgres');
    expect(postgres.context).toEqual(file.context);
    // JSONB keeps object keys in its own order, so tool-call arguments print in another order.
    const outline = (inspection: SessionInspection) =>
      inspection.compactions.map(({ replaced, ...compaction }) => ({
        ...compaction,
        replaced: replaced.map(({ entryId, fate, tokens }) => ({ entryId, fate, tokens })),
      }));
    expect(outline(postgres)).toEqual(outline(file));
    expect(postgres.compactions.length).toBe(sessions.compactions);
    expect(postgres.timeline).toEqual(file.timeline);
    expect(unchosen.exitCode).toBe(2);
    expect(unchosen.stderr).toMatch(/holds 2 sessions; pick one with --session <id>\.[\s\S]*compacted[\s\S]*plain/);
    const after = await pool.query(`SELECT count(*)::int AS rows FROM "${schema}".ctxkit_session_entries`);
    expect(after.rows).toEqual(before.rows);
  });

  test('replays, and says what is wrong with a bad schema or server', async () => {
    const [replay, noTables, noServer] = await Promise.all([
      runCli(['replay', url, '--schema', schema, '--session', 'compacted', '--json', ...SETTINGS]),
      runCli(['inspect', url, '--schema', 'no_such_schema']),
      runCli(['inspect', 'postgres://nobody:secret@127.0.0.1:1/none']),
    ]);
    expect(replay.exitCode).toBe(0);
    expect(JSON.parse(replay.stdout).recorded.length).toBe(sessions.compactions);
    expect(noTables.exitCode).toBe(3);
    expect(noTables.stderr).toContain('--schema and --table-prefix');
    expect(noServer.exitCode).toBe(3);
    expect(noServer.stderr).toContain('Cannot read sessions from postgres://nobody:***@127.0.0.1:1/none');
    expect(noServer.stderr).not.toContain('secret');
  });
});
