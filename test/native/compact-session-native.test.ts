// compactSession on a branch that starts from OpenAI's opaque compaction item, in the JSONL, SQLite
// and PostgreSQL stores: the session is driven through the real `openai` client against the
// loopback server (native compaction by `POST /responses/compact`), then, in a new process with a
// new store object, compacted by the store-level helper. The item's portable summary is written
// first (once) from the stored entries, so the checkpoint keeps the facts of the compacted span.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  createContextManager,
  heuristicSummarizer,
  type Message,
  nativeCompaction,
  resolveNativeCompactions,
  type SessionStore,
  type Summarizer,
} from 'ctxkit';
import { createJsonlStore } from 'ctxkit/node';
import { readOpenAICompaction, readOpenAIResponse, toOpenAIResponses } from 'ctxkit/openai';
import { createPostgresStore } from 'ctxkit/postgres';
import { type CompactionEntry, compactSession } from 'ctxkit/session';
import { createSqliteStore } from 'ctxkit/sqlite';
import OpenAI from 'openai';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../openai/fake-openai-server.js';
import { createTestPool, createTestSchema, dropTestSchema, postgresUrl } from '../postgres/server.js';
import { fact, OPENAI } from './native-session.js';

const TOOLS = [
  { type: 'function' as const, name: 'read_file', parameters: { type: 'object', properties: {} }, strict: false },
];

let server: FakeOpenAI;
beforeAll(async () => {
  server = await startFakeOpenAI({ contextWindow: 200_000, maxOutputTokens: 16_384, toolCallsPerTurn: 1 });
});
afterAll(() => server.close());

/**
 * Records a session on OpenAI: turns 1–3, a `POST /responses/compact`, turns 4–5, another compact
 * (whose item then stands for the first's), turns 6–8. The manager takes both items in; the session
 * never leaves OpenAI, so neither gets a portable summary.
 */
async function recordOnOpenAI(store: SessionStore): Promise<string> {
  const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
  const { id: sessionId } = await store.createSession();
  const manager = createContextManager({
    contextWindow: 200_000,
    summarizer: heuristicSummarizer,
    store,
    sessionId,
    compaction: nativeCompaction('native'),
  });
  let history: Message[] = [];
  const add = async (message: Message) => {
    history.push(message);
    await store.appendEntry(sessionId, { type: 'message', message });
  };
  const turns = async (from: number, to: number) => {
    for (let turn = from; turn <= to; turn++) {
      await add({ role: 'user', content: `Turn ${turn}: note ${fact(turn)}, then fix the next case.` });
      for (let step = 0; step < 4; step++) {
        const prepared = await manager.prepare(history, { target: OPENAI });
        history = [...prepared.history];
        const answer = readOpenAIResponse(
          await client.responses.create({
            model: OPENAI.model,
            input: toOpenAIResponses({ messages: prepared.messages }).items as never,
            tools: TOOLS,
            store: false,
          }),
        );
        await add(answer);
        const call = answer.content.find((part) => part.type === 'toolCall');
        if (call === undefined) break;
        await add({
          role: 'toolResult',
          toolCallId: call.id,
          toolName: call.name,
          content: [{ type: 'text', text: `contents of case ${turn}\n${'padding line\n'.repeat(40)}` }],
        });
      }
    }
  };
  const compactNow = async () => {
    const prepared = await manager.prepare(history, { target: OPENAI });
    const compacted = await client.responses.compact({
      model: OPENAI.model,
      input: toOpenAIResponses({ messages: prepared.messages }).items as never,
    });
    history = [...prepared.history];
    await add(readOpenAICompaction(compacted, { model: OPENAI.model }));
    history = [...(await manager.prepare(history, { target: OPENAI })).history];
  };
  await turns(1, 3);
  await compactNow();
  await turns(4, 5);
  await compactNow();
  await turns(6, 8);
  return sessionId;
}

async function compactsWithPortableSummaryFirst(store: SessionStore, reopen: () => SessionStore): Promise<void> {
  const sessionId = await recordOnOpenAI(store);
  const before = (await store.getEntries(sessionId)).filter(
    (entry): entry is CompactionEntry => entry.type === 'compaction',
  );
  expect(before).toHaveLength(2);
  for (const entry of before) expect(entry).toMatchObject({ summary: '', native: { provider: 'openai' } });
  expect(before[0]!.native!.summary).toBeUndefined();

  // A new process: a store object of its own, and the host's summarizer, counted.
  let calls = 0;
  const summarizer: Summarizer = {
    summarize(request) {
      calls++;
      return heuristicSummarizer.summarize(request);
    },
  };
  const options = {
    store: reopen(),
    sessionId,
    summarizer,
    config: { contextWindow: 200_000, keepRecentTokens: 200 },
  };
  const { entry, portable, context } = await compactSession(options);
  // The portable summary first: the second item's, from its span, which starts from the first item's
  // summary, written in memory (two calls); then the checkpoint (one call).
  expect(calls).toBe(3);
  expect(portable).toMatchObject({
    type: 'compaction',
    firstKeptEntryId: before[1]!.firstKeptEntryId,
    details: { reason: 'native-summarized', provider: 'openai' },
    native: { payload: before[1]!.native!.payload },
  });
  // It holds the span of both items: the second replaced the first, whose span is summarized too.
  for (const turn of [1, 2, 3, 4, 5]) expect(portable!.summary).toContain(fact(turn));
  expect(portable!.native!.summary).toBe(portable!.summary);
  // The checkpoint updates that summary: every fact of the session is readable after it.
  const text = JSON.stringify(resolveNativeCompactions(context.messages).messages.map((message) => message.content));
  for (let turn = 1; turn <= 8; turn++) expect(text).toContain(fact(turn));
  expect(entry.native).toBeUndefined();

  // Once: compacting again writes no second portable summary.
  const again = await compactSession({
    ...options,
    config: { contextWindow: 200_000, keepRecent: 1, keepRecentTokens: 0 },
  });
  expect(again.portable).toBeUndefined();
  expect(calls).toBe(4);
  const after = (await reopen().getEntries(sessionId)).filter(
    (stored) => stored.type === 'compaction' && (stored.details as { reason?: string })?.reason === 'native-summarized',
  );
  expect(after).toHaveLength(1);
}

describe('compactSession after a native compaction with no portable summary', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'ctxkit-native-compact-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  test('JSONL', async () => {
    const open = () => createJsonlStore({ directory });
    await compactsWithPortableSummaryFirst(open(), open);
  });

  test('SQLite', async () => {
    const database = new Database(join(directory, 'sessions.db'));
    try {
      await compactsWithPortableSummaryFirst(createSqliteStore({ database }), () => createSqliteStore({ database }));
    } finally {
      database.close();
    }
  });

  test('a failing summarizer appends nothing', async () => {
    const open = () => createJsonlStore({ directory });
    const sessionId = await recordOnOpenAI(open());
    const count = (await open().getEntries(sessionId)).length;
    const failing: Summarizer = {
      summarize() {
        throw new Error('model down');
      },
    };
    await expect(
      compactSession({ store: open(), sessionId, summarizer: failing, config: { keepRecentTokens: 200 } }),
    ).rejects.toMatchObject({ code: 'SUMMARIZER_FAILED' });
    expect((await open().getEntries(sessionId)).length).toBe(count);
  });
});

describe.skipIf(postgresUrl === undefined)('compactSession after a native compaction, PostgreSQL', () => {
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
    await compactsWithPortableSummaryFirst(createPostgresStore({ pool, schema }), () =>
      createPostgresStore({ pool, schema }),
    );
  });
});
