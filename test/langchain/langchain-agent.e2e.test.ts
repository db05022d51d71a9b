// A real LangChain.js v1 agent (`createAgent` with a `ChatOpenAI` model) against the loopback OpenAI
// server, which checks every request by OpenAI's rules and refuses one over the window with OpenAI's
// own overflow error: a 16-turn tool-using session with tool output of thousands of lines, where
// ctxkit is one item of `middleware: [...]`. No request may break a rule; every overflow is recovered.

import { ChatOpenAI } from '@langchain/openai';
import type { ContextEvent } from 'ctxkit';
import { createLangChainSummarizer, ctxkitMiddleware } from 'ctxkit/langchain';
import { type BaseMessage, createAgent, HumanMessage, tool } from 'langchain';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { useLoopbackOpenAI } from '../harness/loopback.js';
import { scriptedToolOutputs } from '../harness/tool-outputs.js';

const WINDOW = 30_000;
/**
 * 16 turns: the session compacts at most turns and overflows three times (the checks below hold it
 * to that), the cycle the 40 turns it ran before went round. The long sessions are the soak's (`npm run soak`).
 */
const TURNS = 16;

/** Tool outputs of a hundred to thousands of lines (compiler errors, test runs), built once. */
const outputs = scriptedToolOutputs();
const tools = [
  tool(async ({ path }) => outputs.next(path), {
    name: 'read_file',
    description: 'Read a file',
    schema: z.object({ path: z.string(), verbose: z.boolean().optional() }),
  }),
  tool(async ({ path }) => outputs.next(path), {
    name: 'run_tests',
    description: 'Run the tests',
    schema: z.object({ path: z.string(), verbose: z.boolean().optional() }),
  }),
];

describe('a LangChain agent with ctxkitMiddleware', () => {
  const loopback = useLoopbackOpenAI({ contextWindow: WINDOW, maxOutputTokens: 16_384 });

  test('16 tool-using turns: compaction and overflow recovery, no rejected request', async () => {
    const server = loopback.server;
    const chat = (model: string) =>
      new ChatOpenAI({ model, apiKey: 'test', maxRetries: 0, configuration: { baseURL: server.baseURL } });
    const events: ContextEvent[] = [];
    const middleware = ctxkitMiddleware({
      model: 'gpt-4o',
      contextWindow: WINDOW,
      summarizer: createLangChainSummarizer({ model: chat('gpt-4o-mini') }),
      // The loopback counts half as much again as the estimate; uncalibrated, the manager does not
      // learn it, so requests overflow and the recovery this test exercises runs.
      calibrate: false,
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
    const results = messages.filter((message) => message.type === 'tool');
    expect(results.map((message) => message.content)).toEqual(outputs.returned);
    expect(
      events.filter((event) => event.type === 'compaction-end' && event.reason === 'threshold' && !event.error).length,
    ).toBeGreaterThanOrEqual(3);
    expect(server.log.overflows).toBeGreaterThanOrEqual(3);
    expect(events.some((event) => event.type === 'compaction-end' && event.reason === 'overflow' && !event.error)).toBe(
      true,
    );
    expect(summaries.length).toBeGreaterThan(0);
    // Every request stayed within the window or was an overflow ctxkit recovered from.
    expect(model.filter((request) => request.promptTokens > WINDOW).length).toBe(server.log.overflows);
  });
});
