import Anthropic from '@anthropic-ai/sdk';
import { fc, test } from '@fast-check/vitest';
import {
  ANTHROPIC_CACHE_5M,
  ContextError,
  createContextManager,
  type Message,
  type ToolCall,
  type ToolResultMessage,
} from 'ctxkit';
import {
  type AnthropicToolParam,
  createAnthropicSummarizer,
  fromAnthropicMessage,
  fromAnthropicUsage,
  toAnthropic,
} from 'ctxkit/anthropic';
import { afterEach, describe, expect, it } from 'vitest';
import { type AnthropicServer, startAnthropicServer } from './loopback-anthropic-server.js';

// Prompt-cache breakpoints from toAnthropic, summary calls that reuse the conversation's cache, and
// stats().cost, through the real SDK against a loopback server that emulates Anthropic's cache.

const MODEL = 'claude-sonnet-4-5';
const SYSTEM = 'You are a coding agent. Read the logs you are asked about, then report what failed.';
const TOOLS: AnthropicToolParam[] = [
  {
    name: 'read_log',
    description: 'Reads a log file.',
    input_schema: { type: 'object', properties: { file: { type: 'string' } } },
  },
];

const countMarks = (request: ReturnType<typeof toAnthropic>) =>
  [
    ...(Array.isArray(request.system) ? request.system : []),
    ...request.messages.flatMap((message) => (Array.isArray(message.content) ? message.content : [])),
  ].filter((block) => (block as { cache_control?: unknown }).cache_control != null).length;

const user = (text: string): Message => ({ role: 'user', content: text });
const call = (id: string): Message => ({
  role: 'assistant',
  content: [{ type: 'toolCall', id, name: 'read_log', arguments: { file: `${id}.log` } }],
});
const result = (id: string, meta?: Message['meta']): Message => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: 'read_log',
  content: [{ type: 'text', text: `${id}: 3 passed` }],
  ...(meta ? { meta } : {}),
});

describe('toAnthropic({ cacheBreakpoints })', () => {
  it('marks the newest message, the system prompt, the last archived result and the message before the newest', () => {
    const messages: Message[] = [
      user('Check the logs.'),
      call('a'),
      result('a', { kind: 'tool_result_archived' }),
      call('b'),
      result('b'),
      { role: 'assistant', content: [{ type: 'text', text: 'Both passed.' }] },
      user('Now the next batch.'),
    ];
    const request = toAnthropic({ systemPrompt: SYSTEM, messages, cacheBreakpoints: true });
    expect(request.system).toEqual([{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }]);
    expect(countMarks(request)).toBe(4);
    const last = request.messages[request.messages.length - 1]!;
    expect(last.content).toEqual([{ type: 'text', text: 'Now the next batch.', cache_control: { type: 'ephemeral' } }]);
    // The archived result opens the second user turn.
    expect((request.messages[2]!.content as Array<{ cache_control?: unknown }>)[0]!.cache_control).toEqual({
      type: 'ephemeral',
    });
    // Without the option, nothing is marked and the rest is identical.
    const plain = toAnthropic({ systemPrompt: SYSTEM, messages });
    expect(countMarks(plain)).toBe(0);
    const stripped = JSON.parse(JSON.stringify(request).replaceAll(',"cache_control":{"type":"ephemeral"}', ''));
    expect(stripped.messages.slice(0, -1)).toEqual(plain.messages.slice(0, -1));
    expect(stripped.messages.at(-1).content).toEqual([{ type: 'text', text: 'Now the next batch.' }]);
  });

  it('counts the host’s own marks, takes a 1-hour TTL, never marks thinking, and refuses an unknown TTL', () => {
    const marked = toAnthropic({
      systemPrompt: `${SYSTEM}\n\nBe brief.`,
      providerData: {
        anthropic: {
          system: [
            { type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } },
            { type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } },
          ],
        },
      },
      messages: [user('a'), call('x'), result('x'), user('b')],
      cacheBreakpoints: { ttl: '1h' },
    });
    expect(countMarks(marked)).toBe(4);
    expect(JSON.stringify(marked.messages)).toContain('"ttl":"1h"');
    const thinking = toAnthropic({
      messages: [
        user('a'),
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me think.' },
            { type: 'thinking', thinking: 'hmm', signature: 'sig' },
          ],
        },
      ],
      cacheBreakpoints: true,
    });
    const blocks = thinking.messages[1]!.content as Array<{ type: string; cache_control?: unknown }>;
    expect(blocks.find((block) => block.type === 'thinking')?.cache_control).toBeUndefined();
    expect(blocks.find((block) => block.type === 'text')?.cache_control).toEqual({ type: 'ephemeral' });
    expect(() => toAnthropic({ messages: [user('a')], cacheBreakpoints: { ttl: '2h' as never } })).toThrow(
      ContextError,
    );
  });

  test.prop([
    fc.array(
      fc.oneof(
        fc.constant('user'),
        fc.constant('tool'),
        fc.constant('archived'),
        fc.constant('summary'),
        fc.constant('answer'),
      ),
      { minLength: 1, maxLength: 30 },
    ),
    fc.boolean(),
  ])('never more than 4 marks, and never a change to the messages it was given', (kinds, withSystem) => {
    const messages: Message[] = [];
    kinds.forEach((kind, index) => {
      if (kind === 'user') messages.push(user(`ask ${index}`));
      else if (kind === 'answer')
        messages.push({ role: 'assistant', content: [{ type: 'text', text: `done ${index}` }] });
      else if (kind === 'summary')
        messages.push({ role: 'user', content: `summary ${index}`, meta: { kind: 'compaction_summary' } });
      else {
        messages.push(call(`c${index}`));
        messages.push(result(`c${index}`, kind === 'archived' ? { kind: 'tool_result_archived' } : undefined));
      }
    });
    const before = JSON.stringify(messages);
    const request = toAnthropic({ ...(withSystem ? { systemPrompt: SYSTEM } : {}), messages, cacheBreakpoints: true });
    expect(countMarks(request)).toBeLessThanOrEqual(4);
    expect(countMarks(request)).toBeGreaterThan(0);
    expect(JSON.stringify(messages)).toBe(before);
  });
});

