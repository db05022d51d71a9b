import Anthropic from '@anthropic-ai/sdk';
import AnthropicV112 from 'anthropic-sdk-v1-12';
import { type ContextEvent, createContextManager, type Message, type ToolCall, type ToolResultMessage } from 'ctxkit';
import {
  createAnthropicSummarizer,
  createToolResultMessage,
  readAnthropicMessage,
  toAnthropic,
} from 'ctxkit/anthropic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnthropicServer, startAnthropicServer } from './loopback-anthropic-server.js';

// The real @anthropic-ai/sdk client against a loopback server that checks requests like the API and
// answers an oversized one with Anthropic's overflow error.

const MODEL = 'claude-sonnet-4-6';
const SYSTEM = 'You are a coding agent. Read the logs you are asked about.';
const TOOLS = [
  {
    name: 'read_log',
    description: 'Reads a log file.',
    input_schema: { type: 'object' as const, properties: { file: { type: 'string' } } },
  },
];
const WINDOW = 30_000;

/** A log of up to a few thousand lines (the length varies with the call, the same on every run). */
function runTool(call: ToolCall): ToolResultMessage {
  const seed = [...call.id].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) % 10_007, 7);
  const lines = Array.from(
    { length: 60 + (seed % 3_000) },
    (_, index) => `${String(call.arguments['file'])}:${index} ok`,
  );
  return createToolResultMessage({ toolCallId: call.id, toolName: call.name, output: lines.join('\n') });
}

/** The current release and 1.12 (under the `anthropic-sdk-v1-12` alias), the one ctxkit was first tested on. */
const clients = [
  { version: 'current', create: (baseURL: string) => new Anthropic({ apiKey: 'test-key', baseURL, maxRetries: 0 }) },
  {
    version: '1.12',
    // Typed as the current release so one session body drives both; sdk-types.test.ts checks 1.12's types.
    create: (baseURL: string) =>
      new AnthropicV112({ apiKey: 'test-key', baseURL, maxRetries: 0 }) as unknown as Anthropic,
  },
];

describe.each(clients)('@anthropic-ai/sdk ($version) end to end', ({ create }) => {
  let server: AnthropicServer;
  beforeAll(async () => {
    server = await startAnthropicServer({ contextWindow: WINDOW });
  });
  afterAll(() => server.close());

  // 26 turns: the session compacts every turn or two from the first, and the server refuses one
  // request, at turn 24 (the only one in 40 turns), which is recovered. The long sessions are the
  // soak's (`npm run soak`).
  it('runs a 26-turn tool-using session with compaction and overflow recovery, and no request rejected', async () => {
    const client = create(server.url);
    const events: ContextEvent[] = [];
    const manager = createContextManager({
      model: MODEL,
      contextWindow: WINDOW,
      summarizer: createAnthropicSummarizer({ client, model: MODEL }),
      systemPrompt: SYSTEM,
      tools: TOOLS,
      // The loopback counts 30% above the estimate; uncalibrated, the manager does not
      // learn it, so requests overflow and the recovery this test exercises runs.
      calibrate: false,
      // A small window: tool output cut to 300 lines, and a reserve sized to the 1,024-token replies.
      // The reference tail (the cost-aware default keeps 4,000 tokens): the window overflows and recovery runs.
      config: { reserveTokens: 1_024, keepRecentTokens: 20_000, toolOutput: { maxLines: 400 } },
      onEvent: (event) => events.push(event),
    });
    let history: Message[] = [];
    let recovered = 0;
    for (let turn = 0; turn < 26; turn++) {
      history.push({ role: 'user', content: `Check the logs of batch ${turn}.` });
      for (let step = 0; step < 6; step++) {
        // The ctxkit part of the loop: the rest is what any Anthropic tool loop has.
        const run = await manager.runWithOverflowRecovery(history, async (messages) => {
          const { system, messages: wire } = toAnthropic({ systemPrompt: SYSTEM, messages });
          return readAnthropicMessage(
            await client.messages.create({ model: MODEL, max_tokens: 1_024, system, tools: TOOLS, messages: wire }),
          );
        });
        history = [...run.history, run.result];
        if (run.recovered) recovered++;
        if (run.result.stopReason !== 'toolUse') break;
        for (const part of run.result.content) if (part.type === 'toolCall') history.push(runTool(part));
      }
    }
    const compactions = events.filter((event) => event.type === 'compaction-end' && event.error === undefined);
    expect(server.stats.rejected).toEqual([]);
    expect(compactions.length).toBeGreaterThanOrEqual(3);
    expect(recovered).toBeGreaterThan(0);
    expect(server.stats.overflows).toBe(recovered);
    expect(
      history.filter((message) => message.role === 'user' && message.meta?.kind === undefined).length,
    ).toBeGreaterThan(0);
    console.info(
      `anthropic sdk: ${server.stats.requests} requests, ${compactions.length} compactions, ${recovered} overflow recoveries, ${server.stats.summaries} summaries`,
    );
  });

  it('compacts with a reserve of 32,000 tokens: the summary budget is clamped to what the SDK sends without streaming', async () => {
    const big = await startAnthropicServer({ contextWindow: 200_000 });
    try {
      const client = create(big.url);
      const manager = createContextManager({
        model: MODEL,
        summarizer: createAnthropicSummarizer({ client, model: MODEL }),
        config: { reserveTokens: 32_000 },
      });
      const history: Message[] = [];
      for (let turn = 0; turn < 12; turn++) {
        history.push({ role: 'user', content: `Question ${turn}: ${'context '.repeat(400)}` });
        history.push({
          role: 'assistant',
          content: [{ type: 'text', text: `Answer ${turn}: ${'detail '.repeat(400)}` }],
        });
      }
      const result = await manager.compact(history);
      expect(result.messages.length).toBeLessThan(history.length);
      expect(big.stats.summaryMaxTokens).toEqual([21_333]);
      expect(big.stats.rejected).toEqual([]);
    } finally {
      await big.close();
    }
  });
});
