/**
 * Opening a SQLite store whose schema is current must not write: a read-only connection opens it,
 * an open does not wait for another connection's write, and eight processes that open the
 * database and append, over and over, in rollback-journal mode (SQLite's default), never fail with
 * "database is locked".
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { build } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/sqlite/index.js';

describe('SQLite store: opening does not write', () => {
  let directory: string;
  let file: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'ctxkit-sqlite-open-'));
    file = join(directory, 'sessions.db');
    const database = new Database(file);
    const store = createSqliteStore({ database });
    await store.createSession({ id: 's' });
    await store.appendEntry('s', { type: 'message', message: { role: 'user', content: 'hello' } });
    database.close();
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));

  it('opens on a read-only connection and reads', async () => {
    const database = new Database(file, { readonly: true });
    try {
      const store = createSqliteStore({ database });
      expect((await store.getBranch('s')).map((entry) => entry.type)).toEqual(['message']);
    } finally {
      database.close();
    }
  });

  it('opens while another connection holds a write transaction, without waiting for it', async () => {
    const writer = new Database(file);
    const reader = new Database(file, { timeout: 0 });
    try {
      writer.exec('BEGIN IMMEDIATE');
      const store = createSqliteStore({ database: reader });
      expect(await store.getLeaf('s')).not.toBeNull();
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
      reader.close();
    }
  });

  it('lets 8 processes open, read and write over and over in rollback-journal mode', async () => {
    // Each round opens the database, reads, and writes as a host does: its own transaction
    // (holding the write lock a little while), retried while another process holds the lock.
    // Opening must never be the step that fails: it only reads.
    // ctxkit/sqlite bundled into one module: a process starts in a fraction of what tsx takes.
    const bundle = join(directory, 'ctxkit-sqlite.mjs');
    await build({
      entryPoints: [fileURLToPath(new URL('../../src/sqlite/index.ts', import.meta.url))],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: bundle,
      logLevel: 'silent',
    });
    const script = join(directory, 'worker.mjs');
    await writeFile(
      script,
      `
      import { createRequire } from 'node:module';
      import { createSqliteStore } from './ctxkit-sqlite.mjs';
      const [file, name, packageFile] = process.argv.slice(2);
      const Database = createRequire(packageFile)('better-sqlite3');
      const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
      for (let round = 0; round < 10; round++) {
        const database = new Database(file, { timeout: 1000 });
        if (database.pragma('journal_mode', { simple: true }) !== 'delete') throw new Error('not in rollback-journal mode');
        const store = createSqliteStore({ database });
        if (round > 0) await store.getBranch(name);
        for (;;) {
          try {
            database.exec('BEGIN IMMEDIATE');
            break;
          } catch (error) {
            if (error.code !== 'SQLITE_BUSY') throw error;
          }
        }
        if (round === 0) await store.createSession({ id: name });
        await store.appendEntry(name, { type: 'message', message: { role: 'user', content: name + ' ' + round } });
        await sleep(20);
        database.exec('COMMIT');
        database.close();
      }
    `,
    );
    const packageFile = fileURLToPath(new URL('../../package.json', import.meta.url));
    const run = (name: string) =>
      new Promise<void>((done, fail) =>
        execFile(process.execPath, [script, file, name, packageFile], (error, _stdout, stderr) =>
          error ? fail(new Error(stderr || String(error))) : done(),
        ),
      );
    const names = Array.from({ length: 8 }, (_, index) => `w${index}`);
    const results = await Promise.allSettled(names.map(run));
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    const database = new Database(file, { readonly: true });
    try {
      const store = createSqliteStore({ database });
      for (const name of names) expect(await store.getEntries(name)).toHaveLength(10);
    } finally {
      database.close();
    }
  }, 60_000);
});
