// A batch of 31 results recorded by running real tools (test/fixtures/real-batch/generate.ts), its
// facts taken from the tools' structured output: what the manager's batch summary keeps of them, what
// a model summarizer is given, and the budget rule behind both.

import {
  type ContextEvent,
  createContextManager,
  heuristicSummarizer,
  type Message,
  summarizeToolResults,
} from 'ctxkit';

type ToolResultsSummarizedEvent = Extract<ContextEvent, { type: 'tool-results-summarized' }>;

import type { SummaryRequest } from 'ctxkit/summarizing';
import { describe, expect, it } from 'vitest';
import { batchBudget } from '../../src/summarizing/tool-output/batch-budget.js';
import { batchMessages, factsKept, recorded } from '../fixtures/real-batch/batch.js';

/** Ten short results after the batch, so that, with the default cutoff of 10, the recorded 31 are archived. */
function tail(): Message[] {
  const messages: Message[] = [];
  for (let index = 0; index < 10; index++) {
    messages.push(
      {
        role: 'assistant',
        content: [{ type: 'toolCall', id: `tail-${index}`, name: 'read', arguments: { path: `notes/${index}.md` } }],
      },
      {
        role: 'toolResult',
        toolCallId: `tail-${index}`,
        toolName: 'read',
        content: [{ type: 'text', text: `note ${index}` }],
        isError: false,
      },
    );
  }
  return messages;
}

const conversation: Message[] = [
  { role: 'user', content: 'Get the scratch project building and its tests green.' },
  ...batchMessages(),
  ...tail(),
];

