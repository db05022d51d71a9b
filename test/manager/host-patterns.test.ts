/**
 * The manager under the ways hosts really drive it: one array pushed into, usage reported after
 * the turn ended, several tool steps in one turn, a summarizer that keeps failing.
 */
import { describe, expect, it } from 'vitest';
import {
  type AssistantMessage,
  buildContextFromBranch,
  CompactionError,
  type ContextEvent,
  createContextManager,
  createInMemorySessionStore,
  estimateMessageTokens,
  heuristicSummarizer,
  type Message,
  referenceCounter,
  type Summarizer,
  sumMessageTokens,
  type ToolResultMessage,
} from '../../src/index.js';

import { createScriptedSummarizer } from '../../src/testing/index.js';
import { answer, call, manager, result, scripted, user } from './fixtures.js';

const overflow = () => Object.assign(new Error('prompt is too long: 210000 tokens > 200000 maximum'), { status: 400 });
const failing = () => createScriptedSummarizer([], { afterScript: new Error('model unavailable') });
const textOf = (message: Message) =>
  typeof message.content === 'string'
    ? message.content
    : message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

describe('a host that pushes into one array', () => {
  it('gets every new message after the manager archived old tool results', async () => {
    const context = manager(heuristicSummarizer, [], { contextWindow: 200_000 });
    const history: Message[] = [user(10, 'q')];
    for (let index = 0; index < 11; index++) history.push(call(`c${index}`), result(`c${index}`, `out ${index}`));
    await context.prepare(history);
    history.push(answer('all done'), { role: 'user', content: 'NEW QUESTION' });
    const prepared = await context.prepare(history);
    expect(prepared.messages.at(-1)).toMatchObject({ role: 'user', content: 'NEW QUESTION' });
    expect(prepared.history.at(-1)).toMatchObject({ role: 'user', content: 'NEW QUESTION' });
  });

  it('gets new messages pushed onto the history it was given back, processed', async () => {
    const context = manager(heuristicSummarizer, [], { contextWindow: 1_000_000 });
    const { history } = await context.prepare([user(10, 'q')]);
    history.push(call('c1'), result('c1', 'line of output\n'.repeat(20_000)));
    const prepared = await context.prepare(history);
    expect(textOf(prepared.messages.at(-1)!).length).toBeLessThan(60_000);
  });

  it('gets back the very array it pushed onto while nothing in it needed changing, untouched', async () => {
    const context = manager(heuristicSummarizer, [], { contextWindow: 1_000_000 });
    const { history } = await context.prepare([user(10, 'q')]);
    history.push(call('c1'), result('c1', 'short output'));
    const before = history.slice();
    const prepared = await context.prepare(history);
    expect(prepared.history).toBe(history);
    expect(history).toEqual(before);
    prepared.history.push(answer('done'));
    expect((await context.prepare(prepared.history)).messages.at(-1)).toMatchObject({ role: 'assistant' });
  });

  it('can go back to that array after an output in it was cut: the manager goes on from it, not from scratch', async () => {
    const events: ContextEvent[] = [];
    const context = manager(heuristicSummarizer, events, { contextWindow: 1_000_000 });
    const { history } = await context.prepare([user(10, 'q')]);
    history.push(call('c1'), result('c1', 'line of output\n'.repeat(20_000)));
    const prepared = await context.prepare(history);
    expect(prepared.history).not.toBe(history); // the cut output is in a copy; the host's array is as it was
    expect(textOf(history.at(-1)!).length).toBeGreaterThan(60_000);
    const kept = prepared.history.slice();
    // The host goes on from its own array, not the history it received: the manager still knows it.
    const next = await context.prepare([...history, answer('done')]);
    expect(next.history.slice(0, -1)).toEqual(kept);
    expect(next.history).toBe(prepared.history); // went on from it, not from scratch
    expect(events.filter((event) => event.type === 'tool-output-truncated')).toHaveLength(1);
  });
  it('pushes onto the returned history through an archived batch: its own array stays as it was, and it may go back to it', async () => {
    const config = { reserveTokens: 2_000, keepRecentTokens: 2_000, toolCallCutoff: 2, toolSummaryBatch: 1 };
    const events: ContextEvent[] = [];
    const context = manager(heuristicSummarizer, events, { contextWindow: 1_000_000, config });
    let { history } = await context.prepare([user(10, 'q')]);
    for (let index = 0; index < 3; index++) {
      history.push(call(`c${index}`), result(`c${index}`, `out ${index}`));
      ({ history } = await context.prepare(history));
    }
    const archived = () => events.filter((event) => event.type === 'tool-results-summarized').length;
    expect(archived()).toBe(0);
    const passed = history;
    passed.push(call('c3'), result('c3', 'out 3'));
    const before = passed.slice();
    const prepared = await context.prepare(passed);
    expect(archived()).toBe(1);
    expect(passed).toEqual(before); // the host's array is as it was: the history it receives is another
    expect(prepared.history).not.toBe(passed);
    const hidden = prepared.history.filter(
      (message) => message.role === 'toolResult' && message.meta?.agentVisible === false,
    );
    expect(hidden.map((message) => (message as ToolResultMessage).toolCallId)).toEqual(['c0', 'c1']);
    // Back to the array it passed, before the batch: the manager goes on from it, as from the history.
    const kept = prepared.history.slice();
    const done = answer('done');
    const next = await context.prepare([...passed, done]);
    expect(next.history).toEqual([...kept, done]);
    expect(archived()).toBe(1);
    const fresh = manager(heuristicSummarizer, [], { contextWindow: 1_000_000, config });
    expect(next.messages).toEqual((await fresh.prepare([...kept, done])).messages);
  });

  it('goes on from the array of its first call when an output in it was cut, and when nothing was', async () => {
    // A first call starts with the host's array and the history as the same messages; a cut output parts them.
    for (const output of ['short output', 'line of output\n'.repeat(20_000)]) {
      const events: ContextEvent[] = [];
      const context = manager(heuristicSummarizer, events, { contextWindow: 1_000_000 });
      const host: Message[] = [user(10, 'q'), call('c1'), result('c1', output), answer('ok')];
      const prepared = await context.prepare(host);
      const kept = prepared.history.slice();
      host.push(user(10, 'next'));
      const next = await context.prepare(host);
      expect(next.history).toBe(prepared.history); // went on from it, not from scratch
      expect(next.history).toEqual([...kept, host.at(-1)]);
      expect(events.filter((event) => event.type === 'tool-output-truncated')).toHaveLength(
        output.length > 1_000 ? 1 : 0,
      );
    }
  });
});

