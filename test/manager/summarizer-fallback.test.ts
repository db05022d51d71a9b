// The heuristic fallback of the manager's compactions (`summarizerFallback`): what the host sees
// when its summarizer fails, how the next working summary takes over the heuristic checkpoint, that
// a fallback which cannot help does not compact on every call, and, property-tested on real tool
// output, that any mix of failing and working summarizer calls keeps every request within the
// window, every tool call with its result, and every message in the store.
import { fc, test } from '@fast-check/vitest';
import { type ContextEvent, createContextManager, type Message, type Summarizer } from 'ctxkit';
import type { SummaryRequest } from 'ctxkit/summarizing';
import { describe, expect, it } from 'vitest';
import { call, manager, result, scripted, user } from './fixtures.js';
import { corpusOutputs, recordingStore, toolStep } from './tool-session.js';

const ends = (events: ContextEvent[]) =>
  events.filter((event): event is Extract<ContextEvent, { type: 'compaction-end' }> => event.type === 'compaction-end');

/** Over the fixture manager's threshold (8,000 of a 10,000 window): old turns, then a kept tail. */
function longHistory(turns = 12): Message[] {
  const history: Message[] = [];
  for (let turn = 0; turn < turns; turn++) {
    history.push(
      user(400, `u${turn} `),
      call(`c${turn}`),
      result(`c${turn}`, `error TS2322 in file${turn}.ts `.repeat(30)),
    );
  }
  return history;
}

describe('summarizerFallback', () => {
  it('writes a heuristic checkpoint when the summarizer fails, and the next working summary updates it', async () => {
    const events: ContextEvent[] = [];
    const summarizer = scripted(new Error('503 upstream overloaded'), 'Goal: fix the types. MODEL SUMMARY');
    const context = manager(summarizer, events);
    const first = await context.prepare(longHistory());
    const [fallback] = ends(events);
    expect(fallback).toMatchObject({ reason: 'threshold', fallback: 'heuristic', belowLimit: true });
    expect(fallback!.error).toBeUndefined();
    expect(fallback!.summarizerError).toMatchObject({ code: 'SUMMARIZER_FAILED' });
    expect((fallback!.summarizerError as Error).message).toContain('503 upstream overloaded');
    const checkpoint = first.compacted!.summary;
    expect(checkpoint).toContain('## Goal');
    expect(context.stats(first.history).summarizerFallbacks).toBe(1);

    // The host's summarizer is back: the next compaction hands it the heuristic checkpoint to update.
    let history = first.history;
    for (let turn = 20; turn < 32; turn++) {
      history = [...history, user(400, `u${turn} `), call(`c${turn}`), result(`c${turn}`, 'ok '.repeat(300))];
    }
    const second = await context.prepare(history);
    const update = ends(events)[1]!;
    expect(update.fallback).toBeUndefined();
    expect(update.summary).toMatch(/^Goal: fix the types\. MODEL SUMMARY/);
    const request = summarizer.requests.at(-1)!;
    expect(request.kind).toBe('compaction');
    expect(request.previousSummary).toContain(checkpoint.split('\n')[0]);
    expect(second.history[0]!.role).toBe('user');
    expect(context.stats(second.history).summarizerFallbacks).toBe(1);
  });

  it('stands in for an empty and a cut-off answer too', async () => {
    const answers = [
      { text: '', stopReason: 'stop' },
      { text: 'Goal: half a summ', stopReason: 'max_tokens' },
    ];
    for (const answer of answers) {
      const events: ContextEvent[] = [];
      const context = manager(scripted(answer), events);
      const prepared = await context.prepare(longHistory());
      expect(prepared.compacted).toBeDefined();
      expect(ends(events)[0]).toMatchObject({ fallback: 'heuristic' });
      expect(ends(events)[0]!.summarizerError).toMatchObject({
        code: answer.text === '' ? 'SUMMARY_EMPTY' : 'SUMMARY_TRUNCATED',
      });
    }
  });

  it('does not replace an abort: the compaction is stopped as the host asked', async () => {
    const controller = new AbortController();
    const events: ContextEvent[] = [];
    const hanging: Summarizer = {
      summarize: () => {
        controller.abort(new Error('user pressed stop'));
        return new Promise(() => {});
      },
    };
    const context = manager(hanging, events);
    await expect(context.prepare(longHistory(), { signal: controller.signal })).rejects.toMatchObject({
      code: 'ABORTED',
    });
    expect(ends(events)[0]!.fallback).toBeUndefined();
    expect(context.stats([]).summarizerFallbacks).toBe(0);
  });

  it('with summarizerFallback: false, reports the failure and changes nothing', async () => {
    const events: ContextEvent[] = [];
    const context = manager(scripted(new Error('503')), events, { summarizerFallback: false });
    const history = longHistory();
    const prepared = await context.prepare(history);
    expect(prepared.compacted).toBeUndefined();
    expect(prepared.history).toEqual(history);
    expect(ends(events)[0]!.error).toMatchObject({ code: 'SUMMARIZER_FAILED' });
    expect(ends(events)[0]!.fallback).toBeUndefined();
  });

  it('rejects a summarizerFallback that is not a boolean, naming the field', () => {
    expect(() =>
      createContextManager({ summarizer: scripted(), contextWindow: 10_000, summarizerFallback: 'yes' as never }),
    ).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringContaining('summarizerFallback') }),
    );
  });

  it('does not compact on every call when even the heuristic checkpoint cannot get below the threshold', async () => {
    // The system prompt alone is near the threshold: no checkpoint can bring the context under it.
    const events: ContextEvent[] = [];
    const summarizer = scripted(new Error('503'));
    const context = manager(summarizer, events, { systemPrompt: 'rule '.repeat(6_600) });
    let history = longHistory(4);
    let calls = 0;
    for (let step = 0; step < 30; step++) {
      history = [...(await context.prepare(history)).history, user(20, `s${step} `)];
      calls++;
    }
    const started = events.filter((event) => event.type === 'compaction-start').length;
    // The backoff waits for growth after each compaction that did not get below the limit.
    expect(started).toBeGreaterThan(0);
    expect(started).toBeLessThanOrEqual(3);
    expect(calls).toBe(30);
    // Each was the heuristic's checkpoint, adopted (nothing is lost) though still over the threshold.
    for (const end of ends(events)) expect(end).toMatchObject({ fallback: 'heuristic', belowLimit: false });
    // Each host summarizer call was one compaction's; the heuristic one never runs twice for it.
    expect(summarizer.requests.filter((request) => request.kind === 'compaction').length).toBe(started);
  });
});

