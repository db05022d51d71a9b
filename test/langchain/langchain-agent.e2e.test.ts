// A real LangChain.js v1 agent (`createAgent` with a `ChatOpenAI` model) against the loopback OpenAI
// server, which checks every request by OpenAI's rules and refuses one over the window with OpenAI's
// own overflow error: a 40-turn tool-using session with tool output of thousands of lines, where
// ctxkit is one item of `middleware: [...]`. No request may break a rule; every overflow is recovered.

import { ChatOpenAI } from '@langchain/openai';
import type { ContextEvent } from 'ctxkit';
import { createLangChainSummarizer, ctxkitMiddleware } from 'ctxkit/langchain';
import { type BaseMessage, createAgent, HumanMessage, tool } from 'langchain';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type FakeOpenAI, startFakeOpenAI } from '../openai/fake-openai-server.js';

const WINDOW = 30_000;
const TURNS = 40;

/** Tool outputs of a hundred to thousands of lines (compiler errors, test runs), built once. */
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
const tools = [
  tool(async ({ path }) => `${path}\n${outputs[toolCalls++ % outputs.length]}`, {
    name: 'read_file',
    description: 'Read a file',
    schema: z.object({ path: z.string(), verbose: z.boolean().optional() }),
  }),
  tool(async ({ path }) => `${path}\n${outputs[toolCalls++ % outputs.length]}`, {
    name: 'run_tests',
    description: 'Run the tests',
    schema: z.object({ path: z.string(), verbose: z.boolean().optional() }),
  }),
];

describe('a LangChain agent with ctxkitMiddleware', () => {
  let server: FakeOpenAI;
  beforeAll(async () => {
    server = await startFakeOpenAI({ contextWindow: WINDOW, maxOutputTokens: 16_384 });
  });
  afterAll(async () => {
    await server.close();
  });

  test('40 tool-using turns: compaction and overflow recovery, no rejected request', async () => {
    const chat = (model: string) =>
      new ChatOpenAI({ model, apiKey: 'test', maxRetries: 0, configuration: { baseURL: server.baseURL } });
    const events: ContextEvent[] = [];
    const middleware = ctxkitMiddleware({
      model: 'gpt-4o',
      contextWindow: WINDOW,
      summarizer: createLangChainSummarizer({ model: chat('gpt-4o-mini') }),
      config: { reserveTokens: 2_500, keepRecentTokens: 16_000, toolOutput: { maxBytes: 12 * 1024, maxLines: 400 } },
      onEvent: (event) => events.push(event),
    });
    const agent = createAgent({
      model: chat('gpt-4o'),
      tools,
      systemPrompt: 'You are a careful coding agent. Use the tools to inspect and fix the repository.',
      middleware: [middleware],
    });
    let messages: BaseMessage[] = [];
    let answers = 0;
    for (let turn = 1; turn <= TURNS; turn++) {
      const state = await agent.invoke({
        messages: [...messages, new HumanMessage(`Turn ${turn}: fix the next failing parser test.`)],
      });
      messages = state.messages;
      const last = messages[messages.length - 1]!;
      if (last.type === 'ai' && (last as { tool_calls?: unknown[] }).tool_calls?.length === 0) answers++;
    }
    const model = server.log.requests.filter((request) => !request.summary);
    const summaries = server.log.requests.filter((request) => request.summary);
    console.info(
      `langchain agent: ${model.length} model requests, ${summaries.length} summary requests, ${server.log.overflows} overflows, ` +
        `${model.reduce((sum, request) => sum + request.promptTokens, 0)} prompt tokens sent, ${messages.length} messages kept in state`,
    );
    expect(server.log.rejected).toEqual([]);
    expect(answers).toBe(TURNS);
    // The agent's state keeps every message: ctxkit changed what was sent, not what was kept.
    expect(messages.filter((message) => message.type === 'human')).toHaveLength(TURNS);
    expect(messages.filter((message) => message.type === 'tool').length).toBe(toolCalls);
    expect(
      events.some((event) => event.type === 'compaction-end' && event.reason === 'threshold' && !event.error),
    ).toBe(true);
    expect(server.log.overflows).toBeGreaterThan(0);
    expect(events.some((event) => event.type === 'compaction-end' && event.reason === 'overflow' && !event.error)).toBe(
      true,
    );
    expect(summaries.length).toBeGreaterThan(0);
    // Every request stayed within the window or was an overflow ctxkit recovered from.
    expect(model.filter((request) => request.promptTokens > WINDOW).length).toBe(server.log.overflows);
  });
});