describe('an array refused for a bad message', () => {
  const bad = { role: 'user', content: 5 } as never;
  const big = () => result('c1', 'line of output\n'.repeat(20_000));

  it('leaves the manager as it was: the host goes on from its own array without a start over', async () => {
    const context = manager(heuristicSummarizer, [], { contextWindow: 1_000_000 });
    const own: Message[] = [user(10, 'q'), call('c1'), big()];
    const { history } = await context.prepare(own);
    context.recordUsage({ input: 2_000, output: 10 });
    // The history it received, pushed onto (or copied) with a bad message: refused.
    for (const refusedInput of [[...history, bad], history]) {
      if (refusedInput === history) history.push(bad);
      await expect(context.prepare(refusedInput)).rejects.toMatchObject({ code: 'INPUT_INVALID' });
    }
    own.push(answer('done'));
    const prepared = await context.prepare(own);
    expect(prepared.usage.source, 'the recorded usage still applies').not.toBe('estimate');
    expect(prepared.history.at(-1)).toBe(own.at(-1));
  });

  it('leaves the manager as it was after a compaction: the host still goes on from the array it compacted', async () => {
    const summarizer = scripted('## Goal\nwork\n## Progress\n- done');
    const context = manager(summarizer, [], { contextWindow: 200_000, config: { keepRecentTokens: 50 } });
    const own: Message[] = [];
    for (let index = 0; index < 6; index++) own.push(user(100, `q${index}`), answer(`a${index}`));
    await context.prepare(own);
    const compacted = await context.compact(own);
    await expect(context.prepare([...compacted.messages, bad])).rejects.toMatchObject({ code: 'INPUT_INVALID' });
    const next = user(1, 'next');
    await context.append([next]);
    own.push(next, answer('more'));
    const prepared = await context.prepare(own);
    expect(textOf(prepared.messages[0]!)).toMatch(/^\[Previous conversation summary\]/);
    expect(prepared.history.at(-1)).toBe(own.at(-1));
  });
});

