// The overflow-recovery ladder, rung by rung. The provider below counts the request with the same
// counter as the manager and answers the overflow error of Anthropic when it is over the window.
import { describe, expect, it } from 'vitest';
import {
  type AssistantMessage,
  CompactionError,
  type ContextEvent,
  estimateContextTokens,
  type Message,
  referenceCounter,
} from '../../src/index.js';
import { createSummaryMessage } from '../../src/summarizing/index.js';
import { checkToolPairing, toolCallMessage } from '../../src/testing/index.js';
import { answer, call, manager, result, scripted, user } from './fixtures.js';

const WINDOW = 10_000;
const SYSTEM = 'You are a coding agent.';

/** A build log of `lines` numbered lines (about 50 characters each). */
const log = (lines: number, tag = 'build') =>
  Array.from({ length: lines }, (_, index) => `${tag} step ${index}: compiled module ${index} with 0 errors`).join(
    '\n',
  );

/** A provider with a window: what it is sent, and the overflow error when it is over. */
function provider(window = WINDOW) {
  const sent: Message[][] = [];
  const tokens = (messages: Message[]) =>
    estimateContextTokens(messages, { counter: referenceCounter, systemPrompt: SYSTEM });
  return {
    sent,
    tokens,
    call: async (messages: Message[]) => {
      sent.push(messages);
      const count = tokens(messages);
      if (count > window) {
        throw Object.assign(new Error(`prompt is too long: ${count} tokens > ${window} maximum`), { status: 400 });
      }
      return answer('done');
    },
  };
}

/** With automatic compaction off, the recovery is all that shrinks a request: each rung shows. */
const noAuto = {
  reserveTokens: 2_000,
  keepRecentTokens: 2_000,
  toolSummaryStrategy: 'off' as const,
  autoCompact: false,
};

const endOf = (events: ContextEvent[]) =>
  events.filter((event): event is Extract<ContextEvent, { type: 'compaction-end' }> => event.type === 'compaction-end');

