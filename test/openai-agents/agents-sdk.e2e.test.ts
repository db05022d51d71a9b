// The real OpenAI Agents SDK (`run` with an `OpenAIResponsesModel`) against the loopback OpenAI
// server, which checks every Responses request by OpenAI's rules: a 40-turn tool-using conversation
// kept in a ctxkit store through createAgentsSession, each model call prepared by
// createAgentsInputFilter (its wrapped model records usage and recovers from the server's overflow
// error). No request may break a rule, and the session keeps every item the SDK gave it.

import { Agent, type AgentInputItem, OpenAIResponsesModel, run, setTracingDisabled, tool } from '@openai/agents';
import Database from 'better-sqlite3';
import { type ContextEvent, createInMemorySessionStore } from 'ctxkit';
import { createOpenAISummarizer } from 'ctxkit/openai';
import { createAgentsInputFilter, createAgentsSession } from 'ctxkit/openai-agents';
import { createSqliteStore } from 'ctxkit/sqlite';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type FakeOpenAI, startFakeOpenAI } from '../openai/fake-openai-server.js';

const WINDOW = 30_000;
const TURNS = 40;

const outputs = [150, 3_000, 700, 2_200, 400, 1_500, 2_800, 1_000].map((count, index) => {
  const lines: string[] = [];
  for (let line = 0; line < count; line++) {
    lines.push(
      index % 2 === 0
        ? `not ok ${line} - parser handles case ${line} # expected ${line % 7} got ${line % 5}`
        : `src/module${line % 40}/file${line}.ts(${line % 300},5): error TS2345: Argument of type 'string' is not assignable to 'number'.`,
    );
  }
  return lines.join('\n');
});

let toolCalls = 0;
const parameters = z.object({ path: z.string(), verbose: z.boolean().nullable() });
const tools = ['read_file', 'run_tests'].map((name) =>
  tool({
    name,
    description: name === 'read_file' ? 'Read a file' : 'Run the tests',
    parameters,
    execute: async ({ path }) => `${path}\n${outputs[toolCalls++ % outputs.length]}`,
  }),
);