describe('a host that appends what is new', () => {
  it('names the bad message by its place in the array it appended, and takes in none of them', async () => {
    const context = manager(heuristicSummarizer, [], { contextWindow: 200_000 });
    await context.prepare([user(10, 'q'), answer('a')]);
    const refused = await context
      .append([user(1, 'ok'), { role: 'user', content: 5 } as never])
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: 'INPUT_INVALID',
      message: expect.stringMatching(/^append: messages\[1\]\.content /),
    });
    const prepared = await context.append([answer('b')]);
    expect(prepared.history.map(textOf)).toEqual([textOf(user(10, 'q')), 'a', 'b']);
  });
});

describe('an aborted batch of tool summaries', () => {
  /** Answers at once, or hangs until aborted while `hang` is set. */
  const summarizer = {
    hang: false,
    summarize(request: Parameters<Summarizer['summarize']>[0]): Promise<string> {
      if (!summarizer.hang) return Promise.resolve(`${request.messages?.length ?? 0} results`);
      return new Promise((_, reject) =>
        request.signal?.addEventListener('abort', () => reject(request.signal?.reason)),
      );
    },
  };
  const step = (id: string) => [call(id), result(id, `out ${id}`)];
  const create = () =>
    manager(summarizer, [], { contextWindow: 200_000, config: { toolCallCutoff: 2, toolSummaryBatch: 3 } });
  const start = () => [user(10, 'q'), ...['c0', 'c1', 'c2', 'c3', 'c4'].flatMap(step)];

  async function abortedCall(call: (signal: AbortSignal) => Promise<unknown>): Promise<void> {
    summarizer.hang = true;
    const controller = new AbortController();
    const pending = call(controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
    summarizer.hang = false;
  }

  it('changes nothing: the same array passed again still brings the messages of the aborted call', async () => {
    const context = create();
    const history = start();
    await context.prepare(history);
    history.push(...step('c5'));
    await abortedCall((signal) => context.prepare(history, { signal }));
    expect((await context.prepare(history)).history).toEqual((await create().prepare(history)).history);
  });

  it('changes nothing: an append retried after the abort is taken in once', async () => {
    const context = create();
    await context.prepare(start());
    await abortedCall((signal) => context.append(step('c5'), { signal }));
    const retried = await context.append(step('c5'));
    expect(retried.history).toEqual((await create().prepare([...start(), ...step('c5')])).history);
  });
});

describe('a manual compaction', () => {
  it('stays in effect for a host that keeps its own array, or goes on from the compacted messages', async () => {
    const words = (text: string) => `${text} `.repeat(300);
    for (const keepsOwn of [true, false]) {
      const context = manager(scripted('## Goal\nwork\n## Progress\n- done'), [], {
        contextWindow: 200_000,
        config: { toolCallCutoff: 2, toolSummaryBatch: 0, keepRecentTokens: 50, toolSummaryStrategy: 'heuristic' },
      });
      let own: Message[] = [];
      for (let index = 0; index < 6; index++) {
        own.push(user(1, `q${index}`), call(`c${index}`), result(`c${index}`, words(`out ${index}`)));
      }
      // Archiving has replaced the oldest results in the manager's history by hidden copies.
      await context.prepare(own);
      const compacted = await context.compact(own);
      if (!keepsOwn) own = [...compacted.messages];
      own.push(user(1, 'next'));
      const prepared = await context.prepare(own);
      expect(prepared.messages.length, keepsOwn ? 'own array' : 'compacted messages').toBe(
        compacted.messages.filter((message) => message.meta?.agentVisible !== false).length + 1,
      );
      expect(textOf(prepared.messages[0]!)).toMatch(/^\[Previous conversation summary\]/);
    }
  });

  it('stays in effect for a host that pushed onto the history it received and goes on from that array', async () => {
    const context = manager(scripted('## Goal\nwork\n## Progress\n- done'), [], {
      config: { reserveTokens: 2_000, keepRecentTokens: 1_000, toolSummaryStrategy: 'off' },
    });
    const { history } = await context.prepare([user(10, 'q')]);
    let compacted: unknown;
    for (let turn = 0; compacted === undefined && turn < 40; turn++) {
      history.push(user(400, 'u'), answer('a'.repeat(1_600)));
      ({ compacted } = await context.prepare(history));
    }
    expect(compacted).toBeDefined();
    history.push(user(1, 'next'));
    const prepared = await context.prepare(history);
    expect(prepared.compacted).toBeUndefined(); // went on from the compaction, not over again
    expect(textOf(prepared.messages[0]!)).toMatch(/^\[Previous conversation summary\]/);
    expect(prepared.messages.at(-1)).toMatchObject({ role: 'user', content: 'nextnextnextnext' });
  });
});

describe('afterTurn', () => {
  it('truncates tool output that reaches the manager first through it', async () => {
    const context = manager(heuristicSummarizer, [], {
      contextWindow: 1_000_000,
      config: { toolSummaryStrategy: 'off' },
    });
    let history = (await context.prepare([user(10, 'q')])).history;
    history = [...history, call('c1'), result('c1', 'line of output\n'.repeat(20_000))];
    history = (await context.afterTurn(history)).history;
    const prepared = await context.prepare([...history, user(5, 'next')]);
    const sent = prepared.messages.find((message) => message.role === 'toolResult')!;
    expect(textOf(sent).length).toBeLessThan(60_000);
  });
});

describe('recordUsage', () => {
  it("keeps the provider's count when the host pushes the new messages onto the history it received and appends them", async () => {
    for (const handedBack of [false, true]) {
      const pushing = manager(heuristicSummarizer);
      const appending = manager(heuristicSummarizer);
      let { history } = await pushing.prepare([user(100, 'q')]);
      await appending.prepare([user(100, 'q')]);
      if (handedBack) {
        // The history pushed onto and handed back: the host's own array from then on.
        history.push(answer('a'), user(10, 'r'));
        ({ history } = await pushing.prepare(history));
        await appending.append([answer('a'), user(10, 'r')]);
      }
      for (const context of [pushing, appending]) context.recordUsage({ input: 1_500, output: 20 });
      const reply = answer('b'.repeat(80));
      history.push(reply);
      const pushed = await pushing.append([reply]);
      const appended = await appending.append([reply]);
      expect(pushed.usage, handedBack ? 'handed back' : 'received').toEqual(appended.usage);
      expect(pushed.usage.source).toBe('usage');
    }
  });

  it('ignores usage of a request prepared before the compaction that afterTurn ran', async () => {
    const events: ContextEvent[] = [];
    const context = manager({ summarize: async () => 'SUMMARY' }, events);
    let history: Message[] = [];
    for (let turn = 0; turn < 8; turn++) {
      history = [...history, user(100, 'q')];
      const prepared = await context.prepare(history);
      history = [...prepared.history, answer('a'.repeat(4 * 1_500))];
      const after = await context.afterTurn(history);
      history = after.history;
      context.recordUsage({ input: prepared.usage.tokens, output: 1_500 });
      const stats = context.stats(history);
      // Never more than the context really holds, give or take the reply's estimate.
      expect(stats.currentUsage).toBeLessThanOrEqual(stats.breakdown.total + 1_500);
    }
    const compactions = events.filter((event) => event.type === 'compaction-end');
    // Each compaction follows real growth: none runs on a stale figure right after another.
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions.length).toBeLessThanOrEqual(4);
  });

  it("counts the reply once: as the usage's output, not again as an estimate", async () => {
    const context = manager({ summarize: async () => 'SUMMARY' });
    const { history } = await context.prepare([user(1_000, 'q')]);
    context.recordUsage({ input: 1_000, output: 3_000 });
    const stats = context.stats([...history, answer('a'.repeat(4 * 3_000))]);
    expect(stats.currentUsage).toBe(4_000);
    expect(stats.usage.source).toBe('usage');
  });
});

