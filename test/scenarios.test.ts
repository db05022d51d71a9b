/**
 * The compaction failures agents have shipped, replayed through the public API. Each test names
 * the failure; the assertions are what must hold instead.
 */
import { describe, expect, it } from 'vitest';
import {
  CompactionError,
  type ContextEvent,
  createContextManager,
  createInMemorySessionStore,
  type Message,
  prepareModelMessages,
  referenceCounter,
  type Summarizer,
} from '../src/index.js';
import { compactSession } from '../src/session/index.js';
import { type SummaryOutput, summaryText } from '../src/summarizing/index.js';
import {
  assistantMessage,
  createScriptedSummarizer,
  type ScriptStep,
  toolCallMessage,
  toolResultMessage,
  userMessage,
} from '../src/testing/index.js';

const user = (tokens: number, label = 'u') => userMessage(label.repeat(tokens * 4));
const answer = (text: string) => assistantMessage(text);
const call = (id: string) => toolCallMessage([{ id, name: 'bash', arguments: { id } }]);
const result = (id: string, tokens: number) => toolResultMessage(id, 'r'.repeat(tokens * 4), { toolName: 'bash' });

const summarizer = (next: ScriptStep) => createScriptedSummarizer([], { afterScript: next });

function setup(summary: Summarizer, events: ContextEvent[] = [], extra: { summarizerFallback?: boolean } = {}) {
  return createContextManager({
    summarizer: summary,
    contextWindow: 10_000,
    counter: referenceCounter,
    config: { reserveTokens: 2_000, keepRecentTokens: 2_000, toolSummaryStrategy: 'off' },
    onEvent: (event) => events.push(event),
    ...extra,
  });
}

const overLimit = (): Message[] => [
  user(3_000, 'a'),
  answer('a'),
  user(3_000, 'b'),
  answer('b'),
  user(1_500, 'c'),
  answer('c'),
  user(600, 'd'),
];

