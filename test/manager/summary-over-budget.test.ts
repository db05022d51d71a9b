// A summarizer that ignores its output budget (a completion function that never passes
// maxOutputTokens on, a model that rambles): a session of real tool output (the recorded tsc,
// vitest, git diff and grep runs of test/fixtures/tool-outputs) on a 16K window. Its checkpoints
// must still leave the context under the limit, or every later request overflows and no rung of
// the recovery ladder can shrink a checkpoint: the session could not go on.
import { readFileSync } from 'node:fs';
import { type ContextEvent, createContextManager, type Message, type Summarizer } from 'ctxkit';
import { describe, expect, it } from 'vitest';
import { type ToolOutput, toolStep } from './tool-session.js';

const WINDOW = 16_000;
const SYSTEM = 'You are a coding agent.';
const outputs: ToolOutput[] = ['tsc.txt', 'vitest.txt', 'git-diff.txt', 'grep.txt', 'stack-python.txt'].map((name) => ({
  command: name.replace('.txt', ''),
  text: readFileSync(new URL(`../fixtures/tool-outputs/${name}`, import.meta.url), 'utf8'),
}));

/** Whole sentences, one a line, about ten times the budget it is given. */
const rambling: Summarizer = {
  async summarize(request) {
    const lines = Array.from(
      { length: Math.ceil(request.maxOutputTokens / 2) },
      (_, index) => `- Step ${index}: the agent ran the checks again and read the output once more.`,
    );
    return { text: `## Goal\nFix the failing checks.\n\n## Progress\n${lines.join('\n')}`, stopReason: 'stop' };
  },
};

describe('a summarizer that writes past its budget', () => {
  it('leaves the context under the limit after each compaction, so the session goes on', async () => {
    const events: ContextEvent[] = [];
    const manager = createContextManager({
      contextWindow: WINDOW,
      summarizer: rambling,
      systemPrompt: SYSTEM,
      onEvent: (event) => events.push(event),
    });
    const limit = WINDOW - manager.config.reserveTokens;
    const sent: number[] = [];
    const provider = { window: WINDOW, system: SYSTEM, sent };
    let history: Message[] = [];
    for (let turn = 0; turn < 80; turn++) {
      history.push({ role: 'user', content: `Turn ${turn}: run the next check and fix what it reports.` });
      // The provider counts what it is sent as the manager's default counter does.
      history = (await toolStep(manager, history, `call_${turn}`, outputs[turn % outputs.length]!, provider)).history;
    }
    const ends = events.filter((event) => event.type === 'compaction-end');
    expect(ends.length).toBeGreaterThan(0);
    expect(ends.filter((event) => event.error !== undefined)).toEqual([]);
    for (const end of ends) {
      expect(end.tokensAfter).toBeLessThanOrEqual(limit);
      // Cut at a line's end, never inside a sentence: every step the summary kept is whole.
      const steps = (end.summary ?? '').split('\n').filter((line) => line.startsWith('- Step'));
      expect(steps.length).toBeGreaterThan(0);
      for (const step of steps)
        expect(step).toMatch(/^- Step \d+: the agent ran the checks again and read the output once more\.$/);
    }
    expect(Math.max(...sent)).toBeLessThanOrEqual(WINDOW);
  });
});
