// createAgentsSession over every ctxkit store (memory, JSONL, SQLite, PostgreSQL): the items the
// Agents SDK adds come back exactly, popItem and clearSession move the leaf without deleting, and two
// workers on one PostgreSQL store share a session. The converters round-trip SDK items.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentInputItem } from '@openai/agents';
import Database from 'better-sqlite3';
import {
  ConfigError,
  createInMemorySessionStore,
  heuristicSummarizer,
  type SessionStore,
  type Summarizer,
} from 'ctxkit';
import { createJsonlStore } from 'ctxkit/node';
import { createAgentsInputFilter, createAgentsSession, fromAgentItems, toAgentItems } from 'ctxkit/openai-agents';
import { createPostgresStore } from 'ctxkit/postgres';
import { createSqliteStore } from 'ctxkit/sqlite';
import { afterAll, describe, expect, test } from 'vitest';
import { createTestPool, createTestSchema, dropTestSchema, postgresUrl } from '../postgres/server.js';

const items: AgentInputItem[] = [
  {
    role: 'user',
    content: [
      { type: 'input_text', text: 'Fix the test' },
      { type: 'input_image', image: 'https://example.com/a.png', detail: 'auto' },
    ],
  },
  { type: 'reasoning', id: 'rs_1', content: [], providerData: { encrypted_content: 'gAAAA…' } },
  {
    role: 'assistant',
    type: 'message',
    status: 'completed',
    id: 'msg_1',
    content: [
      { type: 'output_text', text: 'Reading it.' },
      { type: 'output_text', text: 'Then testing.' },
    ],
  },
  { type: 'function_call', callId: 'call_1', name: 'read_file', arguments: '{"path": "a.ts"}', status: 'completed' },
  { type: 'function_call', callId: 'call_2', name: 'run_tests', arguments: 'not json', status: 'completed' },
  {
    type: 'function_call_result',
    callId: 'call_1',
    name: 'read_file',
    status: 'completed',
    output: 'export const a = 1;',
  },
  {
    type: 'function_call_result',
    callId: 'call_2',
    name: 'run_tests',
    status: 'completed',
    output: { type: 'text', text: 'not ok 1' },
  },
  { type: 'hosted_tool_call', name: 'web_search', id: 'ws_1', status: 'completed' },
  { role: 'user', content: 'Thanks' },
];

const tempDirectories: string[] = [];
const pool = postgresUrl ? createTestPool(4) : undefined;
const schemas: string[] = [];
afterAll(async () => {
  for (const directory of tempDirectories) rmSync(directory, { recursive: true, force: true });
  if (pool) {
    for (const schema of schemas) await dropTestSchema(pool, schema);
    await pool.end();
  }
});

const stores: { name: string; create: () => Promise<SessionStore> }[] = [
  { name: 'memory', create: async () => createInMemorySessionStore() },
  {
    name: 'JSONL',
    create: async () => {
      const directory = mkdtempSync(join(tmpdir(), 'ctxkit-agents-'));
      tempDirectories.push(directory);
      return createJsonlStore({ directory });
    },
  },
  { name: 'SQLite', create: async () => createSqliteStore({ database: new Database(':memory:') }) },
  ...(pool
    ? [
        {
          name: 'PostgreSQL',
          create: async () => {
            const schema = await createTestSchema(pool);
            schemas.push(schema);
            return createPostgresStore({ pool, schema });
          },
        },
      ]
    : []),
];

describe.each(stores)('createAgentsSession on the $name store', ({ create }) => {
  test('gives back what was added, pops and clears by moving the leaf', async () => {
    const store = await create();
    const session = createAgentsSession<AgentInputItem>({ store, sessionId: 'agents-1' });
    expect(await session.getSessionId()).toBe('agents-1');
    expect(await session.getItems()).toEqual([]);
    await session.addItems(items.slice(0, 4));
    await session.addItems(items.slice(4));
    expect(await session.getItems()).toEqual(items);
    expect(await session.getItems(2)).toEqual(items.slice(-2));
    // Another session object on the same store (a second worker) reads the same conversation.
    expect(await createAgentsSession<AgentInputItem>({ store, sessionId: 'agents-1' }).getItems()).toEqual(items);
    expect(await session.popItem()).toEqual(items.at(-1));
    expect(await session.getItems()).toEqual(items.slice(0, -1));
    await session.clearSession();
    expect(await session.getItems()).toEqual([]);
    // Nothing was deleted: every entry is still in the store.
    expect((await store.getEntries('agents-1')).length).toBe(items.length);
  });

  test('a filter given the session records its compactions there; a second worker resumes from them', async () => {
    const store = await create();
    const session = createAgentsSession<AgentInputItem>({ store, sessionId: 'fleet-1' });
    let summaries = 0;
    const summarizer: Summarizer = {
      summarize: (request) => {
        summaries++;
        return heuristicSummarizer.summarize(request);
      },
    };
    const options = {
      model: 'gpt-4o',
      contextWindow: 4_000,
      summarizer,
      config: { reserveTokens: 500, keepRecentTokens: 1_000 },
      session,
    };
    const agent = { tools: [] };
    const worker = createAgentsInputFilter(options);
    const input: AgentInputItem[] = [];
    for (let turn = 0; turn < 12; turn++) {
      const question: AgentInputItem = { role: 'user', content: `Question ${turn}: ${'context '.repeat(150)}` };
      input.push(question);
      // As the SDK does: the filter sees the session's items and the new input; the run's items are stored after.
      await worker({ modelData: { input: [...input], instructions: 'Be brief.' }, agent });
      const answer: AgentInputItem = {
        role: 'assistant',
        type: 'message',
        status: 'completed',
        content: [{ type: 'output_text', text: `Answer ${turn}: ${'detail '.repeat(150)}` }],
      };
      input.push(answer);
      await session.addItems([question, answer]);
    }
    const compactions = (await store.getBranch('fleet-1')).filter((entry) => entry.type === 'compaction');
    expect(compactions.length).toBeGreaterThan(0);

    expect(await session.getItems()).toEqual(input);
    // A second worker on the same store continues from the newest compaction: no summary is made again.
    const before = summaries;
    const second = createAgentsInputFilter(options);
    input.push({ role: 'user', content: 'One more question.' });
    const sent = await second({ modelData: { input: [...input], instructions: 'Be brief.' }, agent });
    expect(summaries).toBe(before);
    const newest = compactions.at(-1)!;
    expect(JSON.stringify(sent.input)).toContain(
      JSON.stringify(newest.type === 'compaction' && newest.summary).slice(1, 60),
    );
    expect(sent.input.at(-1)).toBe(input.at(-1));
    expect(second.stats()!.usage.level).not.toBe('compact');
  });
});