describe('compaction that cannot help', () => {
  it('is not retried every turn when the summarizer keeps failing (token limit)', async () => {
    const summarizer = failing();
    const context = manager(summarizer);
    let history: Message[] = [user(7_000, 'a'), answer('a'), user(1_100, 'b')];
    for (let turn = 0; turn < 12; turn++) {
      history = [...(await context.prepare(history)).history, answer('ok'), user(450, 'c')];
    }
    // 12 turns of 450 tokens: the back-off doubles its step after each failure.
    expect(summarizer.requests.length).toBeGreaterThan(0);
    expect(summarizer.requests.length).toBeLessThanOrEqual(4);
  });

  it('is not retried every turn when the summarizer keeps failing (message limit)', async () => {
    const summarizer = failing();
    const context = manager(summarizer, [], {
      contextWindow: undefined,
      config: { maxTokens: 0, maxMessages: 10, keepRecentTokens: 0, keepRecent: 2, toolSummaryStrategy: 'off' },
    });
    let history: Message[] = Array.from({ length: 12 }, (_, index) => user(10, `m${index}`));
    for (let turn = 0; turn < 12; turn++) {
      history = [...(await context.prepare(history)).history, answer('ok')];
    }
    expect(summarizer.requests.length).toBeGreaterThan(0);
    expect(summarizer.requests.length).toBeLessThanOrEqual(4);
  });

  it('is not repeated every turn when the system prompt alone is over the limit, and warns once', async () => {
    const events: ContextEvent[] = [];
    const context = manager({ summarize: async () => 'S' }, events, { systemPrompt: 'p'.repeat(4 * 8_500) });
    let history: Message[] = [user(300, 'a'), answer('a'), user(300, 'b')];
    for (let turn = 0; turn < 8; turn++) {
      history = [...(await context.prepare(history)).history, answer('ok'), user(50, `t${turn}`)];
    }
    const ends = events.filter((event) => event.type === 'compaction-end');
    expect(ends.length).toBeLessThanOrEqual(3);
    expect(ends.every((event) => event.type === 'compaction-end' && !event.belowLimit)).toBe(true);
    expect(events.filter((event) => event.type === 'context-warning')).toHaveLength(1);
  });
});

