import { describe, expect, it } from 'vitest';
import { fromAnthropicMessage } from '../../src/anthropic/index.js';
import {
  type ContextEvent,
  createContextManager,
  createInMemorySessionStore,
  heuristicSummarizer,
  type Message,
  type ModelTarget,
  NATIVE_PAYLOAD_LIMIT,
  nativeCompaction,
  type Summarizer,
} from '../../src/index.js';
import { fromOpenAIResponse } from '../../src/openai/index.js';

const ANTHROPIC: ModelTarget = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-6' };
const OPENAI: ModelTarget = { provider: 'openai', api: 'openai-responses', model: 'gpt-5' };

function counting(): Summarizer & { calls: number } {
  const summarizer = {
    calls: 0,
    summarize(request: Parameters<Summarizer['summarize']>[0]) {
      summarizer.calls++;
      return heuristicSummarizer.summarize(request);
    },
  };
  return summarizer;
}

function openaiTurn(encrypted = 'gAAAAopaque.mac'): Message {
  return fromOpenAIResponse({
    id: 'resp_9',
    object: 'response',
    created_at: 1,
    status: 'completed',
    model: OPENAI.model,
    output: [
      { id: 'cmp_9', type: 'compaction', encrypted_content: encrypted },
      {
        id: 'msg_9',
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Done with the parser.', annotations: [] }],
      },
    ],
    usage: { input_tokens: 9_000, output_tokens: 20, total_tokens: 9_020 },
  } as never).message;
}

function anthropicTurn(): Message {
  return fromAnthropicMessage({
    id: 'msg_9',
    type: 'message',
    role: 'assistant',
    model: ANTHROPIC.model,
    content: [
      { type: 'compaction', content: '## Goal\n- keep FACT-1', encrypted_content: 'Eqsigned.mac' },
      { type: 'text', text: 'Done with the parser.' },
    ],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 300, output_tokens: 20 },
  } as never).message;
}

/** A conversation of `turns` user/assistant pairs that state facts. */
function older(turns: number): Message[] {
  const list: Message[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    list.push({ role: 'user', content: `Turn ${turn}: remember FACT-${turn} and fix case ${turn}.` });
    list.push({ role: 'assistant', content: [{ type: 'text', text: `Fixed case ${turn}.` }] });
  }
  return list;
}

async function setup(compaction: 'client' | 'native' | 'auto', summarizer = counting()) {
  const store = createInMemorySessionStore();
  const { id: sessionId } = await store.createSession();
  const events: ContextEvent[] = [];
  const manager = createContextManager({
    contextWindow: 200_000,
    summarizer,
    store,
    sessionId,
    compaction: compaction === 'client' ? 'client' : nativeCompaction(compaction),
    onEvent: (event) => events.push(event),
  });
  const history: Message[] = [];
  const add = async (...messages: Message[]) => {
    for (const message of messages) {
      history.push(message);
      await store.appendEntry(sessionId, { type: 'message', message });
    }
  };
  return { manager, store, sessionId, events, history, add, summarizer };
}

