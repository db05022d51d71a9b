// A summarizer that hangs without rejecting (a model call that never answers) ends at the manager's
// `summaryTimeoutMs` (default 10 minutes): its call is aborted through the signal it was given and
// the heuristic fallback writes the checkpoint, so the turn goes on. The host's own abort still
// ends a hang at once, as an abort (never replaced by the fallback).
import { CompactionError, ConfigError, type ContextEvent, createContextManager, type Message } from 'ctxkit';
import { createScriptedSummarizer } from 'ctxkit/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, manager, result, user } from './fixtures.js';

/** Over the fixture manager's threshold (8,000 of a 10,000 window). */
function longHistory(): Message[] {
  const history: Message[] = [];
  for (let turn = 0; turn < 12; turn++) {
    history.push(
      user(400, `u${turn} `),
      call(`c${turn}`),
      result(`c${turn}`, `error TS2322 in f${turn}.ts `.repeat(30)),
    );
  }
  return history;
}

/** A summarizer whose every call hangs, and the signals it was called with. */
function hungSummarizer() {
  const signals: (AbortSignal | undefined)[] = [];
  const summarizer = createScriptedSummarizer([], {
    afterScript: (request) => {
      signals.push(request.signal);
      return new Promise<string>(() => {});
    },
  });
  return { summarizer, signals };
}

const ends = (events: ContextEvent[]) =>
  events.filter((event): event is Extract<ContextEvent, { type: 'compaction-end' }> => event.type === 'compaction-end');

afterEach(() => {
  vi.useRealTimers();
});

describe('summaryTimeoutMs', () => {
  it('ends a hung summarizer after 10 minutes by default: its call is aborted and the fallback compacts', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { summarizer, signals } = hungSummarizer();
    const events: ContextEvent[] = [];
    const context = manager(summarizer, events);
    let settled = false;
    const prepared = context.prepare(longHistory()).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(599_999);
    expect(settled).toBe(false);
    expect(signals.length).toBeGreaterThan(0);
    expect(signals[0]?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const { compacted, history } = await prepared;
    expect(signals[0]?.aborted).toBe(true);
    expect(compacted?.summary).toContain('## Goal');
    const [end] = ends(events);
    expect(end).toMatchObject({ fallback: 'heuristic' });
    expect(end!.summarizerError).toMatchObject({ code: 'SUMMARIZER_FAILED' });
    expect((end!.summarizerError as Error).message).toMatch(/600000 ms.*summaryTimeoutMs/);
    expect(context.stats(history).summarizerFallbacks).toBe(1);
  });

  it('takes a shorter limit, and without the fallback the hang fails the compaction instead', async () => {
    const { summarizer } = hungSummarizer();
    const context = manager(summarizer, [], { summaryTimeoutMs: 20, summarizerFallback: false });
    const history = longHistory();
    await expect(context.compact(history)).rejects.toMatchObject({ code: 'SUMMARIZER_FAILED' });
  });

  it("the host's abort still ends a hang at once, as an abort", async () => {
    const { summarizer, signals } = hungSummarizer();
    const events: ContextEvent[] = [];
    const context = manager(summarizer, events);
    const controller = new AbortController();
    const prepared = context.prepare(longHistory(), { signal: controller.signal });
    await vi.waitFor(() => expect(signals.length).toBe(1));
    controller.abort(new Error('user pressed Esc'));
    const error = await prepared.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(CompactionError.isInstance(error) && error.code).toBe('ABORTED');
    expect(signals[0]?.aborted).toBe(true);
    expect(ends(events)[0]?.fallback).toBeUndefined();
  });

  it('is checked: a whole number of milliseconds a timer can wait', () => {
    const summarizer = createScriptedSummarizer([]);
    for (const summaryTimeoutMs of [0, -1, 1.5, Number.NaN, 2 ** 31, '600000']) {
      expect(() => createContextManager({ summarizer, contextWindow: 10_000, summaryTimeoutMs } as never)).toThrow(
        ConfigError,
      );
      expect(() => createContextManager({ summarizer, contextWindow: 10_000, summaryTimeoutMs } as never)).toThrow(
        /summaryTimeoutMs/,
      );
    }
    expect(() =>
      createContextManager({ summarizer, contextWindow: 10_000, summaryTimeoutMs: 2 ** 31 - 1 }),
    ).not.toThrow();
  });
});