describe.each(stores)('createAgentsInputFilter on the $name store', ({ create }) => {
  test('records a compaction that kept the running turn when the SDK stores the turn, with no call after', async () => {
    const store = await create();
    const session = createAgentsSession<AgentInputItem>({ store, sessionId: 'last-run' });
    const history: AgentInputItem[] = [];
    for (let turn = 0; turn < 10; turn++) {
      history.push({ role: 'user', content: `Question ${turn}: ${'context '.repeat(150)}` });
      history.push({
        role: 'assistant',
        type: 'message',
        status: 'completed',
        content: [{ type: 'output_text', text: `Answer ${turn}: ${'detail '.repeat(150)}` }],
      });
    }
    await session.addItems(history);
    // The run's question is long enough that the compaction keeps it alone: it is not stored yet.
    const question: AgentInputItem = { role: 'user', content: `Last question: ${'context '.repeat(800)}` };
    const filter = createAgentsInputFilter({
      model: 'gpt-4o',
      contextWindow: 4_000,
      summarizer: heuristicSummarizer,
      config: { reserveTokens: 500, keepRecentTokens: 1_000 },
      session,
    });
    const sentFirst = await filter({
      modelData: { input: [...history, question], instructions: 'Be brief.' },
      agent: { tools: [] },
    });
    expect(sentFirst.input.slice(1)).toEqual([question]);
    expect((await store.getBranch('last-run')).some((entry) => entry.type === 'compaction')).toBe(false);
    // The run ends: the SDK stores its items, and no call of this filter follows.
    const answer: AgentInputItem = {
      role: 'assistant',
      type: 'message',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Done.' }],
    };
    await session.addItems([question, answer]);
    const branch = await store.getBranch('last-run');
    const compaction = branch.find((entry) => entry.type === 'compaction');
    expect(compaction).toMatchObject({ firstKeptEntryId: branch.at(-3)!.id });
    // A second worker resumes from it: nothing is summarized again.
    let summaries = 0;
    const second = createAgentsInputFilter({
      model: 'gpt-4o',
      contextWindow: 4_000,
      summarizer: {
        summarize: (request) => {
          summaries++;
          return heuristicSummarizer.summarize(request);
        },
      },
      config: { reserveTokens: 500, keepRecentTokens: 1_000 },
      session,
    });
    const next: AgentInputItem = { role: 'user', content: 'And now?' };
    const sent = await second({
      modelData: { input: [...(await session.getItems()), next], instructions: 'Be brief.' },
      agent: { tools: [] },
    });
    expect(summaries).toBe(0);
    expect(sent.input.slice(1)).toEqual([question, answer, next]);
  });
});

describe('the Agents SDK item converters', () => {
  test('toAgentItems(fromAgentItems(x)) gives x back, and ctxkit sees what it models', () => {
    const { messages, warnings } = fromAgentItems(items);
    expect(toAgentItems(messages)).toEqual(items);
    expect(messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'toolResult',
      'toolResult',
      'assistant',
      'user',
    ]);
    expect(messages[1]).toMatchObject({
      stopReason: 'toolUse',
      content: [
        { type: 'thinking', redacted: true },
        { type: 'text', text: 'Reading it.' },
        { type: 'text', text: 'Then testing.' },
        { type: 'toolCall', id: 'call_1', arguments: { path: 'a.ts' } },
        { type: 'toolCall', id: 'call_2', arguments: {} },
      ],
    });
    expect(warnings.map((warning) => warning.index)).toEqual([4, 7]);
  });

  test('what ctxkit changed or wrote becomes new items of the same kind', () => {
    const { messages } = fromAgentItems(items.slice(3, 6));
    const [call, result] = messages;
    const changed = toAgentItems([
      { role: 'user', content: 'Summary of the conversation so far.' },
      call!,
      {
        ...(result as Extract<typeof result, { role: 'toolResult' }>),
        content: [{ type: 'text', text: '[archived]' }],
      },
    ]);
    expect(changed[0]).toEqual({ role: 'user', content: 'Summary of the conversation so far.' });
    expect(changed[1]).toBe(items[3]);
    expect(changed[3]).toMatchObject({
      type: 'function_call_result',
      callId: 'call_1',
      name: 'read_file',
      output: '[archived]',
    });
  });

  test('bad input is refused with the field named', () => {
    expect(() => fromAgentItems('x' as never)).toThrow(/items must be an array/);
    expect(() => fromAgentItems([{ type: 'function_call', name: 'ls' }])).toThrow(/items\[0\]/);
    expect(() => createAgentsSession({ store: {} as never, sessionId: 'x' })).toThrow(ConfigError);
    expect(() => createAgentsSession({ store: createInMemorySessionStore(), sessionId: '' })).toThrow(/sessionId/);
  });
});
