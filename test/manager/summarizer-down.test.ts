// A summarizer that is down for the whole session (every call throws, or answers with nothing): a
// session of real tool output (the recorded runs of `npm run corpus`, test/fixtures/tool-outputs/real)
// on a 16K window through runWithOverflowRecovery. By default the heuristic summarizer writes each
// checkpoint in its place, so nothing overflows. With `summarizerFallback: false`, threshold
// compactions fail and back off; once the provider rejects a request as too long, the recovery ladder
// must still bring it under the window, or the session ends at the first overflow. Also one long
// agent turn (one user message, many tool steps), where a second overflow ends the turn.
import { readFileSync } from 'node:fs';
import {
  type AssistantMessage,
  approximateCounter,
  type ContextEvent,
  createContextManager,
  createInMemorySessionStore,
  type Message,
  type Summarizer,
  sumMessageTokens,
} from 'ctxkit';
import { checkToolPairing } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';

const WINDOW = 16_000;
const SYSTEM = 'You are a coding agent.';
interface Corpus {
  entries: { name: string; command: string; output: string }[];
  texts: { name: string; text: string }[];
}
const corpus = JSON.parse(
  readFileSync(new URL('../fixtures/tool-outputs/real/corpus.json', import.meta.url), 'utf8'),
) as Corpus;
const outputs = [
  ...corpus.entries.map((entry) => ({ command: entry.command, text: entry.output })),
  ...corpus.texts.map((text) => ({ command: `cat ${text.name}`, text: text.text })),
];

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

function assistantCall(id: string, command: string, tokens: number): AssistantMessage {
  return {
    role: 'assistant',
    content: [{ type: 'toolCall', id, name: 'bash', arguments: { command } }],
    stopReason: 'toolUse',
    usage: { input: tokens, output: 20 },
  };
}

const cases = Object.keys(down).flatMap((name) => [
  { name, fallback: false },
  { name, fallback: true },
]);

describe('a summarizer that is down for the whole session', () => {
  it.each(cases)(
    'that $name (fallback $fallback): every request fits, nothing is lost from the store',
    async ({ name, fallback }) => {
      const events: ContextEvent[] = [];
      const store = createInMemorySessionStore();
      const { id: sessionId } = await store.createSession();
      const manager = createContextManager({
        contextWindow: WINDOW,
        summarizer: down[name]!,
        systemPrompt: SYSTEM,
        store,
        sessionId,
        onEvent: (event) => events.push(event),
        ...(fallback ? {} : { summarizerFallback: false }),
      });
      const sent: number[] = [];
      const appended: Message[] = [];
      let history: Message[] = [];
      const add = async (...messages: Message[]) => {
        for (const message of messages) {
          appended.push(message);
          await store.appendEntry(sessionId, { type: 'message', message });
        }
      };
      for (let turn = 0; turn < 30; turn++) {
        const ask: Message = { role: 'user', content: `Turn ${turn}: run the next check and fix what it reports.` };
        history.push(ask);
        await add(ask);
        const output = outputs[turn % outputs.length]!;
        const id = `call_${turn}`;
        const { result, history: kept } = await manager.runWithOverflowRecovery(history, async (messages) => {
          checkToolPairing(messages);
          // The provider counts what it is sent as the manager's default counter does.
          const tokens = sumMessageTokens(messages, approximateCounter) + approximateCounter.count(SYSTEM);
          sent.push(tokens);
          if (tokens > WINDOW)
            throw Object.assign(new Error(`prompt is too long: ${tokens} tokens > ${WINDOW} maximum`), { status: 400 });
          return assistantCall(id, output.command, tokens);
        });
        const answer: Message = {
          role: 'toolResult',
          toolCallId: id,
          toolName: 'bash',
          content: [{ type: 'text', text: output.text }],
        };
        history = [...kept, result, answer];
        await add(result, answer);
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
      const transcript = (await store.getMessages(sessionId)).map((entry) => entry.message);
      for (const message of appended) expect(transcript).toContainEqual(message);
    },
  );
});

/** One user message, then `steps` tool steps of real output through runWithOverflowRecovery: one turn. */
async function longTurn(summarizer: Summarizer, options: { summarizerFallback?: boolean; steps?: number } = {}) {
  const events: ContextEvent[] = [];
  const store = createInMemorySessionStore();
  const { id: sessionId } = await store.createSession();
  const manager = createContextManager({
    contextWindow: WINDOW,
    summarizer,
    systemPrompt: SYSTEM,
    store,
    sessionId,
    onEvent: (event) => events.push(event),
    ...(options.summarizerFallback === undefined ? {} : { summarizerFallback: options.summarizerFallback }),
  });
  const sent: number[] = [];
  const appended: Message[] = [];
  const add = async (...messages: Message[]) => {
    for (const message of messages) {
      appended.push(message);
      await store.appendEntry(sessionId, { type: 'message', message });
    }
  };
  // One user message, then tool step after tool step: the whole run is one turn.
  const ask: Message = { role: 'user', content: 'Get every check in this repository green, one at a time.' };
  let history: Message[] = [ask];
  await add(ask);
  const run = async () => {
    for (let step = 0; step < (options.steps ?? 40); step++) {
      const output = outputs[step % outputs.length]!;
      const id = `call_${step}`;
      const { result, history: kept } = await manager.runWithOverflowRecovery(history, async (messages) => {
        checkToolPairing(messages);
        const tokens = sumMessageTokens(messages, approximateCounter) + approximateCounter.count(SYSTEM);
        sent.push(tokens);
        if (tokens > WINDOW)
          throw Object.assign(new Error(`prompt is too long: ${tokens} tokens > ${WINDOW} maximum`), { status: 400 });
        return assistantCall(id, output.command, tokens);
      });
      const answer: Message = {
        role: 'toolResult',
        toolCallId: id,
        toolName: 'bash',
        content: [{ type: 'text', text: output.text }],
      };
      history = [...kept, result, answer];
      await add(result, answer);
    }
  };
  return {
    run,
    events,
    sent,
    manager,
    transcript: async () => (await store.getMessages(sessionId)).map((entry) => entry.message),
    appended,
  };
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
