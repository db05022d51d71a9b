import type { ModelMessage } from 'ai';
import {
  ANTHROPIC_CACHE_5M,
  ContextError,
  createContextManager,
  type Message,
  OPENAI_AUTOMATIC_CACHE,
  type ToolCall,
} from 'ctxkit';
import {
  type AISDKMessage,
  createGenerateTextSummarizer,
  ctxkitMiddleware,
  fromGenerateTextResult,
  fromModelMessages,
  type GenerateTextConversationReuse,
  toModelMessages,
} from 'ctxkit/ai-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type AnthropicServer, startAnthropicServer } from '../anthropic/loopback-anthropic-server.js';
import { type FakeOpenAI, startFakeOpenAI } from '../openai/fake-openai-server.js';
import { majors } from './sdk-majors.js';

// createGenerateTextSummarizer's reuseConversation through `generateText` (`ai` 7 and 6) against the
// loopback servers emulating the prompt cache: with @ai-sdk/anthropic (the host's loop, its own
// breakpoints) and with @ai-sdk/openai behind ctxkitMiddleware (automatic caching under the
// conversation's prompt_cache_key). The summary calls send the conversation's system prompt, tools and
// messages, and read them from the cache.

const MODEL = 'claude-sonnet-4-5';
const SYSTEM = 'You are a coding agent. Read the logs you are asked about, then report what failed.';
const BREAKPOINT = { anthropic: { cacheControl: { type: 'ephemeral' } } };

/** A log of a few hundred lines, the same for the same call on every run. */
function runTool(call: ToolCall): Message {
  const lines = Array.from({ length: 300 }, (_, index) => `${String(call.arguments['file'])}:${index} ok`);
  return {
    role: 'toolResult',
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: 'text', text: lines.join('\n') }],
  };
}

/** The host's own breakpoints: the newest message and the one before it, as its calls mark them. */
function marked(messages: AISDKMessage[]): AISDKMessage[] {
  return messages.map((message, index) =>
    index >= messages.length - 2 ? ({ ...message, providerOptions: BREAKPOINT } as AISDKMessage) : message,
  );
}

describe.each(majors)('createGenerateTextSummarizer({ reuseConversation }) on a cached prefix ($name)', (major) => {
  const { generateText, jsonSchema, tool } = major.ai;
  let server: AnthropicServer | undefined;
  afterEach(() => server?.close());

  const executed: string[] = [];
  const tools = {
    read_log: tool({
      description: 'Reads a log file.',
      inputSchema: jsonSchema<{ file: string }>({
        type: 'object',
        properties: { file: { type: 'string' } },
        required: ['file'],
      }),
    }),
  };
  // The same definition with an `execute`: the summary call must send it and never run it.
  const runnable = {
    read_log: {
      ...tools.read_log,
      execute: async ({ file }: { file: string }) => {
        executed.push(file);
        return file;
      },
    },
  };

  async function session(reuse: boolean) {
    const clock = { now: Date.UTC(2026, 0, 1) };
    server = await startAnthropicServer({
      contextWindow: 60_000,
      promptCache: { rules: ANTHROPIC_CACHE_5M, now: () => clock.now },
    });
    const provider = major.createAnthropic({ apiKey: 'test-key', baseURL: `${server.url}/v1` });
    const manager = createContextManager({
      model: MODEL,
      contextWindow: 60_000,
      summarizer: createGenerateTextSummarizer({
        generateText,
        model: provider(MODEL),
        ...(reuse ? { reuseConversation: { system: SYSTEM, tools: runnable } } : {}),
      }),
      systemPrompt: SYSTEM,
      tools: [{ name: 'read_log', description: 'Reads a log file.', parameters: { type: 'object' } }],
      now: () => clock.now,
      config: { reserveTokens: 2_048, toolCallCutoff: 4, toolSummaryBatch: 4 },
    });
    let history: Message[] = [];
    for (let turn = 0; turn < 12; turn++) {
      history.push({ role: 'user', content: `Check the logs of batch ${turn}.` });
      for (let step = 0; step < 4; step++) {
        clock.now += 8_000;
        const prepared = await manager.prepare(history);
        const result = await generateText({
          model: provider(MODEL),
          system: SYSTEM,
          tools,
          messages: marked(toModelMessages({ messages: prepared.messages }).messages),
          maxRetries: 0,
        });
        const reply = fromGenerateTextResult(result);
        manager.recordUsage(reply.usage);
        history = [...prepared.history, ...reply.messages];
        if (reply.stopReason !== 'toolUse') break;
        for (const part of reply.message.content) if (part.type === 'toolCall') history.push(runTool(part));
      }
    }
    return { cost: manager.stats(history).cost, stats: server.stats };
  }

  it('summary calls read the conversation from the cache, and rebuilt ones read nothing', async () => {
    const reused = await session(true);
    expect(reused.stats.rejected).toEqual([]);
    expect(reused.stats.summaryCache.length).toBeGreaterThan(0);
    const read = reused.stats.summaryCache.reduce((sum, call) => sum + call.read, 0);
    const sent = reused.stats.summaryCache.reduce((sum, call) => sum + call.prompt, 0);
    console.info(
      `${major.name}: ${reused.stats.summaryCache.length} summaries read ${read} of ${sent}; hit rate ${reused.cost.cacheHitRate}`,
    );
    expect(read / sent).toBeGreaterThan(0.5);
    expect(executed).toEqual([]);
    // The conversation's own calls read most of each request back, and stats() prices it.
    expect(reused.cost.cacheHitRate).toBeGreaterThan(0.5);
    await server!.close();
    server = undefined;

    const rebuilt = await session(false);
    expect(rebuilt.stats.rejected).toEqual([]);
    expect(rebuilt.stats.summaryCache.length).toBeGreaterThan(0);
    expect(rebuilt.stats.summaryCache.every((call) => call.read === 0)).toBe(true);
  });
});

