// A fleet of OpenAI Agents SDK workers sharing one conversation through ctxkit/postgres: two workers,
// each with its own pg pool, store, `openai` client and model, take the turns of one session in
// alternation, as a load balancer hands them out. A worker keeps nothing between turns: for each turn
// it builds the session object and the input filter, runs the real SDK (`run` with an
// `OpenAIResponsesModel`) against the loopback OpenAI server, and forgets them. The compactions one
// worker writes are entries of the shared session; the other worker's next turn starts from the
// newest of them instead of summarizing the conversation again.

import { Agent, type AgentInputItem, OpenAIResponsesModel, run, setTracingDisabled, tool } from '@openai/agents';
import type { ContextEvent, SessionStore } from 'ctxkit';
import { createOpenAISummarizer } from 'ctxkit/openai';
import { createAgentsInputFilter, createAgentsSession } from 'ctxkit/openai-agents';
import { createPostgresStore } from 'ctxkit/postgres';
import OpenAI from 'openai';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { useLoopbackOpenAI } from '../harness/loopback.js';
import { scriptedToolOutputs } from '../harness/tool-outputs.js';
import {
  createTestPool,
  createTestSchema,
  dropTestSchema,
  postgresUrl,
  requireServerInCi,
} from '../postgres/server.js';

const WINDOW = 30_000;
const TURNS = 16;
const SESSION = 'fleet-support-1';
const instructions = 'You are a careful coding agent. Use the tools to inspect and fix the repository.';

requireServerInCi();

