// Provider-native compaction end to end, with the real `openai` and `@anthropic-ai/sdk` clients
// against the loopback servers: a session compacts natively on OpenAI Responses, moves to
// Anthropic, comes back, and has its key rotated; no session dies and no request is refused beyond
// the scripted rotation.

import { describe, expect, test } from 'vitest';
import { ANTHROPIC, OPENAI, runScriptedSession } from './native-session.js';

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
    console.info(
      JSON.stringify({
        ...outcome,
        events: outcome.events.map((e) => e.type),
        manager: undefined,
        store: undefined,
        history: outcome.history.length,
      }),
    );
    const stats = outcome.manager.stats(outcome.history);
    console.info(JSON.stringify(stats.nativeCompactions, null, 1).slice(0, 2000));
    expect(outcome.dead).toBe(0);
    expect(outcome.rejected).toBe(0);
    expect(outcome.nativeCompactions).toBeGreaterThan(0);
    expect(outcome.refused).toBe(1);
  });
});