/** A log of a few hundred lines, the same for the same call on every run. */
function runTool(toolCall: ToolCall): ToolResultMessage {
  const lines = Array.from({ length: 300 }, (_, index) => `${String(toolCall.arguments['file'])}:${index} ok`);
  return {
    role: 'toolResult',
    toolCallId: toolCall.id,
    toolName: toolCall.name,
    content: [{ type: 'text', text: lines.join('\n') }],
  };
}

describe('a session against an emulated prompt cache', () => {
  let server: AnthropicServer | undefined;
  afterEach(() => server?.close());

  async function session(options: { breakpoints: boolean; reuse: boolean }) {
    const clock = { now: Date.UTC(2026, 0, 1) };
    server = await startAnthropicServer({
      contextWindow: 60_000,
      promptCache: { rules: ANTHROPIC_CACHE_5M, now: () => clock.now },
    });
    const client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
    const manager = createContextManager({
      model: MODEL,
      contextWindow: 60_000,
      summarizer: createAnthropicSummarizer({
        client,
        model: MODEL,
        ...(options.reuse ? { reuseConversation: { systemPrompt: SYSTEM, tools: TOOLS } } : {}),
      }),
      systemPrompt: SYSTEM,
      tools: TOOLS,
      now: () => clock.now,
      config: { reserveTokens: 2_048, toolCallCutoff: 4, toolSummaryBatch: 4 },
    });
    let history: Message[] = [];
    for (let turn = 0; turn < 12; turn++) {
      history.push(user(`Check the logs of batch ${turn}.`));
      for (let step = 0; step < 4; step++) {
        clock.now += 8_000;
        const prepared = await manager.prepare(history);
        const { system, messages } = toAnthropic({
          systemPrompt: SYSTEM,
          messages: prepared.messages,
          cacheBreakpoints: options.breakpoints,
        });
        const response = await client.messages.create({
          model: MODEL,
          max_tokens: 1_024,
          system,
          tools: TOOLS,
          messages,
        });
        const reply = fromAnthropicMessage(response);
        manager.recordUsage(fromAnthropicUsage(response.usage));
        history = [...prepared.history, reply.message];
        if (reply.stopReason !== 'toolUse') break;
        for (const part of reply.message.content) if (part.type === 'toolCall') history.push(runTool(part));
      }
    }
    return { cost: manager.stats(history).cost, stats: server.stats };
  }

  it('reads most of each request from the cache with breakpoints, nothing without, and prices it', async () => {
    const marked = await session({ breakpoints: true, reuse: false });
    expect(marked.stats.rejected).toEqual([]);
    expect(marked.cost.cacheHitRate).toBeGreaterThan(0.6);
    // stats().cost is exactly what the server reported for the conversation's own requests.
    const own = marked.stats.usage.filter((usage) => !usage.summary);
    const sum = (pick: (usage: (typeof own)[number]) => number) => own.reduce((total, usage) => total + pick(usage), 0);
    expect(marked.cost.tokens).toMatchObject({
      uncachedInput: sum((usage) => usage.input),
      cacheWrite: sum((usage) => usage.cacheWrite),
      cacheRead: sum((usage) => usage.cacheRead),
      output: sum((usage) => usage.output),
    });
    expect(marked.cost.tokens.cacheWrite).toBeGreaterThan(0);
    expect(marked.cost.cacheHitRate).toBeCloseTo(
      sum((usage) => usage.cacheRead) / sum((usage) => usage.input + usage.cacheRead + usage.cacheWrite),
      12,
    );
    const { tokens, dollars } = marked.cost;
    expect(dollars!.total).toBeCloseTo(
      (tokens.uncachedInput * 3 + tokens.cacheWrite * 3.75 + tokens.cacheRead * 0.3 + tokens.output * 15) / 1e6,
      10,
    );
    await server!.close();
    server = undefined;
    const plain = await session({ breakpoints: false, reuse: false });
    expect(plain.cost.tokens.cacheRead).toBe(0);
    expect(plain.cost.dollars!.total).toBeGreaterThan(marked.cost.dollars!.total * 2);
  });

  it('summary calls that reuse the conversation read it from the cache', async () => {
    const { stats } = await session({ breakpoints: true, reuse: true });
    expect(stats.rejected).toEqual([]);
    expect(stats.summaryCache.length).toBeGreaterThan(0);
    const read = stats.summaryCache.reduce((sum, call) => sum + call.read, 0);
    const sent = stats.summaryCache.reduce((sum, call) => sum + call.prompt, 0);
    expect(read / sent).toBeGreaterThan(0.5);
  });
});
