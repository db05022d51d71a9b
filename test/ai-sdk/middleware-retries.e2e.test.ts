import type { ModelMessage } from 'ai';
import { type ContextEvent, createContextManager } from 'ctxkit';
import { createGenerateTextSummarizer, ctxkitMiddleware } from 'ctxkit/ai-sdk';
import { describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../anthropic/loopback-anthropic-server.js';
import { useServersPerTest } from '../harness/loopback.js';
import { seededLog } from '../harness/tool-outputs.js';
import { type FailingProxy, startFailingProxy } from './failing-proxy.js';
import { type Major, majors } from './sdk-majors.js';

// The AI SDK retries a model call that failed with a 500 or a 429 by calling the wrapped model again
// with the same prompt. The middleware must send what it prepared for that prompt again, not prepare
// (and compact, and call the summarizer) a second time.

const MODEL = 'claude-sonnet-4-6';
const WINDOW = 14_000;

interface Run {
  compactions: number;
  summaries: number;
  requests: number;
  failures: number[];
  rejected: string[];
  messages: number;
}

const closeAfterTest = useServersPerTest();

/**
 * A 7-turn session, which compacts 5 times (12 turns compacted 10 times, no other path);
 * `failAfterCompaction` answers the first agent request after each summary with a 500 or a 429.
 */
async function session(major: Major, failAfterCompaction: boolean, stream: boolean): Promise<Run> {
  const { generateText, jsonSchema, stepCountIs, streamText, tool, wrapLanguageModel } = major.ai;
  const tools = {
    read_log: tool({
      description: 'Reads a log file.',
      inputSchema: jsonSchema<{ file: string }>({
        type: 'object',
        properties: { file: { type: 'string' } },
        required: ['file'],
      }),
      execute: async ({ file }, { toolCallId }) => seededLog(file, toolCallId, { spread: 2_000 }),
    }),
  };

  const server = closeAfterTest(await startAnthropicServer({ contextWindow: WINDOW }));
  let summarized = false;
  let failed = 0;
  const proxy: FailingProxy = closeAfterTest(
    await startFailingProxy({
      target: server.url,
      failWith: ({ body }) => {
        const summary = body.tools === undefined || body.tools.length === 0;
        if (summary) {
          summarized = true;
          return undefined;
        }
        if (!failAfterCompaction || !summarized) return undefined;
        summarized = false;
        return failed++ % 2 === 0 ? 500 : 429;
      },
    }),
  );
  const provider = major.createAnthropic({ apiKey: 'test-key', baseURL: `${proxy.url}/v1` });
  const events: ContextEvent[] = [];
  const manager = createContextManager({
    model: MODEL,
    contextWindow: WINDOW,
    summarizer: createGenerateTextSummarizer({ generateText, model: provider(MODEL) }),
    config: { reserveTokens: 1_024, toolOutput: { maxLines: 200 } },
    onEvent: (event) => events.push(event),
  });
  const model = wrapLanguageModel({ model: provider(MODEL), middleware: ctxkitMiddleware(manager) });
  const messages: ModelMessage[] = [];
  for (let turn = 0; turn < 7; turn++) {
    messages.push({ role: 'user', content: `Check the logs of batch ${turn}.` });
    const options = { model, system: 'You read logs.', tools, messages, stopWhen: stepCountIs(6), maxRetries: 2 };
    if (stream) {
      const result = streamText(options);
      await result.consumeStream({ onError: (error) => Promise.reject(error) });
      messages.push(...(await major.streamedMessages(result)));
    } else {
      messages.push(...major.responseMessages(await generateText(options)));
    }
  }
  return {
    compactions: events.filter((event) => event.type === 'compaction-end' && event.error === undefined).length,
    summaries: server.stats.summaries,
    requests: server.stats.requests,
    failures: proxy.failures,
    rejected: server.stats.rejected,
    messages: messages.length,
  };
}

describe.each(majors)('ctxkitMiddleware under the AI SDK retries ($name)', (major) => {
  it.each([
    ['generateText', false],
    ['streamText', true],
  ])('a retried call reuses what was prepared for its prompt (%s)', async (_name, stream) => {
    const steady = await session(major, false, stream);
    const flaky = await session(major, true, stream);
    expect(steady.compactions).toBeGreaterThanOrEqual(3);
    expect(flaky.failures.length).toBe(steady.compactions);
    expect(flaky.failures).toContain(429);
    expect(flaky.compactions).toBe(steady.compactions);
    expect(flaky.summaries).toBe(steady.summaries);
    expect(flaky.requests).toBe(steady.requests);
    expect(flaky.messages).toBe(steady.messages);
    expect(flaky.rejected).toEqual([]);
    console.info(
      `retries (${major.name}, ${_name}): ${flaky.failures.length} transient errors, ${flaky.compactions} compactions and ${flaky.summaries} summaries (without errors: ${steady.compactions} and ${steady.summaries})`,
    );
  });
});
