// A summarizer that is down for the whole session (every call throws, or answers with nothing): a
// session of real tool output (the recorded runs of `npm run corpus`, test/fixtures/tool-outputs/real)
// on a 16K window through runWithOverflowRecovery. By default the heuristic summarizer writes each
// checkpoint in its place, so nothing overflows. With `summarizerFallback: false`, threshold
// compactions fail and back off; once the provider rejects a request as too long, the recovery ladder
// must still bring it under the window, or the session ends at the first overflow. Also one long
// agent turn (one user message, many tool steps), where a second overflow ends the turn.
import { type ContextEvent, createContextManager, type Message, type Summarizer } from 'ctxkit';
import { describe, expect, it } from 'vitest';
import { corpusOutputs, recordingStore, toolStep } from './tool-session.js';

const WINDOW = 16_000;
const SYSTEM = 'You are a coding agent.';
const outputs = corpusOutputs();

const down: Record<string, Summarizer> = {
  throws: {
    async summarize() {
      throw new Error('503 upstream overloaded');
    },
  },
  'answers with nothing': {
    async summarize() {
      return { text: '', stopReason: 'stop' };
    },
  },
};

/** A manager on the 16K window over a recording store, and the provider every step is sent to. */
async function downSession(summarizer: Summarizer, summarizerFallback?: boolean) {
  const events: ContextEvent[] = [];
  const recording = await recordingStore();
  const manager = createContextManager({
    contextWindow: WINDOW,
    summarizer,
    systemPrompt: SYSTEM,
    store: recording.store,
    sessionId: recording.sessionId,
    onEvent: (event) => events.push(event),
    ...(summarizerFallback === undefined ? {} : { summarizerFallback }),
  });
  // The provider counts what it is sent as the manager's default counter does.
  const provider = { window: WINDOW, system: SYSTEM, sent: [] as number[] };
  return { ...recording, events, manager, provider, sent: provider.sent };
}

const cases = Object.keys(down).flatMap((name) => [
  { name, fallback: false },
  { name, fallback: true },
]);

describe('a summarizer that is down for the whole session', () => {
  it.each(cases)(
    'that $name (fallback $fallback): every request fits, nothing is lost from the store',
    async ({ name, fallback }) => {
      const { events, manager, provider, sent, add, appended, transcript } = await downSession(
        down[name]!,
        fallback ? undefined : false,
      );
      let history: Message[] = [];
      for (let turn = 0; turn < 30; turn++) {
        const ask: Message = { role: 'user', content: `Turn ${turn}: run the next check and fix what it reports.` };
        history.push(ask);
        await add(ask);
        const step = await toolStep(manager, history, `call_${turn}`, outputs[turn % outputs.length]!, provider);
        history = step.history;
        await add(...step.added);
      }
      const ends = events.filter((event) => event.type === 'compaction-end');
      const recovered = ends.filter((event) => event.reason === 'overflow');
      if (fallback) {
        // The heuristic summarizer compacts at the threshold: no request overflows, no compaction fails.
        expect(ends.length).toBeGreaterThan(0);
        for (const end of ends) {
          expect(end.error).toBeUndefined();
          expect(end.fallback).toBe('heuristic');
        }
        expect(sent.every((tokens) => tokens <= WINDOW)).toBe(true);
        expect(manager.stats([]).summarizerFallbacks).toBe(ends.length);
      } else {
        // Today's path: threshold compactions fail and back off; each overflow is recovered by the ladder.
        expect(recovered.length).toBeGreaterThan(0);
        for (const end of recovered) expect(end.error).toBeUndefined();
        for (const end of ends) expect(end.fallback).toBeUndefined();
        expect(manager.stats([]).summarizerFallbacks).toBe(0);
      }
      // Each request the provider accepted was within the window.
      expect(sent.filter((tokens) => tokens <= WINDOW).length).toBe(30);
      const stored = await transcript();
      for (const message of appended) expect(stored).toContainEqual(message);
    },
  );
});

/** One user message, then `steps` tool steps of real output through runWithOverflowRecovery: one turn. */
async function longTurn(summarizer: Summarizer, options: { summarizerFallback?: boolean; steps?: number } = {}) {
  const { events, manager, provider, sent, add, appended, transcript } = await downSession(
    summarizer,
    options.summarizerFallback,
  );
  // One user message, then tool step after tool step: the whole run is one turn.
  const ask: Message = { role: 'user', content: 'Get every check in this repository green, one at a time.' };
  let history: Message[] = [ask];
  await add(ask);
  const run = async () => {
    for (let step = 0; step < (options.steps ?? 40); step++) {
      const next = await toolStep(manager, history, `call_${step}`, outputs[step % outputs.length]!, provider);
      history = next.history;
      await add(...next.added);
    }
  };
  return { run, events, sent, manager, transcript, appended };
}

describe('a summarizer that is down during one long agent turn (one user message, many tool steps)', () => {
  it('ends the turn with OVERFLOW_UNRECOVERED when the fallback is turned off (summarizerFallback: false)', async () => {
    const turn = await longTurn(down.throws!, { summarizerFallback: false });
    await expect(turn.run()).rejects.toMatchObject({ code: 'OVERFLOW_UNRECOVERED' });
  });

  it.each(Object.keys(down))(
    'that %s: the heuristic summarizer compacts instead, and the turn goes on',
    async (name) => {
      const turn = await longTurn(down[name]!);
      await turn.run();
      expect(turn.sent.every((tokens) => tokens <= WINDOW)).toBe(true);
      const ends = turn.events.filter((event) => event.type === 'compaction-end');
      expect(ends.length).toBeGreaterThan(0);
      for (const end of ends) {
        expect(end.error).toBeUndefined();
        expect(end.fallback).toBe('heuristic');
        expect(end.summarizerError).toMatchObject({ code: name === 'throws' ? 'SUMMARIZER_FAILED' : 'SUMMARY_EMPTY' });
      }
      expect(turn.manager.stats([]).summarizerFallbacks).toBe(ends.length);
      const transcript = await turn.transcript();
      for (const message of turn.appended) expect(transcript).toContainEqual(message);
    },
  );
});