describe('context-warning', () => {
  it('does not fire again when archiving moves usage back below the threshold without a compaction', async () => {
    const events: ContextEvent[] = [];
    // Window 20,000: warning from 16,000 tokens, compaction at 18,000.
    const context = manager(heuristicSummarizer, events, {
      contextWindow: 20_000,
      // Only the threshold compacts here (the cost policy would compact earlier: it pays).
      costAware: false,
      config: {
        reserveTokens: 2_000,
        keepRecentTokens: 2_000,
        toolSummaryStrategy: 'heuristic',
        toolCallCutoff: 2,
        toolSummaryBatch: 0,
      },
    });
    let history: Message[] = [user(15_000, 'a')];
    for (let turn = 0; turn < 10; turn++) {
      history = [...history, call(`c${turn}`), result(`c${turn}`, 'r'.repeat(4 * 700))];
      history = (await context.prepare(history)).history;
    }
    expect(events.some((event) => event.type === 'compaction-start')).toBe(false);
    expect(events.filter((event) => event.type === 'context-warning')).toHaveLength(1);
  });
});

describe('runWithOverflowRecovery', () => {
  it('recovers at most once per turn, across several tool steps; a new user message starts a new turn', async () => {
    const events: ContextEvent[] = [];
    const context = manager({ summarize: async () => 'SUMMARY' }, events);
    let history: Message[] = [user(2_000, 'a'), answer('a'), user(2_000, 'b'), answer('b'), user(100, 'task')];
    const overflowOnce = () => {
      let calls = 0;
      return async (messages: Message[]) => {
        calls++;
        if (calls === 1) throw overflow();
        return answer(`saw ${messages.length}`);
      };
    };
    const first = await context.runWithOverflowRecovery(history, overflowOnce());
    expect(first.recovered).toBe(true);
    // A tool step in the same turn overflows again: no second recovery.
    history = [...first.history, call('c1'), result('c1', 'x'.repeat(4 * 2_000))];
    const error = await context.runWithOverflowRecovery(history, overflowOnce()).catch((caught: unknown) => caught);
    expect(CompactionError.isInstance(error) && error.code).toBe('OVERFLOW_UNRECOVERED');
    expect(events.filter((event) => event.type === 'compaction-start')).toHaveLength(1);
    // The next user message starts a new turn, which may recover again.
    history = [...history, answer('done'), user(10, 'next task')];
    expect((await context.runWithOverflowRecovery(history, overflowOnce())).recovered).toBe(true);
  });

  it('a retry that fails for another reason (a 500) does not use up the turn: the same call retried recovers again', async () => {
    const events: ContextEvent[] = [];
    const context = manager({ summarize: async () => 'SUMMARY' }, events);
    const history: Message[] = [user(2_000, 'a'), answer('a'), user(2_000, 'b'), answer('b'), user(100, 'task')];
    // The SDK's retry loop around the whole call: the first attempt overflows, the recovery's retry
    // meets a 500, and the SDK then retries the same prompt, which overflows again.
    const serverError = Object.assign(new Error('Internal server error'), { status: 500 });
    let calls = 0;
    const flaky = async (messages: Message[]) => {
      calls++;
      if (calls === 1) throw overflow();
      if (calls === 2) throw serverError;
      if (calls === 3) throw overflow();
      return answer(`saw ${messages.length}`);
    };
    const failed = await context.runWithOverflowRecovery(history, flaky).catch((caught: unknown) => caught);
    expect(failed).toBe(serverError);
    const retried = await context.runWithOverflowRecovery(history, flaky);
    expect(retried.recovered).toBe(true);
    expect(calls).toBe(4);
    expect(events.filter((event) => event.type === 'compaction-start')).toHaveLength(2);
    // The recovery that succeeded did use up the turn: a further overflow in it is refused.
    const again = await context
      .runWithOverflowRecovery([...retried.history, call('c1'), result('c1', 'x')], async () => {
        throw overflow();
      })
      .catch((caught: unknown) => caught);
    expect(CompactionError.isInstance(again) && again.code).toBe('OVERFLOW_UNRECOVERED');
  });

  it('records nothing in the store when the retry overflows again', async () => {
    const store = createInMemorySessionStore();
    const session = await store.createSession();
    const history: Message[] = [user(2_000, 'a'), answer('a'), user(2_000, 'b'), answer('b'), user(100, 'task')];
    for (const message of history) await store.appendEntry(session.id, { type: 'message', message });
    const events: ContextEvent[] = [];
    const context = manager({ summarize: async () => 'SUMMARY' }, events, { store, sessionId: session.id });
    const error = await context
      .runWithOverflowRecovery(history, async () => {
        throw overflow();
      })
      .catch((caught: unknown) => caught);
    expect(CompactionError.isInstance(error) && error.code).toBe('OVERFLOW_UNRECOVERED');
    expect((await store.getEntries(session.id)).some((entry) => entry.type === 'compaction')).toBe(false);
    expect(buildContextFromBranch(await store.getBranch(session.id)).messages).toEqual(history);
    expect(events.at(-1)).toMatchObject({ type: 'compaction-end', reason: 'overflow' });
    expect(events.at(-1)).toHaveProperty('error');
    // The manager did not adopt the dropped compaction either: the next call starts from the history.
    const prepared = await context.prepare([...history, answer('x')]);
    expect(prepared.history.slice(0, history.length)).toEqual(history);
  });

  it('treats a reply whose reported input exceeds the window as an overflow', async () => {
    const context = manager({ summarize: async () => 'SUMMARY' });
    const history: Message[] = [user(2_000, 'a'), answer('a'), user(2_000, 'b'), answer('b'), user(100, 'task')];
    let calls = 0;
    const outcome = await context.runWithOverflowRecovery(history, async () => {
      calls++;
      return {
        ...answer('truncated silently'),
        usage: calls === 1 ? { input: 12_000, output: 10 } : { input: 3_000, output: 10 },
      } satisfies AssistantMessage;
    });
    expect(outcome.recovered).toBe(true);
    expect(calls).toBe(2);
  });

  it('rethrows an abort during the recovery compaction as ABORTED', async () => {
    const controller = new AbortController();
    const context = manager({
      summarize: (request) =>
        new Promise((_, reject) => {
          request.signal?.addEventListener('abort', () => reject(request.signal?.reason));
          controller.abort();
        }),
    });
    const history: Message[] = [user(2_000, 'a'), answer('a'), user(2_000, 'b'), answer('b'), user(100, 'task')];
    const error = await context
      .runWithOverflowRecovery(
        history,
        async () => {
          throw overflow();
        },
        { signal: controller.signal },
      )
      .catch((caught: unknown) => caught);
    expect(CompactionError.isInstance(error) && error.code).toBe('ABORTED');
  });
});