describe('failures the field has shipped', () => {
  it('messages kept by a first compaction are not lost at the second', async () => {
    const store = createInMemorySessionStore();
    const session = await store.createSession();
    const append = async (messages: Message[]) => {
      for (const message of messages) await store.appendEntry(session.id, { type: 'message', message });
    };
    const summary = summarizer((request) => `summary #${request.previousSummary ? 2 : 1}`);
    await append(overLimit());
    const first = await compactSession({
      store,
      sessionId: session.id,
      summarizer: summary,
      config: { keepRecentTokens: 2_000 },
      counter: referenceCounter,
    });
    const keptByFirst = first.context.messages.slice(1);
    await append([answer('e'), user(3_000, 'f'), answer('f'), user(3_000, 'g'), answer('g'), user(10, 'h')]);
    const second = await compactSession({
      store,
      sessionId: session.id,
      summarizer: summary,
      config: { keepRecentTokens: 2_000 },
      counter: referenceCounter,
    });
    // The second summary was asked to cover everything the first kept, updating the first summary.
    const request = summary.requests[1]!;
    // The summarizer's text comes first; anchoring may append a pinned section after it.
    expect(request.previousSummary).toMatch(/^summary #1(\n\n## Pinned Facts\n|$)/);
    for (const message of keptByFirst) expect(request.messages).toContain(message);
    expect(summaryText(second.context.messages[0]!)).toMatch(/^summary #2(\n\n## Pinned Facts\n|$)/);
    // Nothing was deleted: the transcript still holds every message.
    const transcript = (await store.getMessages(session.id)).filter(
      (item) => item.message.meta?.kind !== 'compaction_summary',
    );
    expect(transcript).toHaveLength(13);
  });

  it('a session store that fails while recording a compaction loses nothing', async () => {
    const events: ContextEvent[] = [];
    const store = createInMemorySessionStore();
    const session = await store.createSession();
    const history = overLimit();
    for (const message of history) await store.appendEntry(session.id, { type: 'message', message });
    const entriesBefore = await store.getEntries(session.id);
    const failing = {
      ...store,
      appendEntry: async () => {
        throw new Error('disk full');
      },
    };
    const context = createContextManager({
      summarizer: summarizer(() => 'CHECKPOINT'),
      contextWindow: 10_000,
      counter: referenceCounter,
      config: { reserveTokens: 2_000, keepRecentTokens: 2_000 },
      store: failing,
      sessionId: session.id,
      onEvent: (event) => events.push(event),
    });
    const prepared = await context.prepare(history);
    // The compaction still applies in memory, the failure is reported, and the stored session is as it was.
    expect(prepared.compacted).toBeDefined();
    const end = events.find((event) => event.type === 'compaction-end');
    expect(end?.type === 'compaction-end' && String(end.storeError)).toMatch(/disk full/);
    expect(end?.type === 'compaction-end' && end.error).toBeUndefined();
    expect(await store.getEntries(session.id)).toEqual(entriesBefore);
  });

  it.each([true, false])(
    'a summary cut off at the output limit is never stored as the checkpoint (summarizerFallback %s)',
    async (fallback) => {
      const events: ContextEvent[] = [];
      const store = createInMemorySessionStore();
      const session = await store.createSession();
      const history = overLimit();
      for (const message of history) await store.appendEntry(session.id, { type: 'message', message });
      const context = createContextManager({
        summarizer: summarizer(() => ({
          text: '## Goal\nFix the parser. ## Progress\nThe lexer was',
          stopReason: 'length',
        })),
        contextWindow: 10_000,
        counter: referenceCounter,
        config: { reserveTokens: 2_000, keepRecentTokens: 2_000 },
        store,
        sessionId: session.id,
        onEvent: (event) => events.push(event),
        summarizerFallback: fallback,
      });
      const prepared = await context.prepare(history);
      const end = events.find((event) => event.type === 'compaction-end');
      const compactions = (await store.getEntries(session.id)).filter((entry) => entry.type === 'compaction');
      if (fallback) {
        // The heuristic summarizer writes the checkpoint in its place.
        expect(end?.type === 'compaction-end' && (end.summarizerError as CompactionError).code).toBe(
          'SUMMARY_TRUNCATED',
        );
        expect(prepared.compacted?.summary).not.toContain('The lexer was');
        expect(compactions).toHaveLength(1);
        expect(JSON.stringify(compactions)).not.toContain('The lexer was');
        return;
      }
      expect(prepared.compacted).toBeUndefined();
      expect(prepared.history).toEqual(history);
      expect(end?.type === 'compaction-end' && (end.error as CompactionError).code).toBe('SUMMARY_TRUNCATED');
      expect(compactions).toHaveLength(0);
    },
  );

  it('a cut never parts a tool call from its result', async () => {
    const history: Message[] = [
      user(3_500),
      answer('a'),
      user(2_000),
      call('t1'),
      result('t1', 1_500),
      call('t2'),
      result('t2', 1_200),
      user(10),
    ];
    const prepared = await setup(summarizer(() => 'SUMMARY')).prepare(history);
    expect(prepared.compacted).toBeDefined();
    const sent = prepared.messages;
    for (const [index, message] of sent.entries()) {
      if (message.role !== 'toolResult') continue;
      const caller = sent
        .slice(0, index)
        .reverse()
        .find((item) => item.role === 'assistant');
      expect(
        caller?.role === 'assistant' &&
          caller.content.some((part) => part.type === 'toolCall' && part.id === message.toolCallId),
      ).toBe(true);
    }
    expect(prepareModelMessages(sent)).toEqual(sent);
  });

  it('a first message larger than the window neither loops nor loses the message', async () => {
    const events: ContextEvent[] = [];
    const summary = summarizer(() => 'SUMMARY');
    const context = setup(summary, events);
    const history = [user(12_000)];
    const first = await context.prepare(history);
    expect(first.history).toEqual(history);
    expect(first.usage.level).toBe('compact');
    await context.prepare([...first.history, answer('a')]);
    expect(events.filter((event) => event.type === 'compaction-start').length).toBeLessThanOrEqual(1);
    const overflow = Object.assign(new Error('prompt is too long: 12050 tokens > 10000 maximum'), { status: 400 });
    const error = await context
      .runWithOverflowRecovery(history, async () => {
        throw overflow;
      })
      .catch((caught: unknown) => caught);
    expect(CompactionError.isInstance(error) && error.code).toBe('OVERFLOW_UNRECOVERED');
    expect(history).toEqual([user(12_000)]);
  });

  it('a compaction that would grow the context is refused and not retried every turn', async () => {
    const events: ContextEvent[] = [];
    // A summary within its budget, but larger than the one short turn it would replace.
    const summary = summarizer((request) => 'long summary '.repeat(Math.ceil(request.maxOutputTokens / 3)));
    const context = setup(summary, events);
    const history: Message[] = [user(100, 'a'), answer('a'), user(7_950, 'b')];
    const first = await context.prepare(history);
    expect(first.history).toEqual(history);
    const end = events.find((event) => event.type === 'compaction-end');
    expect(end?.type === 'compaction-end' && (end.error as CompactionError).code).toBe('NOT_SMALLER');
    await context.prepare([...first.history, answer('x')]);
    expect(summary.requests).toHaveLength(1);
  });

  const failing: Array<[string, () => SummaryOutput | Promise<SummaryOutput>, string]> = [
    ['throws', () => Promise.reject(new Error('503 upstream unavailable')), 'SUMMARIZER_FAILED'],
    ['returns nothing', () => '', 'SUMMARY_EMPTY'],
    ['returns only whitespace', () => ({ text: '  \n ', stopReason: 'stop' }), 'SUMMARY_EMPTY'],
  ];
  it.each(failing)('a summarizer that %s leaves the history intact', async (_, next, code) => {
    const events: ContextEvent[] = [];
    const history = overLimit();
    const frozen = structuredClone(history);
    // Without the fallback, the compaction fails and nothing changes.
    const prepared = await setup(summarizer(next), events, { summarizerFallback: false }).prepare(history);
    expect(prepared.history).toEqual(frozen);
    expect(history).toEqual(frozen);
    const end = events.find((event) => event.type === 'compaction-end');
    expect(end?.type === 'compaction-end' && (end.error as CompactionError).code).toBe(code);
    // With it (the default), the heuristic summarizer compacts; the host's array is still untouched.
    const fallbackEvents: ContextEvent[] = [];
    const compacted = await setup(summarizer(next), fallbackEvents).prepare(history);
    expect(history).toEqual(frozen);
    expect(compacted.compacted).toBeDefined();
    const fallbackEnd = fallbackEvents.find((event) => event.type === 'compaction-end');
    expect(fallbackEnd?.type === 'compaction-end' && (fallbackEnd.summarizerError as CompactionError).code).toBe(code);
  });

  it('a hanging summarizer is ended by the abort signal, with the history intact', async () => {
    const hanging: Summarizer = {
      summarize: (request) =>
        new Promise((_, reject) => request.signal?.addEventListener('abort', () => reject(request.signal?.reason))),
    };
    const controller = new AbortController();
    const history = overLimit();
    const pending = setup(hanging).prepare(history, { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    const error = await pending.catch((caught: unknown) => caught);
    expect(CompactionError.isInstance(error) && error.code).toBe('ABORTED');
    expect(history).toEqual(overLimit());
  });
});
