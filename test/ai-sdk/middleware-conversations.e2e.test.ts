import type { ModelMessage } from 'ai';
import { ConfigError, type ContextManager, createContextManager, type Message, type PrepareResult } from 'ctxkit';
import { type ConversationStart, createGenerateTextSummarizer, ctxkitMiddleware } from 'ctxkit/ai-sdk';
import { describe, expect, it } from 'vitest';
import { useLoopbackAnthropic } from '../harness/loopback.js';
import { seededLog } from '../harness/tool-outputs.js';
import { majors } from './sdk-majors.js';

// The middleware wired as AI SDK hosts wire it: one wrapped model at module scope, shared by many
// conversations, each call naming its conversation in providerOptions; each conversation gets a
// manager of its own, built from the call's system prompt and tools so both are counted.

const MODEL = 'claude-sonnet-4-6';
const WINDOW = 20_000;
const SYSTEM = 'You are a coding agent. Read the logs you are asked about.';
/** Turns per conversation: in five, each compacts at least twice (in the ten run before, five and nine times). */
const TURNS = 5;

const userTexts = (history: readonly Message[]) =>
  history.flatMap((message) =>
    message.role === 'user' && typeof message.content === 'string' ? [message.content] : [],
  );

describe.each(majors)('ctxkitMiddleware across conversations ($name)', (major) => {
  const { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } = major.ai;
  const loopback = useLoopbackAnthropic({ contextWindow: WINDOW });

  const readLogTool = tool({
    description: 'Reads a log file.',
    inputSchema: jsonSchema<{ file: string }>({
      type: 'object',
      properties: { file: { type: 'string' } },
      required: ['file'],
    }),
    execute: async ({ file }, { toolCallId }) => seededLog(file, toolCallId, { fewest: 40, spread: 1_500 }),
  });

  function sharedModel(maxConversations?: number) {
    const provider = major.createAnthropic({ apiKey: 'test-key', baseURL: `${loopback.server.url}/v1` });
    const summarizer = createGenerateTextSummarizer({ generateText, model: provider(MODEL) });
    const started: ConversationStart[] = [];
    const prepared = new Map<string, { inputs: Message[][]; results: PrepareResult[] }>();
    const managers = new Map<string, ContextManager>();
    const middleware = ctxkitMiddleware({
      createManager: (start) => {
        started.push(start);
        const manager = createContextManager({
          model: MODEL,
          contextWindow: WINDOW,
          summarizer,
          systemPrompt: start.systemPrompt,
          tools: start.tools,
          config: { reserveTokens: 1_024, toolOutput: { maxLines: 300 } },
        });
        const seen = { inputs: [] as Message[][], results: [] as PrepareResult[] };
        prepared.set(start.conversationId, seen);
        const prepare = manager.prepare.bind(manager);
        manager.prepare = async (history, options) => {
          seen.inputs.push([...history]);
          const result = await prepare(history, options);
          seen.results.push(result);
          return result;
        };
        managers.set(start.conversationId, manager);
        return manager;
      },
      ...(maxConversations === undefined ? {} : { maxConversations }),
    });
    return { model: wrapLanguageModel({ model: provider(MODEL), middleware }), started, prepared, managers };
  }

  async function turn(
    model: ReturnType<typeof wrapLanguageModel>,
    messages: ModelMessage[],
    conversationId: string | undefined,
    text: string,
    tools: Record<string, typeof readLogTool> = { read_log: readLogTool },
  ) {
    messages.push({ role: 'user', content: text });
    const result = await generateText({
      model,
      system: SYSTEM,
      tools,
      messages,
      stopWhen: stepCountIs(5),
      maxRetries: 0,
      ...(conversationId === undefined ? {} : { providerOptions: { ctxkit: { conversationId } } }),
    });
    messages.push(...major.responseMessages(result));
  }

  it('keeps one manager per conversation on one shared model, built with the call’s system prompt and tools', async () => {
    const { model, started, prepared } = sharedModel();
    const conversations = { a: [] as ModelMessage[], b: [] as ModelMessage[] };
    const before = loopback.server.stats.summaries;
    for (let index = 0; index < TURNS; index++) {
      await turn(model, conversations.a, 'a', `Conversation a, batch ${index}.`);
      await turn(model, conversations.b, 'b', `Conversation b, batch ${index}.`);
    }
    expect(started.map((start) => start.conversationId)).toEqual(['a', 'b']);
    for (const start of started) {
      expect(start.systemPrompt).toBe(SYSTEM);
      expect(JSON.stringify(start.tools)).toContain('read_log');
    }
    for (const id of ['a', 'b']) {
      const seen = prepared.get(id)!;
      // Each manager sees its own conversation only.
      for (const input of seen.inputs)
        for (const text of userTexts(input))
          expect(text.startsWith('[') || text.includes(`Conversation ${id},`)).toBe(true);
      // Each compacts on its own, more than once (interleaved: one's compaction must not touch the other).
      expect(seen.results.filter((result) => result.compacted !== undefined).length).toBeGreaterThanOrEqual(2);
    }
    expect(loopback.server.stats.rejected).toEqual([]);
    console.info(
      `${major.name}: 2 conversations × ${TURNS} turns on one wrapped model, ${loopback.server.stats.summaries - before} summarizer calls`,
    );
  });

  it('counts the system prompt and the tool definitions from the first call on', async () => {
    const { model, prepared } = sharedModel();
    // Forty tools with long descriptions: their definitions outweigh the first user message by far.
    const tools = Object.fromEntries(
      Array.from({ length: 40 }, (_, index) => [
        index === 0 ? 'read_log' : `tool_${index}`,
        tool({
          description: `Tool ${index}: ${'reads, filters and reports on the project logs in detail. '.repeat(12)}`,
          inputSchema: jsonSchema<{ file: string }>({
            type: 'object',
            properties: { file: { type: 'string', description: 'The file to read, relative to the root.' } },
            required: ['file'],
          }),
          execute: async ({ file }: { file: string }, { toolCallId }: { toolCallId: string }) =>
            seededLog(file, toolCallId, { fewest: 40, spread: 1_500 }),
        }),
      ]),
    ) as Record<string, typeof readLogTool>;
    const before = loopback.server.stats.promptTokens.length;
    await turn(model, [], 'forty-tools', 'Check the logs.', tools);
    const first = prepared.get('forty-tools')!.results[0]!;
    const served = loopback.server.stats.promptTokens[before]!;
    expect(first.usage.source).toBe('estimate');
    // The server counts 30% above ctxkit's estimator; without the tools the estimate was a few tokens.
    expect(first.usage.tokens).toBeGreaterThan(served * 0.6);
    expect(first.usage.tokens).toBeLessThan(served * 1.2);
  });

  it('keeps at most maxConversations managers, the least recently used dropped', async () => {
    const { model, started } = sharedModel(2);
    const messages = { x: [] as ModelMessage[], y: [] as ModelMessage[], z: [] as ModelMessage[] };
    await turn(model, messages.x, 'x', 'Conversation x.');
    await turn(model, messages.y, 'y', 'Conversation y.');
    await turn(model, messages.x, 'x', 'Conversation x again.');
    await turn(model, messages.z, 'z', 'Conversation z.'); // drops y, the least recently used
    await turn(model, messages.x, 'x', 'Conversation x once more.');
    await turn(model, messages.y, 'y', 'Conversation y again.'); // y is built anew
    expect(started.map((start) => start.conversationId)).toEqual(['x', 'y', 'z', 'y']);
  });

  it('refuses a call without a conversation id when it builds managers per conversation', async () => {
    const { model } = sharedModel();
    const error = await turn(model, [], undefined, 'Whose conversation is this?').catch((caught: unknown) => caught);
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).field).toBe('providerOptions.ctxkit.conversationId');
  });

  it('refuses a second conversation on a middleware given one manager, instead of sharing it', async () => {
    const provider = major.createAnthropic({ apiKey: 'test-key', baseURL: `${loopback.server.url}/v1` });
    const manager = createContextManager({
      model: MODEL,
      contextWindow: WINDOW,
      summarizer: createGenerateTextSummarizer({ generateText, model: provider(MODEL) }),
    });
    const model = wrapLanguageModel({ model: provider(MODEL), middleware: ctxkitMiddleware(manager) });
    const first: ModelMessage[] = [];
    await turn(model, first, undefined, 'Conversation one.');
    await turn(model, first, undefined, 'Conversation one, again.');
    const error = await turn(model, [], undefined, 'Conversation two.').catch((caught: unknown) => caught);
    expect(ConfigError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toContain('second conversation');
    const byId = wrapLanguageModel({ model: provider(MODEL), middleware: ctxkitMiddleware(manager) });
    await turn(byId, [], 'one', 'Named.');
    const named = await turn(byId, [{ role: 'user', content: 'Named.' }], 'two', 'Other.').catch(
      (caught: unknown) => caught,
    );
    expect(ConfigError.isInstance(named)).toBe(true);
  });
});