describe('the summary budget', () => {
  it('leaves room under the limit when no window is set (8,000-token limit, 16,384 reserve)', async () => {
    const summarizer = createScriptedSummarizer([], {
      afterScript: (request) => 's'.repeat(4 * (request.maxOutputTokens ?? 0)),
    });
    const context = createContextManager({
      summarizer,
      counter: referenceCounter,
      config: { toolSummaryStrategy: 'off' },
    });
    const history: Message[] = [user(9_000, 'a'), answer('a'), user(2_000, 'b'), answer('b'), user(100, 'c')];
    const prepared = await context.prepare(history);
    expect(prepared.compacted).toBeDefined();
    // A summary that uses its whole budget still leaves the context under the limit.
    expect(summarizer.requests[0]?.maxOutputTokens).toBeLessThan(8_000);
    expect(prepared.usage.level).not.toBe('compact');
  });
});

describe('a summarizer that ignores its abort signal', () => {
  it('cannot hang compact: the abort wins', async () => {
    const controller = new AbortController();
    const context = manager({ summarize: () => new Promise<string>(() => {}) });
    const history: Message[] = [user(2_000, 'a'), answer('a'), user(2_000, 'b'), answer('b'), user(100, 'task')];
    const pending = context.compact(history, { signal: controller.signal }).catch((caught: unknown) => caught);
    controller.abort();
    const error = await pending;
    expect(CompactionError.isInstance(error) && error.code).toBe('ABORTED');
  });
});

