import { type Message, summarizeToolResults } from 'ctxkit';
import { createScriptedSummarizer, toolCallMessage, toolResultMessage } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';

function results(count: number, size: number): Message[] {
  return Array.from({ length: count }, (_, index) => [
    toolCallMessage([{ id: `c${index}`, name: 'bash', arguments: { command: `npm run step-${index}` } }]),
    toolResultMessage(`c${index}`, `${'x'.repeat(size)}\nEND-${index}`, { toolName: 'bash' }),
  ]).flat();
}

async function inputOf(messages: Message[], budget: 'scaled' | 'reference' = 'scaled'): Promise<string> {
  const summarizer = createScriptedSummarizer(['ok']);
  await summarizeToolResults(messages, {
    cutoff: 0,
    batch: 0,
    strategy: 'llm',
    summarizer,
    config: { toolSummaryBudget: budget },
  });
  return summarizer.requests[0]!.text;
}

describe('the tool-result summarizer input', () => {
  it('gives each of twenty archived results its share, command and label included', async () => {
    const text = await inputOf(results(20, 2_000));
    expect(text.length).toBeLessThanOrEqual(12_000 + 200);
    for (let index = 0; index < 20; index++) {
      expect(text).toContain(`npm run step-${index}`);
      expect(text).toContain(`END-${index}`);
    }
  });

  it('keeps within the cap when thousands of results are archived at once: the newest that fit', async () => {
    // The input grows with the batch (400 code points per result that did not fail) up to 48,000;
    // 12,000 with the reference budget.
    for (const [budget, cap] of [
      ['scaled', 48_000],
      ['reference', 12_000],
    ] as const) {
      const text = await inputOf(results(3_000, 400), budget);
      expect(text.length).toBeLessThanOrEqual(cap);
      expect(text.length).toBeGreaterThan(cap * 0.9);
      expect(text).toContain('END-2999');
      expect(text).toContain('npm run step-2999');
      expect(text).not.toContain('END-0\n');
      expect(text).not.toContain('npm run step-0"');
    }
  });

  it('keeps the command line and the label of a single 13 KB result', async () => {
    const text = await inputOf(results(1, 13_000));
    expect(text).toContain('npm run step-0');
    expect(text).toContain('[Tool result bash]');
    expect(text).toContain('END-0');
  });
});