describe.each(majors)('reuseConversation behind ctxkitMiddleware with @ai-sdk/openai ($name)', (major) => {
  const { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } = major.ai;
  const KEY = 'session-42';
  let server: FakeOpenAI | undefined;
  afterEach(() => server?.close());

  const tools = {
    read_file: tool({
      description: 'Reads a file.',
      inputSchema: jsonSchema<{ path: string }>({
        type: 'object',
        properties: { path: { type: 'string' } },
        required: ['path'],
      }),
      execute: async ({ path }: { path: string }) =>
        Array.from({ length: 250 }, (_, line) => `${path}:${line} not ok - expected 1 got 2`).join('\n'),
    }),
  };

  async function session(summaryKey: string) {
    const clock = { now: Date.UTC(2026, 0, 1) };
    server = await startFakeOpenAI({
      contextWindow: 60_000,
      maxOutputTokens: 16_384,
      promptCache: { rules: OPENAI_AUTOMATIC_CACHE, now: () => clock.now },
    });
    const provider = major.createOpenAI({ apiKey: 'test-key', baseURL: server.baseURL });
    const manager = createContextManager({
      model: 'gpt-5',
      contextWindow: 60_000,
      summarizer: createGenerateTextSummarizer({
        generateText,
        model: provider.chat('gpt-5'),
        reuseConversation: { system: SYSTEM, tools, providerOptions: { openai: { promptCacheKey: summaryKey } } },
      }),
      now: () => clock.now,
      config: { reserveTokens: 2_048, toolCallCutoff: 4, toolSummaryBatch: 4 },
    });
    const model = wrapLanguageModel({ model: provider.chat('gpt-5'), middleware: ctxkitMiddleware(manager) });
    const messages: ModelMessage[] = [];
    for (let turn = 0; turn < 12; turn++) {
      clock.now += 20_000;
      messages.push({ role: 'user', content: `Fix the parser, part ${turn}.` });
      const result = await generateText({
        model,
        system: SYSTEM,
        tools,
        messages,
        stopWhen: stepCountIs(6),
        maxRetries: 0,
        providerOptions: { openai: { promptCacheKey: KEY } },
      });
      messages.push(...major.responseMessages(result));
    }
    return server.log;
  }

  it('summary calls under the conversation’s key read it from the cache; under another key, the first reads none', async () => {
    const log = await session(KEY);
    expect(log.rejected).toEqual([]);
    const summaries = log.cache.filter((entry) => entry.summary);
    expect(summaries.length).toBeGreaterThan(0);
    const read = summaries.reduce((sum, entry) => sum + entry.cachedTokens, 0);
    const sent = summaries.reduce((sum, entry) => sum + entry.promptTokens, 0);
    console.info(`${major.name}, openai: ${summaries.length} summaries read ${read} of ${sent}`);
    expect(read / sent).toBeGreaterThan(0.5);
    expect(summaries.every((entry) => entry.promptCacheKey === KEY)).toBe(true);
    await server!.close();
    server = undefined;
    const elsewhere = await session('another-session');
    expect(elsewhere.cache.find((entry) => entry.summary)).toMatchObject({ cachedTokens: 0 });
  });
});

