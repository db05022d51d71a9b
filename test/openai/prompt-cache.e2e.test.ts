// The prompt cache through the real `openai` client against the loopback OpenAI server emulating it:
// automatic caching (GPT-5, by prompt_cache_key) on Chat Completions and explicit breakpoints (GPT-5.6,
// toOpenAIResponses' cacheBreakpoints) on the Responses API. stats().cost must add up to what the
// server reported, and summary calls that reuse the conversation must be read from the cache.

import {
  type AssistantMessage,
  type ContextManager,
  createContextManager,
  getModelPricing,
  type Message,
  type ModelPricing,
  OPENAI_AUTOMATIC_CACHE,
  OPENAI_EXPLICIT_CACHE,
  type ToolCall,
} from 'ctxkit';
import {
  createOpenAISummarizer,
  createToolResultMessage,
  type OpenAIChatTool,
  type OpenAIResponsesTool,
  readOpenAIChatCompletion,
  readOpenAIResponse,
  toOpenAIChat,
  toOpenAIResponses,
} from 'ctxkit/openai';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, type FakeOpenAICacheUsage, startFakeOpenAI } from './fake-openai-server.js';

const SYSTEM = 'You are a careful coding agent. Use the tools to inspect and fix the repository.';
const WINDOW = 60_000;
const KEY = 'session-42';
const functions = [
  { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: {} } },
  { name: 'run_tests', description: 'Run the tests', parameters: { type: 'object', properties: {} } },
];
const CHAT_TOOLS: OpenAIChatTool[] = functions.map((fn) => ({ type: 'function', function: fn }));
const RESPONSES_TOOLS: OpenAIResponsesTool[] = functions.map((fn) => ({ type: 'function', ...fn, strict: false }));
/** GPT-5.6's explicit breakpoints, priced as GPT-5.4 (the table has no GPT-5.6 yet). */
const GPT_5_6: ModelPricing = { input: 2.5, output: 15, cache: OPENAI_EXPLICIT_CACHE };

/** A test run of a few hundred lines, the same for the same call on every run. */
function runTool(call: ToolCall): Message {
  const lines = Array.from({ length: 250 }, (_, line) => `not ok ${line} - ${call.id} case ${line} # expected 1 got 2`);
  return createToolResultMessage({ toolCallId: call.id, toolName: call.name, output: lines.join('\n') });
}

/**
 * The agent's session: 14 turns of up to 4 steps, 8 s apart, each prepared by `manager`, sent with
 * `send`, its usage recorded and its tool calls run, until a step calls no tool.
 * @returns the history at the end.
 */
async function agentLoop(
  manager: ContextManager,
  clock: { now: number },
  send: (messages: Message[]) => Promise<AssistantMessage>,
): Promise<Message[]> {
  let history: Message[] = [];
  for (let turn = 0; turn < 14; turn++) {
    history.push({ role: 'user', content: `Turn ${turn}: fix the next failing parser test.` });
    for (let step = 0; step < 4; step++) {
      clock.now += 8_000;
      const prepared = await manager.prepare(history);
      const message = await send(prepared.messages);
      manager.recordUsage(message.usage!);
      history = [...prepared.history, message];
      const calls = message.content.filter((part): part is ToolCall => part.type === 'toolCall');
      if (calls.length === 0) break;
      for (const call of calls) history.push(runTool(call));
    }
  }
  return history;
}

/** What the manager was told: the reported usage of the conversation's own requests (not summaries). */
function reported(log: readonly FakeOpenAICacheUsage[]) {
  const own = log.filter((entry) => !entry.summary);
  const sum = (pick: (entry: FakeOpenAICacheUsage) => number) => own.reduce((total, entry) => total + pick(entry), 0);
  const read = sum((entry) => entry.cachedTokens);
  const written = sum((entry) => entry.cacheWriteTokens);
  const prompt = sum((entry) => entry.promptTokens);
  return { read, written, uncached: prompt - read - written, prompt };
}

function summaryReads(log: readonly FakeOpenAICacheUsage[]) {
  const summaries = log.filter((entry) => entry.summary);
  const read = summaries.reduce((total, entry) => total + entry.cachedTokens, 0);
  const sent = summaries.reduce((total, entry) => total + entry.promptTokens, 0);
  return { calls: summaries.length, read, share: sent === 0 ? 0 : read / sent };
}

