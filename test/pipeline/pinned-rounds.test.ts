// Pinned facts must not decay (issue 22): the facts of real failing runs (tsc, node --test, rustc,
// pytest, recorded in test/fixtures/real-batch), none of them resolved, survive five compactions in a
// row, each replacing little more than the last checkpoint, at a small and a normal budget, with the
// heuristic and with a model that paraphrases everything away.
import { compact, heuristicSummarizer, type Message, type Summarizer } from 'ctxkit';
import { type Anchor, pinAnchors } from 'ctxkit/summarizing';
import { toolCallMessage, toolResultMessage, userMessage } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';
import { batchMessages, recorded } from '../fixtures/real-batch/batch.js';

const FAILING = [
  'tsc --noEmit -p .',
  'node --test test/',
  'rustc --edition 2021 --emit=metadata -o /dev/null rust/ledger.rs',
  'python3 -m pytest -q -p no:cacheprovider --junitxml=py-junit.xml py/test_quota.py',
];

/** The call and result of a recorded command. */
function recordedRun(command: string): Message[] {
  const index = recorded.results.findIndex((result) => result.command === command);
  return batchMessages().slice(index * 2, index * 2 + 2);
}

/** Every tsc and rustc error (code and place) and every failing test: the facts the runs state. */
const facts: string[][] = [
  ...recorded.facts.errors
    .filter((error) => /^(TS|E0)\d+$/.test(error.code))
    .map((error) => [error.code, error.location]),
  ...recorded.facts.failingTests.map((test) => [test]),
];

/** A model that keeps none of the facts: anchoring alone must carry them. */
const paraphrasing: Summarizer = {
  async summarize() {
    return 'Worked on the scratch project: several type errors and failing tests remain; the assistant kept investigating.';
  },
};

function keptIn(summary: string): number {
  const text = summary.toLowerCase();
  return facts.filter((keys) => keys.every((key) => text.includes(key.toLowerCase()))).length;
}

describe('pinned facts through five compactions', () => {
  for (const [name, summarizer] of [
    ['the heuristic', heuristicSummarizer],
    ['a paraphrasing model', paraphrasing],
  ] as const) {
    for (const budget of [400, 2_000]) {
      it(`keeps ≥ 95% of ${facts.length} facts after each of 5 rounds with ${name} at a ${budget}-token budget`, async () => {
        let messages: Message[] = [
          userMessage('Get the scratch project building and its tests green.'),
          ...FAILING.flatMap(recordedRun),
        ];
        const kept: number[] = [];
        for (let round = 1; round <= 5; round++) {
          // A little new work each round: the compaction replaces the last checkpoint and not much more.
          const id = `read-${round}`;
          messages.push(
            toolCallMessage([{ id, name: 'read', arguments: { path: `docs/notes-${round}.md` } }]),
            toolResultMessage(id, `notes ${round}: ${'Some prose about the limiter. '.repeat(4)}`, {
              toolName: 'read',
            }),
            userMessage(`Round ${round}: keep going.`),
          );
          const result = await compact(messages, {
            summarizer,
            config: { keepRecentTokens: 60, toolCallCutoff: 4 },
            maxOutputTokens: budget,
          });
          messages = result.messages;
          kept.push(keptIn(result.summary));
        }
        for (const count of kept) expect(count / facts.length).toBeGreaterThanOrEqual(0.95);
      });
    }
  }
});

describe('pinAnchors when the facts outgrow their budget', () => {
  it('drops the oldest of the lowest priority first, and pins the rest in their order', () => {
    const errors: Anchor[] = Array.from({ length: 12 }, (_, index) => ({
      category: 'error',
      text: `src/file-${index}.ts:${index + 1}:1 TS2322: Type mismatch number ${index}.`,
      keys: ['TS2322', `src/file-${index}.ts:${index + 1}:1`],
    }));
    const goal: Anchor = { category: 'goal', text: 'Fix the types.', keys: ['Fix the types.'], required: true };
    const { text, lost } = pinAnchors('', [goal, ...errors], { maxChars: 160 });
    expect(text).toContain('Fix the types.');
    expect(lost.length).toBeGreaterThan(0);
    // What went are the oldest errors; what stayed are the newest, in their order.
    const lostIndexes = lost.map((anchor) => errors.indexOf(anchor));
    const keptIndexes = errors.map((_, index) => index).filter((index) => !lostIndexes.includes(index));
    expect(Math.max(...lostIndexes)).toBeLessThan(Math.min(...keptIndexes));
    const places = keptIndexes.map((index) => text.indexOf(`src/file-${index}.ts`));
    expect(places).toEqual([...places].sort((left, right) => left - right));
  });
});