describe.skipIf(postgresUrl === undefined)('a fleet of Agents SDK workers on one PostgreSQL session', () => {
  setTracingDisabled(true);
  const loopback = useLoopbackOpenAI({ contextWindow: WINDOW, maxOutputTokens: 16_384 });
  const pools: pg.Pool[] = [];
  let schema: string;
  beforeAll(async () => {
    const admin = createTestPool(1);
    pools.push(admin);
    schema = await createTestSchema(admin);
  });
  afterAll(async () => {
    if (schema) await dropTestSchema(pools[0]!, schema);
    await Promise.all(pools.map((pool) => pool.end()));
  });

  test('two workers take turns; a compaction written by one is used by the other, never made twice', async () => {
    const server = loopback.server;
    const outputs = scriptedToolOutputs([150, 700, 300, 250, 400, 150, 500, 200]);
    const parameters = z.object({ path: z.string(), verbose: z.boolean().nullable() });
    const tools = ['read_file', 'run_tests'].map((name) =>
      tool({
        name,
        description: `${name} in the repository`,
        parameters,
        execute: async ({ path }) => outputs.next(path),
      }),
    );
    /** The model inputs the workers sent, in order. */
    const sent: unknown[] = [];
    const recording: typeof fetch = async (url, init) => {
      if (String(url).endsWith('/responses')) sent.push((JSON.parse(String(init?.body)) as { input: unknown }).input);
      return fetch(url, init);
    };
    /** A worker: its own pool, store and client; nothing else survives a turn. */
    const workers = ['a', 'b'].map((name) => {
      const pool = createTestPool(2);
      pools.push(pool);
      return {
        name,
        store: createPostgresStore({ pool, schema }) as SessionStore,
        client: new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, fetch: recording }),
      };
    });

    /** What one turn did: who ran it, the requests it made, the compactions it found and wrote. */
    const turns: {
      worker: string;
      requests: typeof server.log.requests;
      /** What the turn's first model request sent. */
      firstInput: unknown;
      /** The summary of the newest compaction stored when the turn started. */
      newestSummary: string | undefined;
      compactionsBefore: number;
      compactionsAfter: number;
      events: ContextEvent[];
      answered: boolean;
    }[] = [];
    const compactionsOf = async (store: SessionStore) =>
      (await store.getBranch(SESSION)).flatMap((entry) => (entry.type === 'compaction' ? [entry.summary] : []));

    for (let turn = 1; turn <= TURNS; turn++) {
      const worker = workers[turn % 2]!;
      const session = createAgentsSession<AgentInputItem>({ store: worker.store, sessionId: SESSION });
      const events: ContextEvent[] = [];
      const callModelInputFilter = createAgentsInputFilter({
        model: 'gpt-4o',
        // Below the server's window: the server counts half as much again as ctxkit's estimate, and a
        // worker starting a turn has no usage of its own to go by.
        contextWindow: 20_000,
        summarizer: createOpenAISummarizer({ client: worker.client, model: 'gpt-4o-mini' }),
        config: { reserveTokens: 2_500, keepRecentTokens: 9_000, toolOutput: { maxBytes: 12 * 1024, maxLines: 400 } },
        session,
        onEvent: (event) => events.push(event),
      });
      const agent = new Agent({
        name: 'coder',
        instructions,
        model: callModelInputFilter.wrapModel(new OpenAIResponsesModel(worker.client, 'gpt-4o')),
        tools,
      });
      const stored = turn === 1 ? [] : await compactionsOf(worker.store);
      const from = server.log.requests.length;
      const firstSent = sent.length;
      const result = await run(agent, `Turn ${turn}: fix the next failing parser test.`, {
        session,
        callModelInputFilter,
        maxTurns: 10,
      });
      turns.push({
        worker: worker.name,
        requests: server.log.requests.slice(from),
        firstInput: sent[firstSent],
        newestSummary: stored.at(-1),
        compactionsBefore: stored.length,
        compactionsAfter: (await compactionsOf(worker.store)).length,
        events,
        answered: typeof result.finalOutput === 'string' && result.finalOutput.length > 0,
      });
    }

    const summaries = turns.flatMap((turn) => turn.requests.filter((request) => request.endpoint === 'chat'));
    const written = turns.map((turn) => turn.compactionsAfter - turn.compactionsBefore);
    console.info(
      `agents fleet: ${server.log.requests.length - summaries.length} model requests, ${summaries.length} summary requests, ` +
        `${server.log.overflows} overflows, compactions written per turn ${written.join(' ')}`,
    );
    expect(server.log.rejected).toEqual([]);
    expect(turns.every((turn) => turn.answered)).toBe(true);

    // Both workers wrote compactions into the shared session.
    for (const name of ['a', 'b']) {
      expect(turns.some((turn) => turn.worker === name && turn.compactionsAfter > turn.compactionsBefore)).toBe(true);
    }
    // Every summary the fleet asked for became one compaction entry: none was made twice.
    const compactions = (await workers[0]!.store.getBranch(SESSION)).filter((entry) => entry.type === 'compaction');
    expect(summaries.length).toBe(compactions.length);
    const made = turns
      .flatMap((turn) => turn.events)
      .filter((event) => event.type === 'compaction-end' && !event.error);
    expect(made.length).toBe(compactions.length);
    // A turn that starts on a compaction the other worker wrote (the turn before) starts from it: its
    // first request is the model call, within the window, sending that compaction's summary.
    const handedOver = turns.filter(
      (_turn, index) => index > 0 && turns[index - 1]!.compactionsAfter > turns[index - 1]!.compactionsBefore,
    );
    expect(handedOver.length).toBeGreaterThan(TURNS / 2);
    for (const turn of handedOver) {
      expect(turn.requests[0]).toMatchObject({ endpoint: 'responses' });
      expect(turn.requests[0]!.promptTokens).toBeLessThan(WINDOW);
      expect(JSON.stringify(turn.firstInput)).toContain(JSON.stringify(turn.newestSummary).slice(1, -1));
    }

    // Both workers read the same conversation: every item the SDK gave either of them, whole.
    const [a, b] = await Promise.all(
      workers.map((worker) =>
        createAgentsSession<AgentInputItem>({ store: worker.store, sessionId: SESSION }).getItems(),
      ),
    );
    expect(a).toEqual(b);
    expect(a!.filter((item) => 'role' in item && item.role === 'user')).toHaveLength(TURNS);
    const results = a!.filter((item) => item.type === 'function_call_result');
    expect(results.map((item) => item.output)).toEqual(outputs.returned.map((text) => ({ type: 'text', text })));
  }, 120_000);
});
