// The facts of a span a provider compacted natively survive the provider's own summary, whatever
// format it wrote it in: ctxkit pins them beside a readable summary (Anthropic's `content`) and
// carries them as anchors to the next compaction, native or ctxkit's.

import { fc, test } from '@fast-check/vitest';
import {
  buildContextFromBranch,
  createContextManager,
  createInMemorySessionStore,
  effectiveTokenLimit,
  heuristicSummarizer,
  type Message,
  type ModelTarget,
  nativeCompaction,
  resolveConfig,
} from 'ctxkit';
import { fromAnthropicMessage } from 'ctxkit/anthropic';
import { fromOpenAIResponse } from 'ctxkit/openai';
import { describe, expect, it } from 'vitest';

const ANTHROPIC: ModelTarget = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-6' };
const OPENAI: ModelTarget = { provider: 'openai', api: 'openai-responses', model: 'gpt-5' };

/** A provider summary in its own format that kept only the first request. */
const FOREIGN = '## Compacted conversation\n- user asked to fix the parser (FACT-1)';

function anthropicTurn(content = FOREIGN): Message {
  return fromAnthropicMessage({
    id: 'msg_a',
    type: 'message',
    role: 'assistant',
    model: ANTHROPIC.model,
    content: [
      { type: 'compaction', content, encrypted_content: 'Eqsigned.mac' },
      { type: 'text', text: 'Carrying on.' },
    ],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 300, output_tokens: 20 },
  } as never).message;
}

function openaiTurn(id = 'o'): Message {
  return fromOpenAIResponse({
    id: `resp_${id}`,
    object: 'response',
    created_at: 1,
    status: 'completed',
    model: OPENAI.model,
    output: [
      { id: `cmp_${id}`, type: 'compaction', encrypted_content: `gAAAA${id}.mac` },
      {
        id: 'msg_o',
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Carrying on.', annotations: [] }],
      },
    ],
    usage: { input_tokens: 9_000, output_tokens: 20, total_tokens: 9_020 },
  } as never).message;
}

const request = (turn: number) => `Turn ${turn}: note FACT-${turn}=v${turn * 7}, then fix case ${turn}.`;

function turns(from: number, to: number): Message[] {
  const list: Message[] = [];
  for (let turn = from; turn <= to; turn++) {
    list.push({ role: 'user', content: request(turn) });
    list.push({ role: 'assistant', content: [{ type: 'text', text: `Fixed case ${turn}.` }] });
  }
  return list;
}

async function setup(contextWindow = 200_000) {
  const store = createInMemorySessionStore();
  const { id: sessionId } = await store.createSession();
  const manager = createContextManager({
    contextWindow,
    summarizer: heuristicSummarizer,
    store,
    sessionId,
    compaction: nativeCompaction('native'),
  });
  const history: Message[] = [];
  const add = async (...messages: Message[]) => {
    for (const message of messages) {
      history.push(message);
      await store.appendEntry(sessionId, { type: 'message', message });
    }
  };
  return { manager, store, sessionId, history, add };
}

const textOf = (message: Message | undefined) => String(message?.content);

describe("facts a provider's summary lost", () => {
  it("are pinned beside its readable summary, kept in the store, and carried into the next provider's", async () => {
    const { manager, store, sessionId, history, add } = await setup();
    await add(...turns(1, 12), anthropicTurn());
    const moved = await manager.prepare(history, { target: OPENAI });
    const portable = textOf(moved.messages[0]);
    // The provider's own text first, then what it lost.
    expect(portable).toContain(FOREIGN);
    for (let turn = 1; turn <= 12; turn++) expect(portable).toContain(request(turn));
    // The maker still gets its block verbatim, not the pinned text.
    const back = await manager.prepare(moved.history, { target: ANTHROPIC });
    expect(back.messages[0]).toMatchObject({
      role: 'assistant',
      content: [{ providerData: { anthropic: { block: { content: FOREIGN } } } }],
    });
    // A process that starts from the store gets the same summary and its anchors.
    const rebuilt = buildContextFromBranch(await store.getBranch(sessionId)).messages[0];
    expect(textOf(rebuilt)).toBe(textOf(moved.history[0]));
    expect(rebuilt?.meta?.anchors?.length).toBeGreaterThan(0);

    // Then OpenAI compacts the whole of it into an opaque item; leaving OpenAI writes its portable
    // summary, which updates the foreign-format summary and still holds every fact.
    const next = [...moved.history, ...turns(13, 16), openaiTurn()];
    for (const message of next.slice(moved.history.length))
      await store.appendEntry(sessionId, { type: 'message', message });
    const away = await manager.prepare(next, { target: ANTHROPIC });
    const second = textOf(away.messages[0]);
    for (let turn = 1; turn <= 16; turn++) expect(second).toContain(request(turn));
  });

  it("OpenAI compacting twice: the second item's portable summary holds the first item's span", async () => {
    const { manager, add, history } = await setup();
    await add(...turns(1, 3), openaiTurn('first'));
    let current = [...(await manager.prepare(history, { target: OPENAI })).history];
    const more = [...turns(4, 5), openaiTurn('second')];
    current = [...current, ...more];
    for (const message of more) await add(message);
    current = [...(await manager.prepare(current, { target: OPENAI })).history];
    const away = await manager.prepare(current, { target: ANTHROPIC });
    const portable = textOf(away.messages[0]);
    for (let turn = 1; turn <= 5; turn++) expect(portable).toContain(request(turn));
    expect(portable).not.toContain('not written yet');
  });

  it('takes at most a quarter of the token limit beyond the provider text, however long the span', async () => {
    const contextWindow = 40_000;
    const { manager, history, add } = await setup(contextWindow);
    await add(...turns(1, 600), anthropicTurn());
    const moved = await manager.prepare(history, { target: OPENAI });
    const limit = effectiveTokenLimit(resolveConfig({ contextWindow }))!;
    const portable = textOf(moved.history[0]);
    expect(portable).toContain(FOREIGN);
    // The first request is required: it is pinned whatever else has to go.
    expect(portable).toContain(request(1));
    expect(portable).not.toContain(request(2));
    expect(portable.length).toBeLessThanOrEqual(
      '[Previous conversation summary]\n'.length + FOREIGN.length + Math.floor(limit * 0.25) * 4,
    );
  });

  test.prop([fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 40 })], { numRuns: 15 })(
    'every request of the replaced span is readable by the next model, however much the provider kept',
    async (count, keptByProvider) => {
      const { manager, history, add } = await setup();
      const kept = Math.min(count, keptByProvider);
      const content = ['## Summary', ...Array.from({ length: kept }, (_, index) => `- ${request(index + 1)}`)].join(
        '\n',
      );
      await add(...turns(1, count), anthropicTurn(content));
      const moved = await manager.prepare(history, { target: OPENAI });
      const portable = textOf(moved.messages[0]);
      for (let turn = 1; turn <= count; turn++) expect(portable).toContain(request(turn));
      // A fact the provider kept is not pinned a second time.
      if (kept === count) expect(portable).not.toContain('## Pinned Facts');
    },
  );
});
