// Provider-native compaction end to end, with the real `openai` and `@anthropic-ai/sdk` clients
// against the loopback servers: a session compacts natively on OpenAI Responses, moves to
// Anthropic, comes back, and has its key rotated; no session dies and no request is refused beyond
// the scripted rotation. Then the same from Anthropic, and a resume from the store after a restart.

import {
  buildContextFromBranch,
  createContextManager,
  heuristicSummarizer,
  type Message,
  nativeCompaction,
  resolveNativeCompactions,
} from 'ctxkit';
import { describe, expect, test } from 'vitest';
import { ANTHROPIC, OPENAI, runScriptedSession } from './native-session.js';

const payloads = (messages: readonly Message[]) => JSON.stringify(messages).split('"encrypted_content"').length - 1;

describe('native compaction through the real clients', () => {
  test('OpenAI native compaction → Anthropic → back → key rotated: 0 dead, 0 unexpected refusals', async () => {
    const outcome = await runScriptedSession({
      compaction: 'native',
      contextWindow: 60_000,
      legs: [
        { target: OPENAI, turns: 8 },
        { target: ANTHROPIC, turns: 3 },
        { target: OPENAI, turns: 3 },
        { target: OPENAI, turns: 3, rotateKey: true },
      ],
    });
    expect(outcome.dead).toBe(0);
    expect(outcome.answered).toBe(outcome.facts);
    expect(outcome.rejected).toBe(0);
    // The one refusal is the scripted rotation, answered by splicing in the portable summary.
    expect(outcome.refused).toBe(1);
    expect(outcome.nativeCompactions).toBeGreaterThanOrEqual(1);
    expect(outcome.clientCompactions).toBe(0);
    const actions = outcome.events.flatMap((event) => (event.type === 'native-compaction' ? [event.action] : []));
    expect(actions).toContain('adopted');
    expect(actions).toContain('summarized');
    expect(actions).toContain('refused');
    // A readable summary for every compaction, in the inspector's source.
    const reports = outcome.manager.stats(outcome.history).nativeCompactions;
    expect(reports.length).toBe(outcome.nativeCompactions);
    for (const report of reports) expect(report.summary).toMatch(/FACT-1=/);
    expect(outcome.factsKept).toBe(outcome.facts);
  });

  test("the longer script keeps every fact: a provider's summary in its own format loses none on the next update", async () => {
    const outcome = await runScriptedSession({
      compaction: 'native',
      contextWindow: 60_000,
      legs: [
        { target: OPENAI, turns: 10 },
        { target: ANTHROPIC, turns: 4 },
        { target: OPENAI, turns: 4 },
        { target: OPENAI, turns: 4, rotateKey: true },
      ],
    });
    expect(outcome.dead).toBe(0);
    expect(outcome.rejected).toBe(0);
    expect(outcome.factsKept).toBe(outcome.facts);
  });

  test('Anthropic native compaction → OpenAI → back → key rotated, its cost reported, no summarizer call', async () => {
    const outcome = await runScriptedSession({
      compaction: 'native',
      contextWindow: 60_000,
      legs: [
        { target: ANTHROPIC, turns: 8 },
        { target: OPENAI, turns: 3 },
        { target: ANTHROPIC, turns: 3 },
        { target: ANTHROPIC, turns: 3, rotateKey: true },
      ],
    });
    expect(outcome.dead).toBe(0);
    expect(outcome.rejected).toBe(0);
    expect(outcome.refused).toBe(1);
    expect(outcome.summarizerCalls).toBe(0);
    const reports = outcome.manager.stats(outcome.history).nativeCompactions;
    expect(reports.length).toBeGreaterThan(0);
    for (const report of reports) {
      expect(report.provider).toBe('anthropic');
      // usage.iterations[]'s compaction step, which the top-level usage leaves out.
      expect(report.usage!.input).toBeGreaterThan(40_000);
      expect(report.summary).toContain('## Compacted conversation');
    }
  });

  test('resumed from the store after a restart: the payload only to its maker, the portable summary written from the stored entries', async () => {
    const outcome = await runScriptedSession({
      compaction: 'native',
      contextWindow: 60_000,
      legs: [{ target: OPENAI, turns: 8 }],
    });
    expect(outcome.nativeCompactions).toBe(1);
    const entries = await outcome.store.getEntries(outcome.sessionId);
    // The branch as it stood when the compaction was taken in, before any portable summary.
    const adopted = entries.find((entry) => entry.type === 'compaction')!;
    expect(adopted).toMatchObject({ summary: '', native: { provider: 'openai' } });
    const context = buildContextFromBranch(entries, { leafId: adopted.id });
    expect(context.messages[0]!.meta?.native?.provider).toBe('openai');
    expect(payloads(resolveNativeCompactions(context.messages, { target: OPENAI }).messages)).toBe(1);
    expect(payloads(resolveNativeCompactions(context.messages, { target: ANTHROPIC }).messages)).toBe(0);
    // A new process: a manager that never saw the compacted span writes its summary from the store.
    let calls = 0;
    const manager = createContextManager({
      contextWindow: 60_000,
      summarizer: {
        summarize(request) {
          calls++;
          return heuristicSummarizer.summarize(request);
        },
      },
      store: outcome.store,
      sessionId: outcome.sessionId,
      compaction: nativeCompaction('native'),
    });
    const moved = await manager.prepare(context.messages, { target: ANTHROPIC });
    expect(calls).toBe(1);
    expect(payloads(moved.messages)).toBe(0);
    expect(String(moved.messages[0]!.content)).toContain('FACT-1=');
  });
});
