import type { ModelMessage } from 'ai';
import { type ContextEvent, createContextManager } from 'ctxkit';
import { createGenerateTextSummarizer, ctxkitMiddleware } from 'ctxkit/ai-sdk';
import { describe, expect, it } from 'vitest';
import { useLoopbackOpenAI } from '../harness/loopback.js';
import { seededLog } from '../harness/tool-outputs.js';
import { majors } from './sdk-majors.js';

// The AI SDK (`ai` 7 and 6) with @ai-sdk/openai (Chat Completions and Responses) against the loopback OpenAI server, ctxkit as a
// language-model middleware.

const MODEL = 'gpt-4o';
const WINDOW = 24_000;

describe.each(majors)('AI SDK with @ai-sdk/openai end to end ($name)', (major) => {
  const { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } = major.ai;
  const schema = jsonSchema<{ path: string; verbose?: boolean }>({
    type: 'object',
    properties: { path: { type: 'string' }, verbose: { type: 'boolean' } },
    required: ['path'],
  });
  const tools = {
    read_file: tool({
      description: 'Reads a file.',
      inputSchema: schema,
      execute: async ({ path }, { toolCallId }) => seededLog(path, toolCallId),
    }),
    run_tests: tool({
      description: 'Runs tests.',
      inputSchema: schema,
      execute: async ({ path }, { toolCallId }) => seededLog(path, toolCallId),
    }),
  };

  const loopback = useLoopbackOpenAI({ contextWindow: WINDOW, maxOutputTokens: 16_384 });

  it('runs a session over the Responses API with no request rejected', async () => {
    const server = loopback.server;
    const provider = major.createOpenAI({ apiKey: 'test-key', baseURL: server.baseURL });
    const manager = createContextManager({
      model: MODEL,
      contextWindow: WINDOW,
      // The loopback server writes summaries over Chat Completions only.
      summarizer: createGenerateTextSummarizer({ generateText, model: provider.chat(MODEL) }),
      // Uncalibrated, as the Chat Completions session below (which goes on with this server's log).
      calibrate: false,
      config: { reserveTokens: 1_024, toolOutput: { maxLines: 300 } },
    });
    const model = wrapLanguageModel({ model: provider.responses(MODEL), middleware: ctxkitMiddleware(manager) });
    const messages: ModelMessage[] = [];
    const before = server.log.rejected.length;
    for (let turn = 0; turn < 10; turn++) {
      messages.push({ role: 'user', content: `Fix the parser, part ${turn}.` });
      const result = await generateText({
        model,
        system: 'You are a coding agent.',
        tools,
        messages,
        stopWhen: stepCountIs(6),
        maxRetries: 0,
        providerOptions: { openai: { store: false } },
      });
      messages.push(...major.responseMessages(result));
    }
    expect(server.log.rejected.slice(before)).toEqual([]);
  });

  // 16 turns: the window overflows from the third turn on, and every turn after compacts (40 turns
  // made the same cycle 37 times over); the long sessions are the soak's (`npm run soak`).
  it('runs a 16-turn generateText session over Chat Completions with no request rejected', async () => {
    const server = loopback.server;
    const provider = major.createOpenAI({ apiKey: 'test-key', baseURL: server.baseURL });
    const events: ContextEvent[] = [];
    const manager = createContextManager({
      model: MODEL,
      contextWindow: WINDOW,
      summarizer: createGenerateTextSummarizer({ generateText, model: provider.chat(MODEL) }),
      // The loopback counts half as much again as the estimate; uncalibrated, the manager does not
      // learn it, so requests overflow and the recovery this test exercises runs.
      calibrate: false,
      // The reference tail (the cost-aware default keeps 4,000 tokens): the window overflows and recovery runs.
      config: { reserveTokens: 1_024, keepRecentTokens: 20_000, toolOutput: { maxLines: 300 } },
      onEvent: (event) => events.push(event),
    });
    const model = wrapLanguageModel({ model: provider.chat(MODEL), middleware: ctxkitMiddleware(manager) });
    const messages: ModelMessage[] = [];
    for (let turn = 0; turn < 16; turn++) {
      messages.push({ role: 'user', content: `Fix the parser, part ${turn}.` });
      const result = await generateText({
        model,
        system: 'You are a coding agent.',
        tools,
        messages,
        stopWhen: stepCountIs(6),
        maxRetries: 0,
      });
      messages.push(...major.responseMessages(result));
    }
    const compactions = events.filter((event) => event.type === 'compaction-end' && event.error === undefined);
    expect(server.log.rejected).toEqual([]);
    expect(compactions.length).toBeGreaterThanOrEqual(3);
    expect(server.log.overflows).toBeGreaterThanOrEqual(3);
    console.info(
      `${major.name} + openai chat: ${server.log.requests.length} requests, ${compactions.length} compactions, ${server.log.overflows} overflow recoveries`,
    );
  });
});
