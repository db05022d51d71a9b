// OpenAI's standalone compaction (`POST /responses/compact`) through the real `openai` clients (7
// and 6) against the loopback server: `readOpenAICompaction` turns the compacted response into the
// turn the manager takes in; the endpoint's output (the user messages, then the item) goes back
// verbatim to its model, so a user's instruction given before the compaction is still honoured; its
// usage is reported apart, the store records it, and the session still moves (portable summary) and
// survives a rotated key.

import {
  type ContextEvent,
  createContextManager,
  createInMemorySessionStore,
  heuristicSummarizer,
  type Message,
  nativeCompaction,
  nativeCompactionOf,
  type Summarizer,
} from 'ctxkit';
import {
  type OpenAICompactedResponse,
  openaiCompactionParams,
  readOpenAICompaction,
  readOpenAIResponse,
  toOpenAIResponses,
} from 'ctxkit/openai';
import OpenAI from 'openai';
import type { CompactedResponse } from 'openai/resources/responses/responses';
import OpenAIV6 from 'openai-v6';
import type { CompactedResponse as CompactedResponseV6 } from 'openai-v6/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../openai/fake-openai-server.js';
import { ANTHROPIC, fact, OPENAI } from './native-session.js';

const TOOLS = [
  { type: 'function' as const, name: 'read_file', parameters: { type: 'object', properties: {} }, strict: false },
];

let server: FakeOpenAI;
beforeAll(async () => {
  server = await startFakeOpenAI({ contextWindow: 200_000, maxOutputTokens: 16_384, toolCallsPerTurn: 1 });
});
afterAll(() => server.close());

async function session() {
  const store = createInMemorySessionStore();
  const { id: sessionId } = await store.createSession();
  const events: ContextEvent[] = [];
  const calls = { count: 0 };
  const summarizer: Summarizer = {
    summarize(request) {
      calls.count++;
      return heuristicSummarizer.summarize(request);
    },
  };
  const manager = createContextManager({
    contextWindow: 200_000,
    summarizer,
    store,
    sessionId,
    compaction: nativeCompaction('native'),
    onEvent: (event) => events.push(event),
  });
  const history: Message[] = [];
  const add = async (message: Message) => {
    history.push(message);
    await store.appendEntry(sessionId, { type: 'message', message });
  };
  return { store, sessionId, events, calls, manager, history, add };
}

/**
 * A few scripted turns through the real client: each states a fact; the model reads a file, then
 * answers. With `inline`, each request asks for `context_management` compaction past that many
 * tokens. Returns the model's answers (its text replies).
 */
async function converse(
  client: OpenAI,
  run: Awaited<ReturnType<typeof session>>,
  from: number,
  to: number,
  inline?: number,
): Promise<string[]> {
  const answers: string[] = [];
  for (let turn = from; turn <= to; turn++) {
    await run.add({ role: 'user', content: `Turn ${turn}: note ${fact(turn)}, then fix the next case.` });
    for (let step = 0; step < 4; step++) {
      const prepared = await run.manager.prepare(run.history, { target: OPENAI });
      const answer = readOpenAIResponse(
        await client.responses.create({
          model: OPENAI.model,
          input: toOpenAIResponses({ messages: prepared.messages }).items as never,
          tools: TOOLS,
          store: false,
          ...(inline === undefined ? {} : openaiCompactionParams({ threshold: inline })),
        }),
      );
      run.history.splice(0, run.history.length, ...prepared.history);
      await run.add(answer);
      const call = answer.content.find((part) => part.type === 'toolCall');
      if (call === undefined) {
        answers.push(answer.content.map((part) => (part.type === 'text' ? part.text : '')).join(''));
        break;
      }
      await run.add({
        role: 'toolResult',
        toolCallId: call.id,
        toolName: call.name,
        content: [{ type: 'text', text: `contents of case ${turn}` }],
      });
    }
  }
  return answers;
}

