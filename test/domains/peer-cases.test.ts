/**
 * Cases other context libraries test (LangChain.js's message trimming, the AI SDK's message
 * pruning, pi-mono's and opencode's compaction, gemini-cli's chat compression), restated as facts of
 * ctxkit's own contract and checked through its public entries: what a provider receives is always
 * a valid request, whatever shape the history arrives in.
 */
import {
  compact,
  heuristicSummarizer,
  type Message,
  prepareModelMessages,
  referenceCounter,
  splitByTokenBudget,
} from 'ctxkit';
import { toAnthropic } from 'ctxkit/anthropic';
import { fromOpenAIChat, toOpenAIChat } from 'ctxkit/openai';
import { checkSplitKeepsToolPairs, checkToolPairing } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';

const user = (content: string): Message => ({ role: 'user', content });
const answer = (text: string): Message => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
  stopReason: 'stop',
});
const call = (id: string, stopReason: 'toolUse' | 'aborted' | 'error' = 'toolUse'): Message => ({
  role: 'assistant',
  content: [{ type: 'toolCall', id, name: 'read', arguments: { path: `${id}.ts` } }],
  stopReason,
});
const result = (id: string, text = `contents of ${id}`): Message => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: 'read',
  content: [{ type: 'text', text }],
});
/** A compact picture of a request: U, A(ids) or R(id:text). */
const shape = (messages: readonly Message[]) =>
  messages.map((message) => {
    if (message.role === 'user') return 'U';
    if (message.role === 'assistant')
      return `A(${message.content.flatMap((part) => (part.type === 'toolCall' ? [part.id] : [])).join(',')})`;
    const first = message.content[0];
    return `R(${message.toolCallId}:${message.isError ? 'error' : first?.type === 'text' ? first.text : ''})`;
  });

describe('orphaned tool results (the cut fell between a call and its result)', () => {
  it('a result whose call is gone is not sent', () => {
    expect(shape(prepareModelMessages([result('gone'), user('hi'), answer('hello')]))).toEqual(['U', 'A()']);
  });

  it('a token-budget split never starts the recent part with a result whose call is in the old part', () => {
    const history = [user('x'.repeat(400)), call('c1'), result('c1', 'y'.repeat(400)), user('z')];
    for (const budget of [1, 10, 50, 100, 101, 102, 150, 250, 1_000]) {
      const { old, recent } = splitByTokenBudget(history, { budget, counter: referenceCounter });
      expect([...old, ...recent]).toEqual(history);
      expect(checkSplitKeepsToolPairs(old, recent)).toEqual([]);
    }
  });
});

describe('a tool call without a result', () => {
  it('at the end of the history gets an error result, so the request is valid for every provider', () => {
    const sent = prepareModelMessages([user('read a'), call('c1')]);
    expect(shape(sent)).toEqual(['U', 'A(c1)', 'R(c1:error)']);
    expect(checkToolPairing(sent)).toEqual([]);
    expect(toAnthropic({ messages: sent }).warnings).toEqual([]);
  });

  it('in the middle (the user spoke before the tool answered) gets an error result right after its call', () => {
    expect(shape(prepareModelMessages([user('read a'), call('c1'), user('never mind')]))).toEqual([
      'U',
      'A(c1)',
      'R(c1:error)',
      'U',
    ]);
  });

  it('a result that arrives after an interjection is moved back next to its call', () => {
    expect(shape(prepareModelMessages([user('read a'), call('c1'), user('and b'), result('c1'), user('go')]))).toEqual([
      'U',
      'A(c1)',
      'R(c1:contents of c1)',
      'U',
      'U',
    ]);
  });
});

describe('interrupted tool calls', () => {
  it('an aborted or errored assistant turn is not sent, and neither are its results', () => {
    for (const stopReason of ['aborted', 'error'] as const) {
      const sent = prepareModelMessages([user('read a'), call('c1', stopReason), result('c1'), user('try again')]);
      expect(shape(sent)).toEqual(['U', 'U']);
    }
  });
});

describe('duplicate tool-call ids', () => {
  it('an id reused in a later turn pairs each call with its own result, for OpenAI and Anthropic alike', () => {
    const sent = prepareModelMessages([
      user('a'),
      call('call_0'),
      result('call_0', 'first'),
      user('b'),
      call('call_0'),
      result('call_0', 'second'),
    ]);
    expect(checkToolPairing(sent)).toEqual([]);
    const wire = toOpenAIChat({ messages: sent }).messages;
    const ids = wire.flatMap((message) =>
      message.role === 'assistant'
        ? (message.tool_calls ?? []).map((toolCall) => toolCall.id)
        : message.role === 'tool'
          ? [message.tool_call_id]
          : [],
    );
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).toBe(ids[3]);
    expect(ids[0]).not.toBe(ids[2]);
  });

  it('a second result for the same call is not sent', () => {
    expect(shape(prepareModelMessages([user('a'), call('c1'), result('c1', 'one'), result('c1', 'two')]))).toEqual([
      'U',
      'A(c1)',
      'R(c1:one)',
    ]);
  });
});

describe('a system message in the middle of the conversation', () => {
  it('stays in its place through prepareModelMessages and goes back out as a system message', () => {
    const chat = [
      { role: 'system' as const, content: 'Be brief.' },
      { role: 'user' as const, content: 'hi' },
      { role: 'assistant' as const, content: 'hello' },
      { role: 'system' as const, content: 'From now on, answer in French.' },
      { role: 'user' as const, content: 'bye' },
    ];
    const { systemPrompt, messages } = fromOpenAIChat(chat);
    expect(systemPrompt).toBe('Be brief.');
    expect(toOpenAIChat({ systemPrompt, messages: prepareModelMessages(messages) }).messages).toEqual(chat);
  });
});

describe('empty content', () => {
  it('empty user and assistant messages are not sent, so no provider sees an empty turn', () => {
    const sent = prepareModelMessages([
      user(''),
      { role: 'assistant', content: [], stopReason: 'stop' },
      user('hello'),
      answer(''),
    ]);
    expect(shape(sent)).toEqual(['U']);
    expect(toAnthropic({ messages: sent })).toEqual({ messages: [{ role: 'user', content: 'hello' }], warnings: [] });
  });
});

describe('compaction that would not shrink the context', () => {
  it('fails loudly instead of storing a checkpoint larger than what it replaces', async () => {
    const history = [user('a'.repeat(2_000)), answer('b'), user('x'.repeat(400))];
    await expect(
      compact(history, {
        summarizer: { summarize: async () => `## Goal\n${'padding sentence. '.repeat(400)}` },
        config: { keepRecentTokens: 100 },
        counter: referenceCounter,
      }),
    ).rejects.toThrow(/would not shrink the context/);
  });

  it('a compaction of a history with an earlier summary updates that summary instead of summarizing it again', async () => {
    const first = await compact(
      [user(`Goal: ship v2. ${'x'.repeat(2_000)}`), answer('ok'), user('next'), answer('done')],
      {
        summarizer: heuristicSummarizer,
        config: { keepRecentTokens: 10 },
        counter: referenceCounter,
      },
    );
    const seen: (string | undefined)[] = [];
    await compact([...first.messages, user(`more ${'y'.repeat(2_000)}`), answer('fine'), user('last')], {
      summarizer: {
        summarize: async (request) => {
          seen.push(request.previousSummary);
          return '## Goal\n- ship v2.';
        },
      },
      config: { keepRecentTokens: 10 },
      counter: referenceCounter,
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain('ship v2');
  });
});