describe('the overflow-recovery ladder', () => {
  it('recovers when the request is already [summary, newest tool call + its result] and that result overflows', async () => {
    // The reported failure: nothing is older than the kept tail, so there is nothing to summarize,
    // and recovery used to give up with OVERFLOW_UNRECOVERED (cause NOTHING_TO_COMPACT).
    const events: ContextEvent[] = [];
    const summarizer = scripted('SUMMARY');
    const context = manager(summarizer, events, { systemPrompt: SYSTEM });
    const history: Message[] = [createSummaryMessage('Goal: fix the build.'), call('a'), result('a', log(900))];
    const snapshot = structuredClone(history);
    const model = provider();
    const outcome = await context.runWithOverflowRecovery(history, model.call);
    expect(outcome.recovered).toBe(true);
    expect(model.sent).toHaveLength(2);
    expect(model.tokens(model.sent[0]!)).toBeGreaterThan(WINDOW);
    expect(model.tokens(model.sent[1]!)).toBeLessThanOrEqual(8_000);
    expect(history).toEqual(snapshot);
    const end = endOf(events).at(-1)!;
    expect(end).toMatchObject({ reason: 'overflow', rungs: [{ rung: 'cut-results-8k' }] });
    expect(end.rungs![0]!.tokensBefore).toBeGreaterThan(end.rungs![0]!.tokensAfter);
    expect(end.summary).toBeUndefined();
    // The cut result is what the manager keeps, paired with its call.
    const kept = outcome.history.find((message) => message.role === 'toolResult')!;
    expect(JSON.stringify(kept).length).toBeLessThan(10_000);
    expect(checkToolPairing(outcome.history)).toEqual([]);
  });

  it('climbs on to 2 KiB and then to one-line stubs that say how to get the output again', async () => {
    const events: ContextEvent[] = [];
    const context = manager(scripted('SUMMARY'), events, { systemPrompt: SYSTEM, config: noAuto });
    const ids = Array.from({ length: 20 }, (_, index) => `c${index}`);
    // Already compacted: nothing older to summarize, only the newest results to cut.
    const history: Message[] = [
      createSummaryMessage('Goal: fix the build.'),
      toolCallMessage(ids.map((id) => ({ id, name: 'bash', arguments: { command: id } }))),
      ...ids.map((id) => result(id, log(900, id))),
    ];
    const model = provider();
    const outcome = await context.runWithOverflowRecovery(history, model.call);
    expect(outcome.recovered).toBe(true);
    const end = endOf(events).at(-1)!;
    expect(end.rungs!.map((rung) => rung.rung)).toEqual(['cut-results-8k', 'cut-results-2k', 'stub-results']);
    for (const [index, rung] of end.rungs!.entries()) {
      expect(rung.tokensAfter).toBeLessThan(rung.tokensBefore);
      if (index > 0) expect(rung.tokensBefore).toBe(end.rungs![index - 1]!.tokensAfter);
    }
    const stub = outcome.history.find((message) => message.role === 'toolResult')!;
    expect(stub.content).toEqual([
      {
        type: 'text',
        text: expect.stringMatching(
          /^\[Output of bash \(900 lines, \d+ characters\) removed to fit the context window; to see it, call bash again with the same arguments\.\]$/,
        ),
      },
    ]);
    expect(outcome.history[0]).toBe(history[0]);
  });

  it('summarizes what is older first, then cuts the newest results, and reports both rungs', async () => {
    const events: ContextEvent[] = [];
    const summarizer = scripted('SUMMARY');
    const context = manager(summarizer, events, { systemPrompt: SYSTEM, config: noAuto });
    const history: Message[] = [
      user(1_500, 'a'),
      answer('a'),
      user(1_500, 'b'),
      answer('b'),
      user(20, 'task'),
      call('x'),
      result('x', log(700)),
    ];
    const model = provider();
    const outcome = await context.runWithOverflowRecovery(history, model.call);
    expect(outcome.recovered).toBe(true);
    expect(summarizer.requests.length).toBeGreaterThanOrEqual(1);
    const end = endOf(events).at(-1)!;
    expect(end.rungs![0]).toMatchObject({ rung: 'summarize' });
    expect(end.summary).toMatch(/^SUMMARY/);
    expect(model.tokens(model.sent.at(-1)!)).toBeLessThanOrEqual(8_000);
  });

  it('drops the thinking of older assistant turns before it cuts any tool result (here with the summarizer down, no fallback)', async () => {
    const events: ContextEvent[] = [];
    const summarizer = scripted(new Error('summarizer unavailable'));
    const context = manager(summarizer, events, { systemPrompt: SYSTEM, config: noAuto, summarizerFallback: false });
    const thinking = (id: string, tokens: number): AssistantMessage => ({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 't'.repeat(tokens * 4), signature: `sig-${id}` },
        { type: 'toolCall', id, name: 'bash', arguments: { command: id } },
      ],
    });
    const history: Message[] = [
      createSummaryMessage('Goal: fix the build.'),
      thinking('a', 4_500),
      result('a', 'ok'),
      thinking('b', 4_500),
      result('b', 'ok'),
      thinking('c', 500),
      result('c', log(60)),
    ];
    const model = provider();
    const outcome = await context.runWithOverflowRecovery(history, model.call);
    expect(outcome.recovered).toBe(true);
    expect(
      endOf(events)
        .at(-1)!
        .rungs!.map((rung) => rung.rung),
    ).toEqual(['drop-thinking']);
    const thoughts = outcome.history.flatMap((message) =>
      message.role === 'assistant' ? message.content.filter((part) => part.type === 'thinking') : [],
    );
    // Only the newest assistant turn keeps its (signed) thinking; the tool results are untouched.
    expect(thoughts).toEqual([{ type: 'thinking', thinking: 't'.repeat(2_000), signature: 'sig-c' }]);
    expect(outcome.history.at(-1)).toBe(history.at(-1));
  });

  it('gives up only when even the smallest request cannot fit, naming the part and by how much', async () => {
    const summarizer = scripted('SUMMARY');
    const events: ContextEvent[] = [];
    const context = manager(summarizer, events, { systemPrompt: 'rules '.repeat(7_000) });
    const history: Message[] = [user(1_000, 'a'), answer('a'), user(20, 'task')];
    const snapshot = structuredClone(history);
    const error = await context
      .runWithOverflowRecovery(history, async () => {
        throw Object.assign(new Error('prompt is too long: 12000 tokens > 10000 maximum'), { status: 400 });
      })
      .catch((caught: unknown) => caught);
    expect(CompactionError.isInstance(error) && error.code).toBe('OVERFLOW_UNRECOVERED');
    expect((error as Error).message).toMatch(
      /the system prompt 10500, the tool definitions 0, the newest message \d+ tokens make \d+, \d+ over the limit of 8000\. The system prompt is the largest part \(10500 tokens\)/,
    );
    expect(history).toEqual(snapshot);
    expect(endOf(events).filter((event) => event.reason === 'overflow')).toEqual([]);
  });

  it('names the newest message when it alone is too large', async () => {
    const context = manager(scripted('SUMMARY'), [], { systemPrompt: SYSTEM });
    const history: Message[] = [user(500, 'a'), answer('a'), user(9_000, 'p')];
    const error = await context
      .runWithOverflowRecovery(history, async () => {
        throw Object.assign(new Error('prompt is too long: 12000 tokens > 10000 maximum'), { status: 400 });
      })
      .catch((caught: unknown) => caught);
    expect(CompactionError.isInstance(error) && error.code).toBe('OVERFLOW_UNRECOVERED');
    expect((error as Error).message).toMatch(/The newest message is the largest part \(9\d{3} tokens\)/);
  });

  it('stubs point at the saved copy when the output was spilled', async () => {
    const events: ContextEvent[] = [];
    const saved: string[] = [];
    const context = manager(scripted('SUMMARY'), events, {
      systemPrompt: SYSTEM,
      config: {
        ...noAuto,
        toolOutput: { largeOutputThreshold: 10_000, maxBytes: 30_000, maxChars: 30_000, maxLines: 5_000 },
      },
      spillStore: {
        save: async (content: string) => {
          saved.push(content);
          return { path: 'spill/output-1.txt', sha256: 'ab'.repeat(32), bytes: content.length };
        },
      },
    });
    const ids = Array.from({ length: 12 }, (_, index) => `c${index}`);
    const history: Message[] = [
      createSummaryMessage('Goal: fix the build.'),
      toolCallMessage(ids.map((id) => ({ id, name: 'bash', arguments: { command: id } }))),
      ...ids.map((id) => result(id, log(1_000, id))),
    ];
    const model = provider(6_000);
    const outcome = await context.runWithOverflowRecovery(history, model.call);
    expect(outcome.recovered).toBe(true);
    expect(saved).toHaveLength(12);
    const stubbed = outcome.history.filter((message) => message.role === 'toolResult');
    expect(endOf(events).at(-1)!.rungs!.at(-1)!.rung).toBe('stub-results');
    for (const message of stubbed) {
      expect(message.content).toEqual([
        {
          type: 'text',
          text: expect.stringContaining('the full output is saved at spill/output-1.txt; read it from there'),
        },
      ]);
    }
  });

  it('leaves the history exactly as it was when the retry overflows again, and reports the rungs it tried', async () => {
    const events: ContextEvent[] = [];
    const context = manager(scripted('SUMMARY'), events, { systemPrompt: SYSTEM, config: noAuto });
    const history: Message[] = [createSummaryMessage('Goal: fix the build.'), call('a'), result('a', log(900))];
    const snapshot = structuredClone(history);
    let calls = 0;
    const error = await context
      .runWithOverflowRecovery(history, async () => {
        calls++;
        throw Object.assign(new Error('prompt is too long: 12000 tokens > 10000 maximum'), { status: 400 });
      })
      .catch((caught: unknown) => caught);
    expect(calls).toBe(2);
    expect(CompactionError.isInstance(error) && error.code).toBe('OVERFLOW_UNRECOVERED');
    expect((error as Error).message).toMatch(/again after recovery \(cut-results-8k \d+ → \d+\)/);
    expect(history).toEqual(snapshot);
    const end = endOf(events).at(-1)!;
    expect(end).toMatchObject({ reason: 'overflow', rungs: [{ rung: 'cut-results-8k' }] });
    expect(end.error).toBeDefined();
    // The manager did not adopt the cut result: the next call sends the history as it was.
    const prepared = await context.prepare([...history, answer('x')]);
    expect(prepared.history.slice(0, history.length)).toEqual(snapshot);
  });
});