describe('POST /responses/compact through the real openai client', () => {
  test('the compacted response becomes a native compaction: item verbatim, usage apart, stored, sent only to its model', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
    const run = await session();
    await converse(client, run, 1, 3);
    const prepared = await run.manager.prepare(run.history, { target: OPENAI });
    const compacted = await client.responses.compact({
      model: OPENAI.model,
      input: toOpenAIResponses({ messages: prepared.messages }).items as never,
    });
    expectTypeOf(compacted).toExtend<CompactedResponse>();
    expectTypeOf<CompactedResponse>().toExtend<OpenAICompactedResponse>();
    const item = compacted.output.find((entry) => entry.type === 'compaction')!;
    // The compacted window: every user message of the input, then the item.
    const users = compacted.output.slice(0, -1);
    expect(users.map((entry) => entry.type === 'message' && entry.role)).toEqual(['user', 'user', 'user']);
    expect(compacted.output.at(-1)).toBe(item);
    const turn = readOpenAICompaction(compacted, { model: OPENAI.model });
    expect(nativeCompactionOf(turn)).toEqual({
      provider: 'openai',
      api: 'openai-responses',
      model: OPENAI.model,
      payload: item,
      leading: users,
      usage: { input: compacted.usage.input_tokens, output: compacted.usage.output_tokens },
    });
    // The pass is billed, but it is not the context: nothing in input or output.
    expect(turn.usage).toMatchObject({ input: 0, output: 0 });
    await run.add(turn);

    const spentBefore = run.manager.stats(run.history).cost.tokens.total;
    const next = await run.manager.prepare(run.history, { target: OPENAI });
    expect(next.history[0]!.meta?.native?.payload).toEqual(item);
    // The pass's tokens join the cost once, when it is taken in (not as a call of the model).
    const cost = run.manager.stats(next.history).cost;
    expect(cost.tokens.total - spentBefore).toBe(compacted.usage.input_tokens + compacted.usage.output_tokens);
    await run.manager.prepare(next.history, { target: OPENAI });
    expect(run.manager.stats(next.history).cost.tokens.total).toBe(cost.tokens.total);
    expect(run.manager.stats(next.history).nativeCompactions).toMatchObject([
      { provider: 'openai', model: OPENAI.model, usage: { input: compacted.usage.input_tokens }, state: 'native' },
    ]);
    const entries = await run.store.getEntries(run.sessionId);
    const entry = entries.find((candidate) => candidate.type === 'compaction');
    expect(entry).toMatchObject({ native: { payload: item, leading: users } });
    // Sent back to its model as the endpoint returned it: the user messages, then the item.
    const items = toOpenAIResponses({ messages: next.messages }).items;
    expect(items).toEqual(compacted.output);
    for (const turnNumber of [1, 2, 3]) expect(JSON.stringify(items)).toContain(fact(turnNumber));
    run.history.splice(0, run.history.length, ...next.history);
    await converse(client, run, 4, 4);
    expect(server.log.rejected).toEqual([]);
    expect(run.calls.count).toBe(0);

    // Leaving OpenAI: its portable summary is written once, and holds the facts of the compacted span.
    const away = await run.manager.prepare(run.history, { target: ANTHROPIC });
    expect(run.calls.count).toBe(1);
    expect(JSON.stringify(away.messages)).not.toContain(String(item.type === 'compaction' && item.encrypted_content));
    for (const turnNumber of [1, 2, 3]) expect(String(away.messages[0]!.content)).toContain(fact(turnNumber));
  });

  test('a user instruction given before the compaction is still honoured after it', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
    const run = await session();
    await run.add({ role: 'user', content: 'Sign every answer with "OVER-AND-OUT".' });
    const before = await converse(client, run, 1, 3);
    expect(before).toHaveLength(3);
    for (const answer of before) expect(answer).toMatch(/OVER-AND-OUT$/);

    const prepared = await run.manager.prepare(run.history, { target: OPENAI });
    const compacted = await client.responses.compact({
      model: OPENAI.model,
      input: toOpenAIResponses({ messages: prepared.messages }).items as never,
    });
    // The compacted window: the four user messages, then the item that stands for the rest.
    expect(compacted.output.map((item) => item.type)).toEqual([
      'message',
      'message',
      'message',
      'message',
      'compaction',
    ]);
    await run.add(readOpenAICompaction(compacted, { model: OPENAI.model }));

    const next = await run.manager.prepare(run.history, { target: OPENAI });
    run.history.splice(0, run.history.length, ...next.history);

    // The model reads the instruction and keeps honouring it, through a second compaction too.
    const after = await converse(client, run, 4, 5);
    expect(after).toHaveLength(2);
    for (const answer of after) expect(answer).toMatch(/OVER-AND-OUT$/);
    // What its model is sent: the endpoint's output whole, verbatim and in order.
    const items = toOpenAIResponses({ messages: next.messages }).items;
    expect(JSON.stringify(items)).toBe(JSON.stringify(compacted.output));
    expect(run.manager.stats(next.history).nativeCompactions).toHaveLength(1);

    const again = await client.responses.compact({
      model: OPENAI.model,
      input: toOpenAIResponses({ messages: (await run.manager.prepare(run.history, { target: OPENAI })).messages })
        .items as never,
    });
    // Every user message so far is in the second window, the instruction first.
    expect(again.output.filter((item) => item.type === 'message')).toHaveLength(6);
    await run.add(readOpenAICompaction(again, { model: OPENAI.model }));
    after.push(...(await converse(client, run, 6, 6)));
    expect(after).toHaveLength(3);
    for (const answer of after) expect(answer).toMatch(/OVER-AND-OUT$/);
    expect(run.manager.stats(run.history).nativeCompactions).toHaveLength(2);
    expect(server.log.rejected).toEqual([]);

    // Another model gets the portable summary, which holds the instruction.
    const away = await run.manager.prepare(run.history, { target: ANTHROPIC });
    expect(String(away.messages[0]!.content)).toContain('OVER-AND-OUT');
  });

  test("inline (context_management) compaction is unchanged: its item stands for everything, the user's messages included", async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
    const run = await session();
    await run.add({ role: 'user', content: 'Sign every answer with "OVER-AND-OUT".' });
    const compactionsBefore = server.native.compactions;
    const answers = await converse(client, run, 1, 4, 200);
    expect(server.native.compactions).toBeGreaterThan(compactionsBefore);
    const reports = run.manager.stats(run.history).nativeCompactions;
    expect(reports.length).toBeGreaterThan(0);
    // Its model is sent the latest item first (nothing it stands for), then what followed it.
    const next = await run.manager.prepare(run.history, { target: OPENAI });
    const items = toOpenAIResponses({ messages: next.messages }).items;
    expect(items[0]).toMatchObject({ type: 'compaction' });
    expect(JSON.stringify(items)).not.toContain('Sign every answer');
    expect(run.history[0]!.meta?.native?.leading).toBeUndefined();
    // The model still honours the instruction: the item carries it.
    for (const answer of answers) expect(answer).toMatch(/OVER-AND-OUT$/);
    expect(server.log.rejected).toEqual([]);
  });

  test('a rotated key: the refused item is replaced by its portable summary and the call retried once', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
    const run = await session();
    await converse(client, run, 1, 2);
    const compacted = await client.responses.compact({
      model: OPENAI.model,
      input: toOpenAIResponses({ messages: (await run.manager.prepare(run.history)).messages }).items as never,
    });
    await run.add(readOpenAICompaction(compacted, { model: OPENAI.model }));
    await run.add({ role: 'user', content: 'Go on.' });
    const refusedBefore = server.native.refused;
    server.native.rotateKey();
    let requests = 0;
    const result = await run.manager.runWithOverflowRecovery(
      run.history,
      async (messages) => {
        requests++;
        return readOpenAIResponse(
          await client.responses.create({
            model: OPENAI.model,
            input: toOpenAIResponses({ messages }).items as never,
            tools: TOOLS,
            store: false,
          }),
        );
      },
      { target: OPENAI },
    );
    expect(requests).toBe(2);
    expect(server.native.refused).toBe(refusedBefore + 1);
    expect(result.result.stopReason).not.toBe('error');
    expect(run.events.some((event) => event.type === 'native-compaction' && event.action === 'refused')).toBe(true);
  });

  test("compacted right after the user's request: the portable summary holds that request too", async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
    const run = await session();
    await converse(client, run, 1, 2);
    await run.add({ role: 'user', content: `Turn 3: note ${fact(3)}, then fix the next case.` });
    const compacted = await client.responses.compact({
      model: OPENAI.model,
      input: toOpenAIResponses({ messages: (await run.manager.prepare(run.history)).messages }).items as never,
    });
    await run.add(readOpenAICompaction(compacted, { model: OPENAI.model }));
    const away = await run.manager.prepare(run.history, { target: ANTHROPIC });
    for (const turn of [1, 2, 3]) expect(String(away.messages[0]!.content)).toContain(fact(turn));
    expect(String(away.messages[0]!.content)).not.toContain('end of the compacted span');
  });

  test('openai 6: the same response type and endpoint', async () => {
    const client = new OpenAIV6({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
    const compacted = await client.responses.compact({
      model: OPENAI.model,
      input: [{ role: 'user', content: `note ${fact(9)}` }],
    });
    expectTypeOf(compacted).toExtend<CompactedResponseV6>();
    expectTypeOf<CompactedResponseV6>().toExtend<OpenAICompactedResponse>();
    const turn = readOpenAICompaction(compacted, { model: OPENAI.model, provider: 'azure-openai' });
    expect(nativeCompactionOf(turn)).toMatchObject({ provider: 'azure-openai', payload: { type: 'compaction' } });
    // The loopback requires a model, as the API does.
    await expect(client.responses.compact({ model: '' as never })).rejects.toMatchObject({ status: 400 });
  });
});