describe('compaction strategies', () => {
  it("'client' (the default) leaves a provider's compaction alone and asks for none", async () => {
    const { manager, history, add } = await setup('client');
    await add(...older(3), openaiTurn());
    const prepared = await manager.prepare(history, { target: OPENAI });
    expect(prepared.history).toHaveLength(7);
    expect(manager.nativeCompaction(OPENAI)).toBeUndefined();
    expect(manager.stats(prepared.history).nativeCompactions).toEqual([]);
  });

  it("'auto' asks for native compaction only where the model has it, below ctxkit's own trigger", async () => {
    const { manager } = await setup('auto');
    const limit = 200_000 - 16_384;
    expect(manager.nativeCompaction(OPENAI)).toEqual({ threshold: Math.floor(limit * 0.9) });
    expect(manager.nativeCompaction(ANTHROPIC)!.threshold).toBeLessThan(limit);
    expect(manager.nativeCompaction({ ...OPENAI, model: 'gpt-4o' })).toBeUndefined();
    expect(manager.nativeCompaction({ ...OPENAI, api: 'openai-chat' })).toBeUndefined();
  });

  it("'native' asks any model of a native API, and Anthropic never below its 50,000 minimum", async () => {
    const manager = createContextManager({
      contextWindow: 40_000,
      summarizer: heuristicSummarizer,
      compaction: nativeCompaction('native'),
    });
    expect(manager.nativeCompaction({ ...OPENAI, model: 'gpt-4o' })).toBeDefined();
    expect(manager.nativeCompaction(ANTHROPIC)).toEqual({ threshold: 50_000 });
  });

  it('nativeCompaction takes its own table under auto, and bad values fail naming the field and the call', () => {
    const manager = createContextManager({
      contextWindow: 200_000,
      summarizer: heuristicSummarizer,
      compaction: nativeCompaction('auto', { supports: (target) => target.model === 'gpt-4o' }),
    });
    expect(manager.nativeCompaction({ ...OPENAI, model: 'gpt-4o' })).toBeDefined();
    expect(manager.nativeCompaction(OPENAI)).toBeUndefined();
    for (const compaction of ['native', 'auto', 'server', { mode: 'native' }]) {
      const create = () =>
        createContextManager({ contextWindow: 200_000, summarizer: heuristicSummarizer, compaction } as never);
      expect(create).toThrow(expect.objectContaining({ name: 'ConfigError', field: 'compaction' }));
      expect(create).toThrow(/nativeCompaction\(/);
    }
    expect(() => createContextManager({ contextWindow: 200_000, summarizer: heuristicSummarizer })).not.toThrow();
    expect(() => nativeCompaction('server' as never)).toThrow(expect.objectContaining({ field: 'mode' }));
    expect(() => nativeCompaction('auto', { supports: true as never })).toThrow(/supports must be a function/);
  });
});

describe("'native': taking in a provider's compaction", () => {
  it('starts the history from its summary, records the payload in the store, and reports it', async () => {
    const { manager, store, sessionId, events, history, add } = await setup('native');
    await add(...older(3), openaiTurn());
    const prepared = await manager.prepare(history, { target: OPENAI });
    expect(prepared.history[0]!.meta?.native?.payload).toMatchObject({ type: 'compaction', id: 'cmp_9' });
    expect(prepared.history[1]).toMatchObject({
      role: 'assistant',
      content: [{ type: 'text', text: 'Done with the parser.' }],
    });
    // Sent to its maker: the item itself, and nothing from before it.
    expect(JSON.stringify(prepared.messages)).toContain('gAAAAopaque.mac');
    expect(JSON.stringify(prepared.messages)).not.toContain('FACT-1');
    const entries = await store.getEntries(sessionId);
    const compaction = entries.find((entry) => entry.type === 'compaction');
    expect(compaction).toMatchObject({ type: 'compaction', native: { provider: 'openai', model: 'gpt-5' } });
    expect(events.some((event) => event.type === 'native-compaction' && event.action === 'adopted')).toBe(true);
    expect(manager.stats(prepared.history).nativeCompactions).toMatchObject([
      { provider: 'openai', state: 'native', summary: undefined, summarizerCalls: 0 },
    ]);
  });

  it("writes OpenAI's portable summary once, only when the session leaves OpenAI", async () => {
    const { manager, store, sessionId, history, add, summarizer } = await setup('native');
    await add(...older(4), openaiTurn());
    await manager.prepare(history, { target: OPENAI });
    expect(summarizer.calls).toBe(0);
    const moved = await manager.prepare(history, { target: ANTHROPIC });
    expect(summarizer.calls).toBe(1);
    expect(JSON.stringify(moved.messages)).not.toContain('gAAAA');
    expect(String(moved.messages[0]!.content)).toContain('FACT-2');
    await manager.prepare(moved.history, { target: ANTHROPIC });
    await manager.prepare(moved.history, { target: OPENAI });
    expect(summarizer.calls).toBe(1);
    const compactions = (await store.getEntries(sessionId)).filter((entry) => entry.type === 'compaction');
    expect(compactions).toHaveLength(2);
    expect(compactions[1]).toMatchObject({ native: { summary: expect.stringContaining('FACT-2') } });
  });

  it("costs no summarizer call to move Anthropic's readable compaction", async () => {
    const { manager, history, add, summarizer } = await setup('native');
    await add(...older(2), anthropicTurn());
    const moved = await manager.prepare(history, { target: OPENAI });
    expect(summarizer.calls).toBe(0);
    expect(String(moved.messages[0]!.content)).toContain('keep FACT-1');
    const back = await manager.prepare(moved.history, { target: ANTHROPIC });
    expect(back.messages[0]).toMatchObject({
      role: 'assistant',
      content: [{ providerData: { anthropic: { block: { type: 'compaction' } } } }],
    });
  });

  it("adds the provider's compaction step to stats().cost once, when it takes the compaction in", async () => {
    const { manager, history, add } = await setup('native');
    const turn = fromAnthropicMessage({
      id: 'msg_c',
      type: 'message',
      role: 'assistant',
      model: ANTHROPIC.model,
      content: [
        { type: 'compaction', content: '## Goal\n- keep FACT-1', encrypted_content: 'Eqsigned.mac' },
        { type: 'text', text: 'Done.' },
      ],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: 300,
        output_tokens: 20,
        iterations: [
          { type: 'compaction', input_tokens: 90_000, output_tokens: 1_200 },
          { type: 'message', input_tokens: 300, output_tokens: 20 },
        ],
      },
    } as never).message;
    await add(...older(2), turn);
    manager.recordUsage(turn.usage!);
    expect(manager.stats(history).cost.tokens.total).toBe(320);
    const prepared = await manager.prepare(history, { target: ANTHROPIC });
    const cost = manager.stats(prepared.history).cost;
    expect(cost.tokens.total).toBe(320 + 91_200);
    expect(cost.calls).toBe(1);
    await manager.prepare(prepared.history, { target: ANTHROPIC });
    expect(manager.stats(prepared.history).cost.tokens.total).toBe(320 + 91_200);
  });

  it('on a refused payload, splices in the portable summary and retries once', async () => {
    const { manager, store, sessionId, history, add, events } = await setup('native');
    await add(...older(3), openaiTurn(), { role: 'user', content: 'go on' });
    const sent: string[] = [];
    const run = await manager.runWithOverflowRecovery(
      history,
      async (messages) => {
        const text = JSON.stringify(messages);
        sent.push(text);
        if (text.includes('gAAAA')) {
          throw Object.assign(new Error('400 The encrypted content gAAA...mac could not be verified.'), {
            status: 400,
            code: 'invalid_encrypted_content',
          });
        }
        return 'answer';
      },
      { target: OPENAI },
    );
    expect(run.result).toBe('answer');
    expect(sent).toHaveLength(2);
    expect(sent[1]).toContain('FACT-1');
    expect(run.history[0]!.meta?.native).toBeUndefined();
    // The next call sends no payload either.
    const next = await manager.prepare(run.history, { target: OPENAI });
    expect(JSON.stringify(next.messages)).not.toContain('gAAAA');
    const latest = (await store.getEntries(sessionId)).filter((entry) => entry.type === 'compaction').at(-1);
    expect(latest).toMatchObject({ details: { reason: 'native-refused' } });
    expect(latest).not.toHaveProperty('native');
    expect(events.some((event) => event.type === 'native-compaction' && event.action === 'refused')).toBe(true);
  });

  it('keeps a payload past NATIVE_PAYLOAD_LIMIT out of the store and sends its portable summary', async () => {
    const { manager, store, sessionId, history, add } = await setup('native');
    await add(...older(3), openaiTurn(`gAAAA${'x'.repeat(NATIVE_PAYLOAD_LIMIT)}`));
    const prepared = await manager.prepare(history, { target: OPENAI });
    const [compaction] = (await store.getEntries(sessionId)).filter((entry) => entry.type === 'compaction');
    expect(compaction).toMatchObject({ native: { payload: { type: 'compaction' }, omitted: expect.any(Number) } });
    expect(JSON.stringify(compaction).length).toBeLessThan(2_000);
    expect(manager.stats(prepared.history).nativeCompactions[0]!.state).toBe('portable');
    // Not even its maker gets the payload; it gets the portable summary, written for it.
    expect(JSON.stringify(prepared.messages)).not.toContain('xxxx');
    expect(String(prepared.messages[0]!.content)).toContain('FACT-1');
  });
});