describe('createGenerateTextSummarizer({ reuseConversation }) calls', () => {
  const conversation: Message[] = [
    { role: 'user', content: 'Check the logs.' },
    { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'read_log', arguments: { file: 'a.log' } }] },
    {
      role: 'toolResult',
      toolCallId: 'c1',
      toolName: 'read_log',
      content: [{ type: 'text', text: 'a.log: 3 passed' }],
    },
  ];
  const request = {
    kind: 'compaction' as const,
    messages: conversation,
    text: 'user: Check the logs.',
    maxOutputTokens: 1_000,
    conversation,
  };

  /** A summarizer whose `generateText` records the options of every call and answers with `answer(options)`. */
  function recording<Tools>(
    reuseConversation: GenerateTextConversationReuse<Tools>,
    answer: (options: Record<string, unknown>) => string = () => '## Goal\n- Check the logs.',
  ) {
    const calls: Record<string, unknown>[] = [];
    const summarizer = createGenerateTextSummarizer({
      generateText: async (options: Record<string, unknown>) => {
        calls.push(options);
        return { text: answer(options), finishReason: 'stop' };
      },
      model: 'claude-sonnet-4-5',
      reuseConversation,
    });
    return { calls, summarizer };
  }

  it('sends the conversation, its system and its tools without execute, the instruction last, marked', async () => {
    const { calls, summarizer } = recording({
      system: SYSTEM,
      tools: { read_log: { description: 'Reads a log file.', execute: () => 'ran' } },
    });
    const output = await summarizer.summarize(request);
    expect(output).toMatchObject({ text: '## Goal\n- Check the logs.' });
    const [call] = calls;
    expect(call!['system']).toBe(SYSTEM);
    expect(call!['prompt']).toBeUndefined();
    expect(call!['tools']).toEqual({ read_log: { description: 'Reads a log file.' } });
    const messages = call!['messages'] as AISDKMessage[];
    expect(messages.slice(0, -1)).toEqual(
      toModelMessages({ messages: conversation }).messages.map((message, index) =>
        index === 2 ? { ...message, providerOptions: BREAKPOINT } : message,
      ),
    );
    expect(messages.at(-1)).toMatchObject({ role: 'user', providerOptions: BREAKPOINT });
    expect(JSON.stringify(messages.at(-1)!.content)).toContain('Stop working on the task');
  });

  it('falls back to the rebuilt prompt without a conversation or without text, and marks nothing with breakpoint: false', async () => {
    const { calls, summarizer } = recording({ breakpoint: false }, (options) =>
      'messages' in options ? '' : '## Goal\n- Rebuilt.',
    );
    await summarizer.summarize({ ...request, conversation: undefined });
    expect(calls.map((call) => 'prompt' in call)).toEqual([true]);
    await summarizer.summarize(request);
    expect(calls.map((call) => 'prompt' in call)).toEqual([true, false, true]);
    const messages = calls[1]!['messages'] as AISDKMessage[];
    expect(messages.every((message) => message.providerOptions === undefined)).toBe(true);
    expect(calls[1]!['tools']).toBeUndefined();
  });

  it('adds marks only while fewer than 4 messages and parts carry one', async () => {
    const { calls, summarizer } = recording({});
    const marked = (text: string): Message =>
      fromModelMessages([{ role: 'user', content: [{ type: 'text', text, providerOptions: BREAKPOINT }] }])
        .messages[0]!;
    const count = (messages: AISDKMessage[]) => JSON.stringify(messages).split('"cacheControl"').length - 1;
    for (const [own, expected] of [
      [0, 2],
      [3, 4],
      [4, 4],
    ] as const) {
      const history: Message[] = [
        ...Array.from({ length: own }, (_, index) => marked(`note ${index}`)),
        ...conversation,
      ];
      calls.length = 0;
      await summarizer.summarize({ ...request, conversation: history });
      const messages = calls[0]!['messages'] as AISDKMessage[];
      expect(count(messages)).toBe(expected);
      expect(messages.at(-1)!.providerOptions).toEqual(own === 4 ? undefined : BREAKPOINT);
    }
  });

  it('refuses a reuseConversation that is not an object, or tools that are not a tool set', () => {
    const generateText = async () => ({ text: '', finishReason: 'stop' });
    expect(() => createGenerateTextSummarizer({ generateText, model: 'm', reuseConversation: 'yes' as never })).toThrow(
      /reuseConversation must be an object/,
    );
    let error: unknown;
    try {
      createGenerateTextSummarizer({ generateText, model: 'm', reuseConversation: { tools: 3 as never } });
    } catch (caught) {
      error = caught;
    }
    expect(ContextError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ field: 'reuseConversation.tools' });
  });
});