// A session of real tool output (the recorded runs of `npm run corpus`) on a small window.
const outputs = corpusOutputs();
const WINDOW = 12_000;
const SYSTEM = 'You are a coding agent.';

type Outcome = 'ok' | 'throws' | 'empty' | 'truncated' | 'oversized';

/** A summarizer that answers each call as `script` says, in turn (cycling). */
function flaky(script: readonly Outcome[]): Summarizer {
  let index = 0;
  return {
    async summarize(request: SummaryRequest) {
      const outcome = script[index++ % script.length]!;
      if (outcome === 'throws') throw new Error('timed out after 30s');
      if (outcome === 'empty') return { text: '  ', stopReason: 'stop' };
      if (outcome === 'truncated') return { text: 'Goal: run the checks', stopReason: 'length' };
      if (outcome === 'oversized') return 'Goal: unknown. '.repeat(4 * (request.maxOutputTokens ?? 1_000));
      return `Goal: get every check green. Done: ${request.messages.length} messages summarized.`;
    },
  };
}

describe('summarizer fallback under any mix of failing and working calls', () => {
  const outcome = fc.constantFrom<Outcome>('ok', 'throws', 'empty', 'truncated', 'oversized');
  const step = fc.record({ output: fc.nat(outputs.length - 1), newTurn: fc.boolean() });

  test.prop([fc.array(outcome, { minLength: 1, maxLength: 8 }), fc.array(step, { minLength: 10, maxLength: 40 })], {
    numRuns: 15,
  })(
    'no request over the window, no tool call parted from its result, every message in the store',
    async (script, steps) => {
      const { store, sessionId, add, appended, transcript } = await recordingStore();
      const context = createContextManager({
        contextWindow: WINDOW,
        summarizer: flaky(script),
        systemPrompt: SYSTEM,
        store,
        sessionId,
      });
      // With the fallback on, a compaction never fails for want of a summary: nothing overflows.
      const provider = {
        window: WINDOW,
        system: SYSTEM,
        check: (tokens: number) => expect(tokens).toBeLessThanOrEqual(WINDOW),
      };
      let history: Message[] = [];
      for (const [index, item] of steps.entries()) {
        if (index === 0 || item.newTurn) {
          const ask: Message = { role: 'user', content: `Step ${index}: run the next check.` };
          history = [...history, ask];
          await add(ask);
        }
        const next = await toolStep(context, history, `call_${index}`, outputs[item.output]!, provider);
        history = next.history;
        await add(...next.added);
      }
      const stored = await transcript();
      for (const message of appended) expect(stored).toContainEqual(message);
    },
  );
});
