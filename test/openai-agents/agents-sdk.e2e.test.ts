// The real OpenAI Agents SDK (`run` with an `OpenAIResponsesModel`) against the loopback OpenAI
// server, which checks every Responses request by OpenAI's rules: a 16-turn tool-using conversation
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
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { useLoopbackOpenAI } from '../harness/loopback.js';
import { scriptedToolOutputs } from '../harness/tool-outputs.js';

const WINDOW = 30_000;
/**
 * Enough turns to recover from an overflow and to compact several times over (the checks below hold
 * the session to it; 40 turns made the same one overflow); the SDK sends the whole session at every
 * call, so each turn costs more than the last. The long sessions are the soak's (`npm run soak`).
 */
const TURNS = 16;
/**
 * Outputs past the filter's cut (400 lines, 12 KB), one of them over 100 KB. The SDK serializes
 * every item of the session at every model call, so the outputs are kept as short as the cut allows:
 * what is sent is the same, what the SDK copies at each call is a quarter of it.
 */
const OUTPUT_LINES = [150, 1_000, 300, 250, 400, 150, 500, 200];

function scriptedTools() {
  const outputs = scriptedToolOutputs(OUTPUT_LINES);
  const parameters = z.object({ path: z.string(), verbose: z.boolean().nullable() });
  const tools = ['read_file', 'run_tests'].map((name) =>
    tool({
      name,
      description: name === 'read_file' ? 'Read a file' : 'Run the tests',
      parameters,
      execute: async ({ path }) => outputs.next(path),
    }),
  );
  return { outputs, tools };
}

const instructions = 'You are a careful coding agent. Use the tools to inspect and fix the repository.';

describe('the OpenAI Agents SDK with ctxkit/openai-agents', () => {
  // The SDK exports traces to OpenAI by default; nothing leaves this machine.
  setTracingDisabled(true);
  const loopback = useLoopbackOpenAI({ contextWindow: WINDOW, maxOutputTokens: 16_384 });

  test('16 tool-using turns in a SQLite-backed session, compacted by the filter, no rejected request', async () => {
    const server = loopback.server;
    const { outputs, tools } = scriptedTools();
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
    const store = createSqliteStore({ database: new Database(':memory:') });
    const session = createAgentsSession<AgentInputItem>({ store, sessionId: 'coder-1' });
    const events: ContextEvent[] = [];
    const filterOptions = {
      model: 'gpt-4o',
      // The loopback counts half as much again as the estimate; uncalibrated, the manager does not
      // learn it, so requests overflow and the recovery this test exercises runs.
      calibrate: false,
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
      instructions,
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
    const compacted = events.filter((event) => event.type === 'compaction-end' && !event.error);
    expect(compacted.some((event) => event.type === 'compaction-end' && event.reason === 'overflow')).toBe(true);
    expect(answers).toBe(TURNS);
    expect(compacted.length).toBeGreaterThanOrEqual(3);
    // The session kept every item the SDK gave it: each user turn, each call and each result, whole.
    expect(items.filter((item) => 'role' in item && item.role === 'user')).toHaveLength(TURNS);
    const results = items.filter((item) => item.type === 'function_call_result');
    // The SDK stores a tool's string as a text output: each is there whole, in the order returned.
    expect(results.map((item) => item.output)).toEqual(outputs.returned.map((text) => ({ type: 'text', text })));
    expect(Math.max(...outputs.returned.map((output) => output.length))).toBeGreaterThan(100_000);

    // ctxkit's compactions are entries of the session, beside the SDK's items.
    const compactions = (await store.getBranch('coder-1')).filter((entry) => entry.type === 'compaction');
    expect(compactions.length).toBeGreaterThan(0);
    // A second worker on the same session starts from the newest stored compaction: its first request
    // is the model call, within the window, not a summary of the 16 turns made again.
    const resumed = createAgentsInputFilter(filterOptions);
    const worker = new Agent({
      name: 'coder',
      instructions,
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
    const server = loopback.server;
    const { tools } = scriptedTools();
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
    const session = createAgentsSession<AgentInputItem>({ store: createInMemorySessionStore(), sessionId: 'streamer' });
    const events: ContextEvent[] = [];
    const callModelInputFilter = createAgentsInputFilter({
      model: 'gpt-4o',
      // The loopback counts half as much again as the estimate; uncalibrated, the manager does not
      // learn it, so requests overflow and the recovery this test exercises runs.
      calibrate: false,
      // ctxkit's window is well above the server's, so streamed calls overflow whatever ran before.
      contextWindow: 36_000,
      summarizer: createOpenAISummarizer({ client, model: 'gpt-4o-mini' }),
      config: { reserveTokens: 2_500, keepRecentTokens: 16_000, toolOutput: { maxBytes: 12 * 1024, maxLines: 400 } },
      onEvent: (event) => events.push(event),
    });
    const agent = new Agent({
      name: 'coder',
      instructions,
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
