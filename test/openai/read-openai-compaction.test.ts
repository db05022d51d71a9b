// The window `POST /responses/compact` returns, through `readOpenAICompaction` and
// `resolveNativeCompactions`, for any user messages and any conversation after it: its maker is sent
// the endpoint's output exactly (the user messages, then the item), then the rest; any other model
// gets neither the item nor the user messages it held, only the portable summary.

import { fc, test as property } from '@fast-check/vitest';
import {
  createContextManager,
  createInMemorySessionStore,
  estimateMessageTokens,
  heuristicSummarizer,
  type Message,
  type ModelTarget,
  NATIVE_PAYLOAD_LIMIT,
  nativeCompaction,
  nativeCompactionOf,
  nativeSummaryMessage,
  referenceCounter,
  resolveNativeCompactions,
} from 'ctxkit';
import { type OpenAICompactedResponse, readOpenAICompaction, toOpenAIResponses } from 'ctxkit/openai';
import { buildContextFromBranch } from 'ctxkit/session';
import { arbitraryConversation } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';

const OPENAI: ModelTarget = { provider: 'openai', api: 'openai-responses', model: 'gpt-5' };
const ELSEWHERE: ModelTarget[] = [
  { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-6' },
  { ...OPENAI, model: 'gpt-5-mini' },
  { ...OPENAI, api: 'openai-chat' },
];

/** A user message as the endpoint may return it: an output message item, or the input's own shape. */
const userItem = fc
  .record({ text: fc.string({ minLength: 1 }), itemized: fc.boolean(), index: fc.nat(999) })
  .map(({ text, itemized, index }) =>
    itemized
      ? {
          id: `msg_${index}`,
          type: 'message',
          role: 'user',
          status: 'completed',
          content: [{ type: 'input_text', text: `USER<${text}>` }],
        }
      : { role: 'user', content: `USER<${text}>` },
  );

const compacted = fc
  .record({ users: fc.array(userItem, { maxLength: 6 }), secret: fc.base64String({ minLength: 4, maxLength: 40 }) })
  .map(
    ({ users, secret }): OpenAICompactedResponse => ({
      id: 'resp_cmp',
      object: 'response.compaction',
      created_at: 1,
      output: [...users, { id: 'cmp_1', type: 'compaction', encrypted_content: `gAAAA.CMP<${secret}>` }] as never,
      usage: { input_tokens: 100, output_tokens: 5, total_tokens: 105 },
    }),
  );

/** The history a manager holds once it took the turn in: the summary message, then what followed. */
function takenIn(response: OpenAICompactedResponse, tail: Message[]): Message[] {
  const turn = readOpenAICompaction(response, { model: OPENAI.model });
  return [nativeSummaryMessage(nativeCompactionOf(turn)!), ...tail];
}

describe('readOpenAICompaction: the compacted window', () => {
  property.prop([compacted, arbitraryConversation({ maxLength: 6 })])(
    'its maker is sent the output exactly, in order, then the rest of the conversation',
    (response, tail) => {
      const before = JSON.stringify(response);
      const resolved = resolveNativeCompactions(takenIn(response, tail), { target: OPENAI });
      expect(resolved.native).toBe(1);
      const items = toOpenAIResponses({ messages: resolved.messages }).items;
      const window = items.slice(0, response.output.length);
      expect(JSON.stringify(window)).toBe(JSON.stringify(response.output));
      expect(items.slice(response.output.length)).toEqual(toOpenAIResponses({ messages: tail }).items);
      expect(JSON.stringify(response)).toBe(before);
    },
  );

  property.prop([compacted, arbitraryConversation({ maxLength: 6 }), fc.constantFrom(...ELSEWHERE, undefined)])(
    'any other model gets neither the item nor the user messages it held',
    (response, tail, target) => {
      const resolved = resolveNativeCompactions(takenIn(response, tail), target ? { target } : {});
      expect(resolved.native).toBe(0);
      const text = JSON.stringify(resolved.messages);
      expect(text).not.toContain('CMP<');
      expect(text).not.toContain('USER<');
      // The opaque item has no portable summary yet: the manager writes it from the whole span before sending.
      expect(resolved.unsummarized).toEqual([0]);
    },
  );

  it('keeps the window in one turn: one native compaction, its user messages counted by their text', () => {
    const response: OpenAICompactedResponse = {
      id: 'resp_cmp',
      output: [
        {
          id: 'msg_1',
          type: 'message',
          role: 'user',
          status: 'completed',
          content: [{ type: 'input_text', text: 'Sign every answer.' }],
        },
        { id: 'cmp_1', type: 'compaction', encrypted_content: 'gAAAAx.y' },
      ] as never,
    };
    const turn = readOpenAICompaction(response, { model: OPENAI.model });
    expect(turn.content).toHaveLength(1);
    expect(nativeCompactionOf(turn)).toEqual({
      provider: 'openai',
      api: 'openai-responses',
      model: OPENAI.model,
      payload: response.output[1],
      leading: [response.output[0]],
    });
    // Without a manager, the turn writes back the item alone: the history before it holds the user messages.
    expect(toOpenAIResponses({ messages: [turn] }).items).toEqual([response.output[1]]);
    const [sent] = resolveNativeCompactions(takenIn(response, []), { target: OPENAI }).messages;
    expect(sent).toMatchObject({ content: [{ text: 'Sign every answer.' }, { text: '[compaction]' }] });
  });

  it('a window past NATIVE_PAYLOAD_LIMIT with its user messages: kept out of the store, its maker gets the portable summary', async () => {
    const store = createInMemorySessionStore();
    const { id: sessionId } = await store.createSession();
    const manager = createContextManager({
      model: 'gpt-5',
      summarizer: heuristicSummarizer,
      store,
      sessionId,
      compaction: nativeCompaction('native'),
    });
    const long = `FACT-9 ${'x'.repeat(NATIVE_PAYLOAD_LIMIT - 100)}`;
    const history: Message[] = [
      { role: 'user', content: long },
      { role: 'assistant', content: [{ type: 'text', text: 'Read it.' }], provider: 'openai', model: 'gpt-5' },
    ];
    history.push(
      readOpenAICompaction(
        {
          id: 'resp_cmp',
          output: [
            { role: 'user', content: long },
            { id: 'cmp_1', type: 'compaction', encrypted_content: 'gAAAA.CMP<big>' },
          ] as never,
        },
        { model: 'gpt-5' },
      ),
    );
    for (const message of history) await store.appendEntry(sessionId, { type: 'message', message });
    const prepared = await manager.prepare(history, { target: OPENAI });
    const [entry] = (await store.getEntries(sessionId)).filter((candidate) => candidate.type === 'compaction');
    expect(entry).toMatchObject({ native: { payload: { type: 'compaction' }, omitted: expect.any(Number) } });
    expect(entry).not.toHaveProperty('native.leading');
    const items = JSON.stringify(toOpenAIResponses({ messages: prepared.messages }).items);
    expect(items).not.toContain('CMP<');
    expect(items).toContain('FACT-9');
    expect(manager.stats(prepared.history).nativeCompactions).toMatchObject([{ state: 'portable' }]);
  });
});

describe('readOpenAICompaction: the estimate before the next usage', () => {
  it('counts the user messages the window sends with its item, once', () => {
    const instruction = 'Sign every answer with the ticket number and never touch the production database. '.repeat(40);
    const response: OpenAICompactedResponse = {
      id: 'resp_cmp',
      output: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: instruction }] },
        { id: 'cmp_1', type: 'compaction', encrypted_content: 'gAAAAx.y' },
      ] as never,
    };
    const [summary] = takenIn(response, []);
    const alone = estimateMessageTokens({ role: 'user', content: instruction }, referenceCounter);
    // The summary message a manager holds: its maker is sent the instruction with the item.
    expect(estimateMessageTokens(summary!, referenceCounter)).toBeGreaterThanOrEqual(alone);
    // What resolves for its maker carries the instruction as text: counted once, not twice.
    const [sent] = resolveNativeCompactions([summary!], { target: OPENAI }).messages;
    expect(estimateMessageTokens(sent!, referenceCounter)).toBeLessThan(alone * 1.5);
  });
});