describe('a default batch of real tool output', () => {
  it('the manager archives 31 results at once under a heuristic summary that keeps ≥ 95% of their facts and names every command with its exit status', async () => {
    const events: ContextEvent[] = [];
    const manager = createContextManager({
      summarizer: heuristicSummarizer,
      contextWindow: 200_000,
      config: { toolSummaryStrategy: 'heuristic' },
      onEvent: (event) => events.push(event),
    });
    await manager.prepare(conversation);
    const archived = events.find(
      (event): event is ToolResultsSummarizedEvent => event.type === 'tool-results-summarized',
    );
    expect(archived?.archived).toBe(recorded.results.length);
    const kept = factsKept(archived!.summary);
    expect(kept.commands, kept.lost.join('\n')).toBe(recorded.results.length);
    expect(kept.share, kept.lost.join('\n')).toBeGreaterThanOrEqual(0.95);
    expect(kept.failingTests).toBe(recorded.facts.failingTests.length);
    expect(kept.errors).toBe(recorded.facts.errors.length);
    // Java's and Python's inner frames too (the stack-trace digest lists the frames that called).
    expect(kept.locations, kept.lost.join('\n')).toBe(recorded.facts.locations.length);
    // Each call's line says how it ended; no result's digest spends characters saying it again.
    expect(archived!.summary).not.toContain('exit status unknown');
  });

  it('a compaction right after the archive keeps ≥ 95% of the facts in what the model sees', async () => {
    const events: ContextEvent[] = [];
    const manager = createContextManager({
      summarizer: heuristicSummarizer,
      contextWindow: 12_000,
      config: { toolSummaryStrategy: 'heuristic', reserveTokens: 4_000, keepRecentTokens: 2_000 },
      onEvent: (event) => events.push(event),
    });
    const reads = tail().map((message) =>
      message.role === 'toolResult'
        ? { ...message, content: [{ type: 'text' as const, text: 'Some prose. '.repeat(200) }] }
        : message,
    );
    const history: Message[] = [conversation[0]!, ...batchMessages(), ...reads, { role: 'user', content: 'Carry on.' }];
    const { messages } = await manager.prepare(history);
    expect(events.some((event) => event.type === 'compaction-end' && event.error === undefined)).toBe(true);
    const seen = messages
      .map((message) =>
        typeof message.content === 'string'
          ? message.content
          : message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n'),
      )
      .join('\n');
    const kept = factsKept(seen);
    expect(kept.share, kept.lost.join('\n')).toBeGreaterThanOrEqual(0.95);
  });

  it('puts the results that failed first', async () => {
    const { summary } = await summarizeToolResults(conversation, { strategy: 'heuristic' });
    const lines = summary!.split('\n').filter((line) => line.startsWith('- '));
    const firstOk = lines.findIndex((line) => /: ok$/.test(line));
    expect(firstOk).toBeGreaterThan(0);
    expect(lines.slice(firstOk).every((line) => /: ok$/.test(line))).toBe(true);
    expect(lines.slice(0, firstOk).every((line) => /exit code [1-9]/.test(line))).toBe(true);
  });

  it('gives a model summarizer ≥ 95% of the facts and every command, in its input', async () => {
    const requests: SummaryRequest[] = [];
    const summarizer = {
      async summarize(request: SummaryRequest) {
        requests.push(request);
        return 'The build fails in tsc, rustc, javac; node --test and pytest fail.';
      },
    };
    await summarizeToolResults(conversation, { strategy: 'llm', summarizer });
    const kept = factsKept(requests[0]!.text, { commandsAnywhere: true });
    expect(kept.commands).toBe(recorded.results.length);
    expect(kept.share, kept.lost.join('\n')).toBeGreaterThanOrEqual(0.95);
    expect(requests[0]!.text).not.toContain('exit status unknown');
    // Its answer is asked for in proportion to the batch, above the reference 1,200 code points.
    expect(requests[0]!.maxOutputTokens).toBeGreaterThan(600);
  });

  it('names a call repeated with the same output without digesting its output again', async () => {
    const again = batchMessages()
      .slice(0, 2)
      .map((message) =>
        message.role === 'assistant'
          ? {
              ...message,
              content: message.content.map((part) => (part.type === 'toolCall' ? { ...part, id: 'again' } : part)),
            }
          : message.role === 'toolResult'
            ? { ...message, toolCallId: 'again' }
            : message,
      );
    const repeated: Message[] = [conversation[0]!, ...batchMessages(), ...again, ...tail()];
    const { summary } = await summarizeToolResults(repeated, { strategy: 'heuristic' });
    const command = recorded.results[0]!.command;
    const lines = summary!.split('\n').filter((line) => line.includes(command));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/— same output as above$/);
    const requests: SummaryRequest[] = [];
    await summarizeToolResults(repeated, {
      strategy: 'llm',
      summarizer: {
        async summarize(request: SummaryRequest) {
          requests.push(request);
          return 'ok';
        },
      },
    });
    expect(requests[0]!.text.split('(the same output as the same call above)')).toHaveLength(2);
  });

  it('keeps seed 001’s fixed budgets with toolSummaryBudget: reference (800 code points for 31 results)', async () => {
    const { summary } = await summarizeToolResults(conversation, {
      strategy: 'heuristic',
      config: { toolSummaryBudget: 'reference' },
    });
    expect([...summary!].length).toBeLessThanOrEqual(800);
    expect(factsKept(summary!).share).toBeLessThan(0.5);
  });
});

describe('batchBudget', () => {
  it('grows by 640 code points per failed result and 120 per other, from the reference floor to a third of what is archived', () => {
    expect(batchBudget([{ failed: false, chars: 100 }], 'scaled')).toEqual({
      heuristicChars: 800,
      modelChars: 1_200,
      inputChars: 12_000,
    });
    const batch = [...Array(10)].map((_, index) => ({ failed: index < 4, chars: 30_000 }));
    expect(batchBudget(batch, 'scaled')).toEqual({
      heuristicChars: 4 * 640 + 6 * 120,
      modelChars: Math.ceil((4 * 640 + 6 * 120) * 1.5),
      inputChars: 12_000,
    });
    // A third of what the results take, when that is less.
    expect(
      batchBudget(
        [...Array(10)].map(() => ({ failed: true, chars: 600 })),
        'scaled',
      ).heuristicChars,
    ).toBe(2_000);
    // At most 16,000 however many fail; the input at most 48,000.
    const huge = [...Array(100)].map(() => ({ failed: true, chars: 50_000 }));
    expect(batchBudget(huge, 'scaled')).toEqual({ heuristicChars: 16_000, modelChars: 16_000, inputChars: 48_000 });
    expect(batchBudget(huge, 'reference')).toEqual({ heuristicChars: 800, modelChars: 1_200, inputChars: 12_000 });
  });
});