describe('the OpenAI Agents SDK with ctxkit/openai-agents', () => {
  let server: FakeOpenAI;
  beforeAll(async () => {
    // The SDK exports traces to OpenAI by default; nothing leaves this machine.
    setTracingDisabled(true);
    server = await startFakeOpenAI({ contextWindow: WINDOW, maxOutputTokens: 16_384 });
  });
  afterAll(async () => {
    await server.close();
  });

  test('40 tool-using turns in a SQLite-backed session, compacted by the filter, no rejected request', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
    const store = createSqliteStore({ database: new Database(':memory:') });
    const session = createAgentsSession<AgentInputItem>({ store, sessionId: 'coder-1' });
    const events: ContextEvent[] = [];
    const filterOptions = {
      model: 'gpt-4o',
      // A window larger than the server's: ctxkit believes requests fit that the server refuses,
      // which forces overflows for the wrapped model to recover from.
      contextWindow: 33_000,
      summarizer: createOpenAISummarizer({ client, model: 'gpt-4o-mini' }),
      config: { reserveTokens: 2_500, keepRecentTokens: 16_000, toolOutput: { maxBytes: 12 * 1024, maxLines: 400 } },
      // Compactions are recorded in the session's store, where another worker finds them.
      session,
    };
    const callModelInputFilter = createAgentsInputFilter({ ...filterOptions, onEvent: (event) => events.push(event) });
    const agent = new Agent({
      name: 'coder',
      instructions: 'You are a careful coding agent. Use the tools to inspect and fix the repository.',
      model: callModelInputFilter.wrapModel(new OpenAIResponsesModel(client, 'gpt-4o')),
      tools,
    });
    let answers = 0;
    for (let turn = 1; turn <= TURNS; turn++) {
      const result = await run(agent, `Turn ${turn}: fix the next failing parser test.`, {
        session,
        callModelInputFilter,
        maxTurns: 10,
      });
      if (typeof result.finalOutput === 'string' && result.finalOutput.length > 0) answers++;
    }
    const items = await session.getItems();
    const model = server.log.requests.filter((request) => request.endpoint === 'responses');
    console.info(
      `openai agents: ${model.length} model requests, ${server.log.requests.length - model.length} summary requests, ` +
        `${server.log.overflows} overflows, ${items.length} items in the session`,
    );
    expect(server.log.rejected).toEqual([]);
    expect(server.log.overflows).toBeGreaterThan(0);
    expect(events.some((event) => event.type === 'compaction-end' && event.reason === 'overflow' && !event.error)).toBe(
      true,
    );
    expect(answers).toBe(TURNS);
    expect(events.some((event) => event.type === 'compaction-end' && !event.error)).toBe(true);
    // The session kept every item the SDK gave it: each user turn, each call and each result, whole.
    expect(items.filter((item) => 'role' in item && item.role === 'user')).toHaveLength(TURNS);
    expect(items.filter((item) => item.type === 'function_call_result')).toHaveLength(toolCalls);
    const outputText = (output: unknown) => (typeof output === 'string' ? output : JSON.stringify(output ?? ''));
    const longest = Math.max(...items.map((item) => ('output' in item ? outputText(item.output).length : 0)));
    expect(longest).toBeGreaterThan(100_000);

    // ctxkit's compactions are entries of the session, beside the SDK's items.
    const compactions = (await store.getBranch('coder-1')).filter((entry) => entry.type === 'compaction');
    expect(compactions.length).toBeGreaterThan(0);
    // A second worker on the same session starts from the newest stored compaction: its first request
    // is the model call, within the window, not a summary of the 40 turns made again.
    const resumed = createAgentsInputFilter(filterOptions);
    const worker = new Agent({
      name: 'coder',
      instructions: 'You are a careful coding agent. Use the tools to inspect and fix the repository.',
      model: resumed.wrapModel(new OpenAIResponsesModel(client, 'gpt-4o')),
      tools,
    });
    const before = server.log.requests.length;
    const last = await run(worker, `Turn ${TURNS + 1}: fix the next failing parser test.`, {
      session,
      callModelInputFilter: resumed,
      maxTurns: 10,
    });
    expect(typeof last.finalOutput).toBe('string');
    const first = server.log.requests[before]!;
    expect(first).toMatchObject({ endpoint: 'responses', summary: false });
    expect(first.promptTokens).toBeLessThan(WINDOW);
    expect(server.log.rejected).toEqual([]);
  }, 180_000);

  test('streamed runs: an overflow of a streamed call is compacted and retried through wrapModel', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
    const session = createAgentsSession<AgentInputItem>({ store: createInMemorySessionStore(), sessionId: 'streamer' });
    const events: ContextEvent[] = [];
    const callModelInputFilter = createAgentsInputFilter({
      model: 'gpt-4o',
      // ctxkit's window is well above the server's, so streamed calls overflow whatever ran before.
      contextWindow: 36_000,
      summarizer: createOpenAISummarizer({ client, model: 'gpt-4o-mini' }),
      config: { reserveTokens: 2_500, keepRecentTokens: 16_000, toolOutput: { maxBytes: 12 * 1024, maxLines: 400 } },
      onEvent: (event) => events.push(event),
    });
    const agent = new Agent({
      name: 'coder',
      instructions: 'You are a careful coding agent. Use the tools to inspect and fix the repository.',
      model: callModelInputFilter.wrapModel(new OpenAIResponsesModel(client, 'gpt-4o')),
      tools,
    });
    const overflowsBefore = server.log.overflows;
    const rejectedBefore = server.log.rejected.length;
    let answers = 0;
    let deltas = 0;
    const turns = 10;
    for (let turn = 1; turn <= turns; turn++) {
      const result = await run(agent, `Turn ${turn}: fix the next failing parser test.`, {
        session,
        callModelInputFilter,
        maxTurns: 10,
        stream: true,
      });
      for await (const event of result) if (event.type === 'raw_model_stream_event') deltas++;
      await result.completed;
      if (typeof result.finalOutput === 'string' && result.finalOutput.length > 0) answers++;
    }
    expect(server.log.rejected.length).toBe(rejectedBefore);
    expect(answers).toBe(turns);
    expect(deltas).toBeGreaterThan(0);
    // Streamed calls overflowed, and each overflow was recovered by a compaction (none reached the SDK).
    expect(server.log.overflows).toBeGreaterThan(overflowsBefore);
    const recoveries = events.filter((event) => event.type === 'compaction-end' && event.reason === 'overflow');
    expect(recoveries.length).toBe(server.log.overflows - overflowsBefore);
    expect(recoveries.every((event) => event.type === 'compaction-end' && !event.error)).toBe(true);
    // The usage of the streamed replies is recorded: the filter's count rests on the provider's.
    expect(callModelInputFilter.stats()?.usage.source).not.toBe('estimate');
  }, 180_000);
});