describe("readOpenAICompaction: the manager's estimate before the next usage", () => {
  it('counts the user messages kept beside the item, as sent to its maker, and again after a reload', async () => {
    const instruction = 'Sign every answer with the ticket number and never touch the production database. '.repeat(40);
    const store = createInMemorySessionStore();
    const { id: sessionId } = await store.createSession();
    const options = {
      model: 'gpt-5',
      summarizer: heuristicSummarizer,
      counter: referenceCounter,
      compaction: nativeCompaction('native'),
    };
    const manager = createContextManager({ ...options, store, sessionId });
    const history: Message[] = [
      { role: 'user', content: instruction },
      { role: 'assistant', content: [{ type: 'text', text: 'Noted.' }], provider: 'openai', model: 'gpt-5' },
      readOpenAICompaction(
        {
          id: 'resp_cmp',
          output: [
            { type: 'message', role: 'user', content: [{ type: 'input_text', text: instruction }] },
            { id: 'cmp_1', type: 'compaction', encrypted_content: 'gAAAAx.y' },
          ] as never,
          usage: { input_tokens: 900, output_tokens: 40, total_tokens: 940 },
        },
        { model: 'gpt-5' },
      ),
      { role: 'user', content: 'Go on.' },
    ];
    // The provider counted the request before the compaction; nothing has counted the one after it.
    const first = await manager.prepare(history.slice(0, 1), { target: OPENAI });
    manager.recordUsage({ input: 830, output: 3 });
    for (const message of history) await store.appendEntry(sessionId, { type: 'message', message });
    const prepared = await manager.prepare([...first.history, ...history.slice(1)], { target: OPENAI });
    expect(JSON.stringify(toOpenAIResponses({ messages: prepared.messages }).items)).toContain('Sign every answer');
    const sent = prepared.messages.reduce((sum, message) => sum + estimateMessageTokens(message, referenceCounter), 0);
    expect(sent).toBeGreaterThan(estimateMessageTokens({ role: 'user', content: instruction }, referenceCounter));
    // Was 40: the summary message alone, without the instruction sent beside the item.
    expect(manager.stats(prepared.history).currentUsage).toBeGreaterThanOrEqual(sent);

    // A manager that reloads the session from its store estimates the same.
    const reloaded = createContextManager(options);
    const context = buildContextFromBranch(await store.getEntries(sessionId));
    const again = await reloaded.prepare(context.messages, { target: OPENAI });
    expect(JSON.stringify(toOpenAIResponses({ messages: again.messages }).items)).toContain('Sign every answer');
    expect(reloaded.stats(again.history).currentUsage).toBeGreaterThanOrEqual(sent);
  });
});
