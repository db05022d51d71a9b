// Native compaction entries in every store: a session that compacted natively on OpenAI and moved
// to Anthropic is recorded through the manager, then read back by a new store object; the payload
// comes back verbatim, the portable summary beside it, and a payload past the limit is refused with
// an error that names the field; a window of `POST /responses/compact` (its user messages, then the
// item) comes back byte for byte and is sent as it was. The CLI shows each native compaction.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  buildContextFromBranch,
  type Message,
  NATIVE_PAYLOAD_LIMIT,
  resolveNativeCompactions,
  type SessionStore,
} from '../../src/index.js';
import { createJsonlStore } from '../../src/node/index.js';
import { toOpenAIResponses } from '../../src/openai/index.js';
import { createPostgresStore } from '../../src/postgres/index.js';
import type { CompactionEntry } from '../../src/session/index.js';
import { createSqliteStore } from '../../src/sqlite/index.js';
import { runCli } from '../cli/run-cli.js';
import { createTestPool, createTestSchema, dropTestSchema, postgresUrl } from '../postgres/server.js';
import { ANTHROPIC, OPENAI, runScriptedSession } from './native-session.js';

const legs = [
  { target: OPENAI, turns: 8 },
  { target: ANTHROPIC, turns: 2 },
];

async function recordAndReadBack(store: SessionStore, reopen: () => SessionStore): Promise<CompactionEntry[]> {
  const outcome = await runScriptedSession({ compaction: 'native', contextWindow: 60_000, legs, store });
  expect(outcome.dead).toBe(0);
  const entries = await reopen().getEntries(outcome.sessionId);
  const compactions = entries.filter((entry): entry is CompactionEntry => entry.type === 'compaction');
  // Taken in with the opaque item, then given its portable summary when the session left OpenAI.
  expect(compactions.length).toBeGreaterThanOrEqual(2);
  expect(compactions[0]!.native).toMatchObject({ provider: 'openai', api: 'openai-responses', model: 'gpt-5' });
  expect(compactions[0]!.native!.payload).toMatchObject({ type: 'compaction' });
  expect(compactions[0]!.summary).toBe('');
  const summarized = compactions.find(
    (entry) => entry.details && (entry.details as { reason?: string }).reason === 'native-summarized',
  );
  expect(summarized!.native!.payload).toEqual(compactions[0]!.native!.payload);
  expect(summarized!.summary).toContain('FACT-1');
  // Past the limit: refused with the field named, nothing appended.
  const before = entries.length;
  const oversized = {
    ...compactions[0]!.native!,
    payload: { type: 'compaction', encrypted_content: 'x'.repeat(NATIVE_PAYLOAD_LIMIT) },
  };
  await expect(
    store.appendEntry(outcome.sessionId, {
      type: 'compaction',
      summary: '',
      firstKeptEntryId: compactions[0]!.firstKeptEntryId,
      tokensBefore: 1,
      native: oversized,
    }),
  ).rejects.toThrow(/native\.payload/);
  expect((await reopen().getEntries(outcome.sessionId)).length).toBe(before);
  await recordWindowAndReadBack(store, reopen);
  return compactions;
}

/**
 * A session OpenAI compacted by `POST /responses/compact`: the window (the user messages the
 * endpoint returned, then its item) comes back from a new store object byte for byte, and a
 * history rebuilt from it sends OpenAI exactly what the live one does.
 */
async function recordWindowAndReadBack(store: SessionStore, reopen: () => SessionStore): Promise<void> {
  const outcome = await runScriptedSession({
    compaction: 'native',
    openaiCompaction: 'endpoint',
    contextWindow: 60_000,
    legs: [{ target: OPENAI, turns: 8 }],
    store,
  });
  expect(outcome.dead).toBe(0);
  const held = outcome.history[0]!.meta!.native!;
  expect(held.leading!.length).toBeGreaterThan(1);
  expect(held.leading!.every((item) => item['role'] === 'user')).toBe(true);
  const window = (native: { payload: unknown; leading?: unknown }) =>
    JSON.stringify({ payload: native.payload, leading: native.leading });
  const entries = await reopen().getEntries(outcome.sessionId);
  const stored = entries.filter((entry): entry is CompactionEntry => entry.type === 'compaction' && !!entry.native);
  expect(window(stored.at(-1)!.native!)).toBe(window(held));
  const sent = (messages: readonly Message[]) =>
    JSON.stringify(
      toOpenAIResponses({ messages: resolveNativeCompactions(messages, { target: OPENAI }).messages }).items,
    );
  const rebuilt = buildContextFromBranch(await reopen().getBranch(outcome.sessionId)).messages;
  expect(sent(rebuilt)).toBe(sent(outcome.history));
  expect(sent(rebuilt).startsWith(JSON.stringify([...held.leading!, held.payload]).slice(0, -1))).toBe(true);
  // The user messages count with the item against the limit: past it, refused with the field named.
  await expect(
    store.appendEntry(outcome.sessionId, {
      type: 'compaction',
      summary: '',
      firstKeptEntryId: stored.at(-1)!.firstKeptEntryId,
      tokensBefore: 1,
      native: { ...held, leading: [{ role: 'user', content: 'x'.repeat(NATIVE_PAYLOAD_LIMIT) }] },
    }),
  ).rejects.toThrow(/native\.leading/);
}

describe('native compaction entries in the stores', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'ctxkit-native-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  test('JSONL, and the CLI shows each native compaction with its readable summary', async () => {
    const open = () => createJsonlStore({ directory });
    await recordAndReadBack(open(), open);
    const [file] = (await import('node:fs')).readdirSync(directory).filter((name) => name.endsWith('.jsonl'));
    const text = (await runCli(['inspect', join(directory, file!), '--full'])).stdout;
    expect(text).toContain('native: made by openai gpt-5 (openai-responses)');
    expect(text).toContain('FACT-1');
  });

  test('SQLite', async () => {
    const database = new Database(join(directory, 'sessions.db'));
    try {
      await recordAndReadBack(createSqliteStore({ database }), () => createSqliteStore({ database }));
    } finally {
      database.close();
    }
  });
});

describe.skipIf(postgresUrl === undefined)('native compaction entries in the PostgreSQL store', () => {
  let pool: pg.Pool;
  let schema: string;
  beforeAll(async () => {
    pool = createTestPool(2);
    schema = await createTestSchema(pool);
  });
  afterAll(async () => {
    await dropTestSchema(pool, schema);
    await pool.end();
  });
  test('PostgreSQL', async () => {
    await recordAndReadBack(createPostgresStore({ pool, schema }), () => createPostgresStore({ pool, schema }));
  });
});
