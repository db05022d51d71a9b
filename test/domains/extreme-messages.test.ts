/**
 * Single messages and sessions of an unusual shape, through the manager as a host drives it: a
 * document pasted into one user message larger than the window, one huge assistant message,
 * images, and ten thousand turns of "ok". The session must survive each (never die), the user must
 * be told what went wrong, and no request may go over the window.
 */
import {
  type AssistantMessage,
  CompactionError,
  type ContextEvent,
  createContextManager,
  createInMemorySessionStore,
  heuristicSummarizer,
  type Message,
} from 'ctxkit';
import { summaryText } from 'ctxkit/summarizing';
import { checkToolPairing } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';
import { requestTokens } from './domain-session.js';

const user = (content: Message['content'] & string): Message => ({ role: 'user', content });
const reply = (text: string): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
  stopReason: 'stop',
});

/** A provider with a window of `window` tokens that refuses a longer request as OpenAI does. */
function strictProvider(window: number, sent: Message[][] = []) {
  return async (messages: Message[]) => {
    const tokens = requestTokens(messages);
    if (tokens > window) {
      throw Object.assign(
        new Error(
          `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens.`,
        ),
        { status: 400, code: 'context_length_exceeded' },
      );
    }
    sent.push(messages);
    return reply(`Read ${messages.length} messages.`);
  };
}

function manager(
  window: number,
  events: ContextEvent[],
  extra: { store?: ReturnType<typeof createInMemorySessionStore>; sessionId?: string } = {},
) {
  return createContextManager({
    contextWindow: window,
    summarizer: heuristicSummarizer,
    config: { reserveTokens: Math.floor(window / 8) },
    onEvent: (event) => events.push(event),
    ...extra,
  });
}

describe('a 300 KB document pasted into one user message, bigger than the window', () => {
  const document = Array.from(
    { length: 4_000 },
    (_, index) => `Section ${index + 1}. Revenue for unit ${index} was ${1_000 + index} thousand dollars.`,
  ).join('\n');

  it('refuses the turn with a typed error that tells the user to shorten it, keeps the history, and the next turn goes on', async () => {
    expect(document.length).toBeGreaterThan(200_000);
    const events: ContextEvent[] = [];
    const store = createInMemorySessionStore();
    const { id: sessionId } = await store.createSession();
    const context = manager(16_000, events, { store, sessionId });
    const sent: Message[][] = [];
    const history: Message[] = [
      user('Hello'),
      reply('Hi, how can I help?'),
      user(`Please summarize this report:\n${document}`),
    ];
    for (const message of history) await store.appendEntry(sessionId, { type: 'message', message });

    const failure = await context
      .runWithOverflowRecovery(history, strictProvider(16_000, sent))
      .catch((error) => error);
    expect(CompactionError.isInstance(failure)).toBe(true);
    expect(failure.code).toBe('OVERFLOW_UNRECOVERED');
    // What the host shows the user: which part is too large and what to do.
    expect(failure.message).toMatch(/newest message is the largest part.*shorten it/);
    expect(failure.message).toMatch(/history is unchanged/);
    expect(sent).toEqual([]);
    // The store still holds the whole paste: nothing was dropped or cut in the session.
    const stored = (await store.getBranch(sessionId)).flatMap((entry) =>
      entry.type === 'message' ? [entry.message] : [],
    );
    expect(stored).toEqual(history);

    // The user answers with a shorter request: the paste is now older and is compacted; the turn succeeds.
    const next = [...history, user('Too long, sorry. Just tell me what section 7 says about unit 6.')];
    const { result, history: kept } = await context.runWithOverflowRecovery(next, strictProvider(16_000, sent));
    expect(result.content).toEqual([{ type: 'text', text: expect.stringMatching(/^Read/) }]);
    expect(sent).toHaveLength(1);
    expect(requestTokens(sent[0]!)).toBeLessThanOrEqual(16_000);
    expect(sent[0]!.at(-1)).toEqual(next.at(-1));
    const checkpoint = summaryText(sent[0]![0]!);
    expect(checkpoint).toContain('Please summarize this report');
    expect(kept.at(-1)).toBe(next.at(-1));
  });
});

describe('one huge assistant message', () => {
  it("is summarized away, and the user's next request is sent verbatim within the window", async () => {
    const events: ContextEvent[] = [];
    const context = manager(16_000, events);
    const sent: Message[][] = [];
    const novel = Array.from({ length: 4_000 }, (_, index) => `Chapter ${index + 1}: the heroine walks to town.`).join(
      ' ',
    );
    const history: Message[] = [
      user('Write me a very long novel.'),
      reply(novel),
      user('Thanks! Now shorten it to one paragraph.'),
    ];
    await context.runWithOverflowRecovery(history, strictProvider(16_000, sent));
    expect(sent).toHaveLength(1);
    expect(requestTokens(sent[0]!)).toBeLessThanOrEqual(16_000);
    expect(sent[0]!.at(-1)).toEqual(history.at(-1));
    expect(summaryText(sent[0]![0]!)).toContain('Write me a very long novel');
  });
});

describe('images', () => {
  it('are counted, compacted without their data in the checkpoint, and never leave a request over the window', async () => {
    const events: ContextEvent[] = [];
    const context = manager(12_000, events);
    const sent: Message[][] = [];
    const data = 'iVBORw0KGgo'.repeat(300);
    let history: Message[] = [];
    for (let turn = 0; turn < 12; turn++) {
      history.push({
        role: 'user',
        content: [
          { type: 'text', text: `Photo ${turn} of invoice INV-${4000 + turn}: what is the total?` },
          { type: 'image', data, mimeType: 'image/png' },
        ],
      });
      const step = await context.runWithOverflowRecovery(history, strictProvider(12_000, sent));
      history = [...step.history, step.result];
    }
    expect(events.some((event) => event.type === 'compaction-end' && event.error === undefined)).toBe(true);
    for (const request of sent) {
      expect(requestTokens(request)).toBeLessThanOrEqual(12_000);
      expect(checkToolPairing(request)).toEqual([]);
    }
    const checkpoint = summaryText(sent.at(-1)![0]!)!;
    expect(checkpoint).toContain('INV-4000');
    expect(checkpoint).not.toContain('iVBORw0KGgo');
  });
});

describe('ten thousand turns of "ok"', () => {
  it('compacts once to within the limit and does not compact again on the next turns', async () => {
    const events: ContextEvent[] = [];
    const context = manager(16_000, events);
    const history: Message[] = [user('Count the sheep with me; answer ok each time.')];
    for (let turn = 0; turn < 10_000; turn++) history.push(reply('ok'), user('ok'));
    const first = await context.prepare(history);
    expect(first.usage.tokens).toBeLessThanOrEqual(first.usage.limit!);
    const compactions = () => events.filter((event) => event.type === 'compaction-end').length;
    expect(compactions()).toBe(1);
    let next = first.history;
    for (let turn = 0; turn < 20; turn++) next = (await context.prepare([...next, reply('ok'), user('ok')])).history;
    expect(compactions()).toBe(1);
    const checkpoint = summaryText(first.messages[0]!)!;
    expect(checkpoint).toContain('Count the sheep with me');
  });
});