describe('usage carried by messages', () => {
  it("keeps the provider's count when tool results it counted are archived, less what the archiving removed", async () => {
    const events: ContextEvent[] = [];
    const context = manager(heuristicSummarizer, events, {
      config: {
        reserveTokens: 2_000,
        keepRecentTokens: 2_000,
        toolSummaryStrategy: 'heuristic',
        toolCallCutoff: 2,
        toolSummaryBatch: 0,
      },
    });
    const history: Message[] = [user(100, 'q')];
    for (let index = 0; index < 3; index++) history.push(call(`c${index}`), result(`c${index}`, 'r'.repeat(4 * 1_500)));
    // The provider counted all three big results: 7,900 tokens, just under the 8,000 limit.
    history.push({ ...answer('looked at all three'), usage: { input: 7_800, output: 100 } });
    history.push(call('c3'), result('c3', 'small'));
    const prepared = await context.prepare(history);
    // Four results are visible: the two oldest are archived after that usage. The count still rests
    // on it, less what their placeholders removed, plus what came after it.
    const sent = prepared.messages;
    const anchor = sent.findIndex((message) => message.role === 'assistant' && message.usage !== undefined);
    const placeholders = sent.filter((message) => message.meta?.kind === 'tool_result_archived');
    expect(placeholders).toHaveLength(2);
    const removed = placeholders.reduce((total, placeholder) => {
      const original = history.find(
        (message) =>
          message.role === 'toolResult' && message.toolCallId === (placeholder as ToolResultMessage).toolCallId,
      )!;
      return (
        total + estimateMessageTokens(original, referenceCounter) - estimateMessageTokens(placeholder, referenceCounter)
      );
    }, 0);
    const after = sumMessageTokens(sent.slice(anchor + 1), referenceCounter);
    expect(prepared.usage.source).toBe('mixed');
    expect(prepared.usage.tokens).toBe(7_900 - removed + after);
    expect(prepared.usage.tokens).toBeLessThan(7_000);
    expect(events.some((event) => event.type === 'compaction-start')).toBe(false);
  });
});
