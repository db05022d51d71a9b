// The manager counts a long message once per object: the projection, its rebuild after a
// compaction, the compaction's plan and overflow recovery share one count of each tool output.
import { createContextManager, type Message, referenceCounter, type TokenCounter } from 'ctxkit';
import { createScriptedSummarizer, toolCallMessage, toolResultMessage, userMessage } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';

/** A counter that counts like the reference one and records how often it read each text. */
function recordingCounter(): TokenCounter & { reads: Map<string, number> } {
  const reads = new Map<string, number>();
  return {
    name: 'recording',
    reads,
    count(text) {
      reads.set(text, (reads.get(text) ?? 0) + 1);
      return referenceCounter.count(text);
    },
  };
}

/** A distinct output of about 1,600 characters (400 tokens under the reference counter). */
function output(step: number): string {
  return Array.from({ length: 40 }, (_, line) => `step ${step} line ${line}: ok ${'x'.repeat(24)}`).join('\n');
}

describe('counting each tool output once', () => {
  it('reads a kept tool output once across calls, compactions and their rebuilds', async () => {
    const counter = recordingCounter();
    const manager = createContextManager({
      summarizer: createScriptedSummarizer([], { afterScript: 'SUMMARY of the work so far' }),
      contextWindow: 8_000,
      counter,
      config: { reserveTokens: 1_000, keepRecentTokens: 2_000, toolSummaryStrategy: 'off' },
    });
    let history: Message[] = [userMessage('run the steps')];
    let compactions = 0;
    const outputs: string[] = [];
    for (let step = 0; step < 30; step++) {
      const text = output(step);
      outputs.push(text);
      history = [...history, toolCallMessage([{ id: `c${step}`, name: 'bash', arguments: { step } }])];
      history = [...history, toolResultMessage(`c${step}`, text, { toolName: 'bash' })];
      const prepared = await manager.prepare(history);
      if (prepared.compacted) compactions++;
      history = prepared.history;
    }
    expect(compactions).toBeGreaterThan(0);
    const counted = outputs.filter((text) => counter.reads.has(text));
    expect(counted.length).toBe(outputs.length);
    expect(counted.map((text) => counter.reads.get(text))).toEqual(counted.map(() => 1));
  });
});
