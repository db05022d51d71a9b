import type { ModelMessage } from 'ai';
import { type ContextEvent, createContextManager } from 'ctxkit';
import {
  createGenerateTextSummarizer,
  ctxkitMiddleware,
  fromGenerateTextResult,
  fromStreamTextResult,
} from 'ctxkit/ai-sdk';
import { describe, expect, it, vi } from 'vitest';
import { useLoopbackAnthropic } from '../harness/loopback.js';
import { seededLog } from '../harness/tool-outputs.js';
import { majors } from './sdk-majors.js';

// The AI SDK (`generateText` and `streamText` with @ai-sdk/anthropic; `ai` 7 and 6) against the
// loopback Anthropic server, with ctxkit as a language-model middleware and nothing else in the
// host's code.

const MODEL = 'claude-sonnet-4-6';
const SYSTEM = 'You are a coding agent. Read the logs you are asked about.';
const WINDOW = 30_000;
/**
 * Turns of the long session: it compacts every turn or two from the first, and the server refuses
 * one request, at turn 24 (the only one in 40 turns), which the middleware recovers. The long
 * sessions are the soak's (`npm run soak`).
 */
const TURNS = 26;

/** Tool messages in a response: each becomes one ctxkit message per result. */
function countToolMessages(response: { messages: ModelMessage[] }): number {
  return response.messages.filter((message) => message.role === 'tool').length;
}

describe.each(majors)('AI SDK end to end ($name)', (major) => {
  const { generateText, jsonSchema, stepCountIs, streamText, tool, wrapLanguageModel } = major.ai;
  const tools = {
    read_log: tool({
      description: 'Reads a log file.',
      inputSchema: jsonSchema<{ file: string }>({
        type: 'object',
        properties: { file: { type: 'string' } },
        required: ['file'],
      }),
      execute: async ({ file }, { toolCallId }) => seededLog(file, toolCallId),
    }),
  };

  const loopback = useLoopbackAnthropic({ contextWindow: WINDOW });

  function setup() {
    const server = loopback.server;
    const provider = major.createAnthropic({ apiKey: 'test-key', baseURL: `${server.url}/v1` });
    const events: ContextEvent[] = [];
    const manager = createContextManager({
      model: MODEL,
      contextWindow: WINDOW,
      summarizer: createGenerateTextSummarizer({ generateText, model: provider(MODEL) }),
      // The loopback counts 30% above the estimate; uncalibrated, the manager does not
      // learn it, so requests overflow and the recovery this test exercises runs.
      calibrate: false,
      // The reference tail (the cost-aware default keeps 4,000 tokens): the window overflows and recovery runs.
      config: { reserveTokens: 1_024, keepRecentTokens: 20_000, toolOutput: { maxLines: 400 } },
      onEvent: (event) => events.push(event),
    });
    const model = wrapLanguageModel({ model: provider(MODEL), middleware: ctxkitMiddleware(manager) });
    return { model, events, manager };
  }

  it('runs a 26-turn generateText session with compaction and overflow recovery, and no request rejected', async () => {
    const { model, events } = setup();
    const server = loopback.server;
    const before = { ...server.stats, rejected: [...server.stats.rejected] };
    const messages: ModelMessage[] = [];
    for (let turn = 0; turn < TURNS; turn++) {
      messages.push({ role: 'user', content: `Check the logs of batch ${turn}.` });
      const result = await generateText({
        model,
        system: SYSTEM,
        tools,
        messages,
        stopWhen: stepCountIs(6),
        maxRetries: 0,
      });
      messages.push(...major.responseMessages(result));
      expect(fromGenerateTextResult(result).message.content.length).toBeGreaterThan(0);
    }
    const compactions = events.filter((event) => event.type === 'compaction-end' && event.error === undefined);
    const overflows = server.stats.overflows - before.overflows;
    expect(server.stats.rejected).toEqual([]);
    expect(compactions.length).toBeGreaterThanOrEqual(3);
    expect(overflows).toBeGreaterThan(0);
    expect(compactions.filter((event) => event.type === 'compaction-end' && event.reason === 'overflow').length).toBe(
      overflows,
    );
    // Every turn called a tool at least once: its user message, a call, the result and the answer.
    expect(messages.length).toBeGreaterThan(3 * TURNS);
    console.info(
      `${major.name} generateText: ${server.stats.requests - before.requests} requests, ${compactions.length} compactions, ${overflows} overflow recoveries`,
    );
  });

  it('streams through the middleware and records the usage when the stream ends', async () => {
    const { model, manager } = setup();
    const server = loopback.server;
    const recorded = vi.spyOn(manager, 'recordUsage');
    const messages: ModelMessage[] = [];
    for (let turn = 0; turn < 6; turn++) {
      messages.push({ role: 'user', content: `Check the logs of batch ${turn}.` });
      const result = streamText({ model, system: SYSTEM, tools, messages, stopWhen: stepCountIs(6), maxRetries: 0 });
      let text = '';
      for await (const delta of result.textStream) text += delta;
      expect(text.length).toBeGreaterThan(0);
      const converted = await fromStreamTextResult(result);
      expect(converted.message).toMatchObject({ role: 'assistant', stopReason: 'stop', model: MODEL });
      const streamed = await major.streamedMessages(result);
      expect(converted.messages.length).toBe(
        streamed.length + converted.toolResults.length - countToolMessages({ messages: streamed }),
      );
      messages.push(...streamed);
    }
    expect(server.stats.rejected).toEqual([]);
    expect(recorded).toHaveBeenCalled();
    for (const [usage] of recorded.mock.calls) {
      expect(usage.input).toBeGreaterThan(0);
      expect(usage.cacheRead).toBeGreaterThan(0);
    }
  });
});