describe('the loopback OpenAI prompt cache through the openai client', () => {
  let server: FakeOpenAI | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function chatSession(options: { reuse: boolean; summaryKey?: string }) {
    const clock = { now: Date.UTC(2026, 0, 1) };
    server = await startFakeOpenAI({
      contextWindow: WINDOW,
      maxOutputTokens: 16_384,
      promptCache: { rules: OPENAI_AUTOMATIC_CACHE, now: () => clock.now },
    });
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
    const summaryKey = options.summaryKey ?? KEY;
    const manager = createContextManager({
      model: 'gpt-5',
      contextWindow: WINDOW,
      summarizer: createOpenAISummarizer({
        client,
        model: 'gpt-5',
        ...(options.reuse
          ? { reuseConversation: { systemPrompt: SYSTEM, tools: CHAT_TOOLS, promptCacheKey: summaryKey } }
          : {}),
      }),
      systemPrompt: SYSTEM,
      tools: CHAT_TOOLS,
      now: () => clock.now,
      config: { reserveTokens: 2_048, toolCallCutoff: 4, toolSummaryBatch: 4 },
    });
    const history = await agentLoop(manager, clock, async (messages) =>
      readOpenAIChatCompletion(
        await client.chat.completions.create({
          model: 'gpt-5',
          tools: CHAT_TOOLS,
          prompt_cache_key: KEY,
          messages: toOpenAIChat({ systemPrompt: SYSTEM, messages }).messages,
        }),
      ),
    );
    return { cost: manager.stats(history).cost, log: server.log };
  }

  it('Chat Completions, automatic cache: stats().cost is what the server reported, priced at GPT-5 rates', async () => {
    const { cost, log } = await chatSession({ reuse: true });
    expect(log.rejected).toEqual([]);
    const sent = reported(log.cache);
    expect(cost.tokens.cacheRead).toBe(sent.read);
    expect(cost.tokens.cacheWrite).toBe(0);
    expect(cost.tokens.uncachedInput).toBe(sent.uncached);
    expect(cost.cacheHitRate).toBeCloseTo(sent.read / sent.prompt, 12);
    expect(cost.cacheHitRate).toBeGreaterThan(0.6);
    // OpenAI reports reads in steps of 128 tokens past the first 1,024.
    for (const entry of log.cache) if (entry.cachedTokens > 0) expect((entry.cachedTokens - 1_024) % 128).toBe(0);
    const pricing = getModelPricing('gpt-5')!;
    const { tokens } = cost;
    expect(cost.dollars!.total).toBeCloseTo(
      (tokens.uncachedInput * pricing.input +
        tokens.cacheRead * pricing.input * pricing.cache.readMultiplier +
        tokens.output * pricing.output) /
        1e6,
      10,
    );
    // Summary calls sent as the conversation continued, under its key, read it from the cache.
    const summaries = summaryReads(log.cache);
    expect(summaries.calls).toBeGreaterThan(0);
    expect(summaries.share).toBeGreaterThan(0.5);
    // A summary that continues the conversation (a continued conversation the server refuses as too
    // long falls back to the rebuilt prompt, which carries no key).
    const first = log.cache.find((entry) => entry.summary && entry.promptCacheKey === KEY)!;
    expect(first.cachedTokens / first.promptTokens).toBeGreaterThan(0.5);
    console.info(
      `chat, automatic: hit rate ${cost.cacheHitRate.toFixed(3)}, $${cost.dollars!.total.toFixed(4)}; ${summaries.calls} summaries read ${(summaries.share * 100).toFixed(0)}%`,
    );
  });

  it('Chat Completions: a rebuilt summary prompt, or one under another prompt_cache_key, reads none of the conversation', async () => {
    const rebuilt = await chatSession({ reuse: false });
    expect(rebuilt.log.rejected).toEqual([]);
    expect(summaryReads(rebuilt.log.cache)).toMatchObject({ read: 0 });
    expect(summaryReads(rebuilt.log.cache).calls).toBeGreaterThan(0);
    await server!.close();
    server = undefined;
    // Under another key the conversation's prefixes are on other machines: the first summary call
    // reads nothing (a later one reads what the first one left under that key).
    const elsewhere = await chatSession({ reuse: true, summaryKey: 'another-session' });
    const first = elsewhere.log.cache.find((entry) => entry.summary && entry.promptCacheKey !== undefined)!;
    expect(first).toMatchObject({ promptCacheKey: 'another-session', cachedTokens: 0 });
  });

  async function responsesSession(options: { breakpoints: boolean; mode?: 'explicit'; summaryBreakpoints?: boolean }) {
    const clock = { now: Date.UTC(2026, 0, 1) };
    server = await startFakeOpenAI({
      contextWindow: WINDOW,
      maxOutputTokens: 16_384,
      promptCache: { rules: OPENAI_EXPLICIT_CACHE, now: () => clock.now },
    });
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
    const manager = createContextManager({
      model: 'gpt-5.6',
      contextWindow: WINDOW,
      pricing: GPT_5_6,
      summarizer: createOpenAISummarizer({
        client,
        model: 'gpt-5.6',
        api: 'responses',
        ...(options.mode ? { parameters: { prompt_cache_options: { mode: options.mode } } } : {}),
        reuseConversation: {
          systemPrompt: SYSTEM,
          tools: RESPONSES_TOOLS,
          promptCacheKey: KEY,
          cacheBreakpoints: options.summaryBreakpoints ?? options.breakpoints,
        },
      }),
      systemPrompt: SYSTEM,
      tools: RESPONSES_TOOLS,
      now: () => clock.now,
      // The loopback counts half as much again as ctxkit's estimate: the manager learns that from
      // the usage it records and counts a step's new tool results (~15k tokens by estimate here,
      // more than 2,048 tokens of headroom absorb) at 1.5× (stats().calibration).
      config: { reserveTokens: 2_048, toolCallCutoff: 4, toolSummaryBatch: 4 },
    });
    const history = await agentLoop(manager, clock, async (messages) =>
      readOpenAIResponse(
        await client.responses.create({
          model: 'gpt-5.6',
          tools: RESPONSES_TOOLS,
          store: false,
          prompt_cache_key: KEY,
          ...(options.mode ? { prompt_cache_options: { mode: options.mode } } : {}),
          input: toOpenAIResponses({ systemPrompt: SYSTEM, messages }, { cacheBreakpoints: options.breakpoints }).items,
        }),
      ),
    );
    const stats = manager.stats(history);
    return { cost: stats.cost, calibration: stats.calibration, log: server.log };
  }

  it('Responses, explicit breakpoints: writes and reads as reported, the writes priced at 1.25×', async () => {
    const { cost, log, calibration } = await responsesSession({ breakpoints: true, mode: 'explicit' });
    expect(log.rejected).toEqual([]);
    // No request of the conversation was over the window (a summary request that continues the
    // conversation may be, and falls back to the rebuilt prompt).
    expect(log.requests.filter((request) => !request.summary && request.promptTokens > WINDOW)).toEqual([]);
    // The loopback's 1.5× (and its framing), learned from the usage recorded.
    expect(calibration.ratio).toBeGreaterThan(1.45);
    expect(calibration.ratio).toBeLessThan(1.6);
    const sent = reported(log.cache);
    expect(sent.written).toBeGreaterThan(0);
    expect(cost.tokens.cacheRead).toBe(sent.read);
    expect(cost.tokens.cacheWrite).toBe(sent.written);
    expect(cost.tokens.uncachedInput).toBe(sent.uncached);
    expect(cost.cacheHitRate).toBeCloseTo(sent.read / sent.prompt, 12);
    expect(cost.cacheHitRate).toBeGreaterThan(0.5);
    const { tokens } = cost;
    expect(cost.dollars!.cacheWrite).toBeCloseTo((tokens.cacheWrite * 2.5 * 1.25) / 1e6, 10);
    expect(cost.dollars!.total).toBeCloseTo(
      (tokens.uncachedInput * 2.5 + tokens.cacheWrite * 3.125 + tokens.cacheRead * 0.25 + tokens.output * 15) / 1e6,
      10,
    );
    const summaries = summaryReads(log.cache);
    expect(summaries.calls).toBeGreaterThan(0);
    expect(summaries.share).toBeGreaterThan(0.5);
    await server!.close();
    server = undefined;
    // The same session with unmarked summary requests: in explicit mode they read nothing.
    const unmarked = await responsesSession({ breakpoints: true, mode: 'explicit', summaryBreakpoints: false });
    expect(summaryReads(unmarked.log.cache)).toMatchObject({ read: 0 });
    expect(summaryReads(unmarked.log.cache).calls).toBeGreaterThan(0);
    console.info(
      `responses, explicit: hit rate ${cost.cacheHitRate.toFixed(3)}, writes ${tokens.cacheWrite}, $${cost.dollars!.total.toFixed(4)}; ${summaries.calls} summaries read ${(summaries.share * 100).toFixed(0)}%`,
    );
  });

  it('Responses: a rebuilt summary prompt (a text input) is answered, not refused', async () => {
    server = await startFakeOpenAI({ contextWindow: WINDOW, maxOutputTokens: 16_384 });
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
    const summarizer = createOpenAISummarizer({
      client,
      model: 'gpt-5.6',
      api: 'responses',
      reuseConversation: { systemPrompt: SYSTEM, tools: RESPONSES_TOOLS, promptCacheKey: KEY },
    });
    const call: ToolCall = { type: 'toolCall', id: 'call_1', name: 'run_tests', arguments: {} };
    const output = await summarizer.summarize({
      kind: 'tool_results',
      messages: [{ role: 'assistant', content: [call] }, runTool(call)],
      text: 'run_tests: 250 failing cases',
      maxOutputTokens: 1_024,
    });
    expect(server.log.rejected).toEqual([]);
    expect(server.log.requests).toMatchObject([{ endpoint: 'responses', summary: true }]);
    expect(typeof output === 'string' ? output : output.text).toContain('## Goal');
  });

  it("Responses, prompt_cache_options.mode 'explicit' without breakpoints: nothing cached; implicit mode caches", async () => {
    const unmarked = await responsesSession({ breakpoints: false, mode: 'explicit' });
    expect(unmarked.log.rejected).toEqual([]);
    expect(unmarked.cost.tokens.cacheRead + unmarked.cost.tokens.cacheWrite).toBe(0);
    await server!.close();
    server = undefined;
    const implicit = await responsesSession({ breakpoints: false });
    expect(implicit.cost.cacheHitRate).toBeGreaterThan(0.5);
    expect(implicit.cost.tokens.cacheWrite).toBeGreaterThan(0);
  });
});