describe('readOpenAICompaction refuses what it cannot record', () => {
  const response = {
    id: 'resp_cmp',
    object: 'response.compaction',
    created_at: 1,
    output: [{ id: 'cmp_1', type: 'compaction', encrypted_content: 'gAAAAx.y' }],
    usage: { input_tokens: 10, output_tokens: 2, total_tokens: 12 },
  };

  test('names options.model when the model is missing', () => {
    expect(() => readOpenAICompaction(response, undefined as never)).toThrow(/options/);
    expect(() => readOpenAICompaction(response, {} as never)).toThrow(/options\.model/);
  });

  test('names response.output when there is no compaction item, or two', () => {
    expect(() => readOpenAICompaction({ ...response, output: [] }, { model: 'gpt-5' })).toThrow(
      /response\.output holds no compaction item/,
    );
    expect(() =>
      readOpenAICompaction({ ...response, output: [...response.output, ...response.output] }, { model: 'gpt-5' }),
    ).toThrow(/response\.output\[1\] is a second compaction item/);
    expect(() => readOpenAICompaction({ ...response, output: [{ type: 'compaction' }] }, { model: 'gpt-5' })).toThrow(
      /encrypted_content/,
    );
  });

  test('keeps every item before the compaction item, warns of one after it, and keeps cached tokens apart', () => {
    const warnings: unknown[] = [];
    const turn = readOpenAICompaction(
      {
        ...response,
        output: [{ type: 'reasoning' }, ...response.output, { type: 'message', role: 'user', content: 'late' }],
        usage: { input_tokens: 10, output_tokens: 2, input_tokens_details: { cached_tokens: 4 } },
      },
      { model: 'gpt-5', onWarning: (warning) => warnings.push(warning) },
    );
    expect(warnings).toEqual([{ index: 2, message: expect.stringContaining('after the compaction item') }]);
    expect(nativeCompactionOf(turn)).toMatchObject({ payload: response.output[0], leading: [{ type: 'reasoning' }] });
    expect(turn.usage?.compaction).toEqual({ input: 6, output: 2, cacheRead: 4 });
  });
});
