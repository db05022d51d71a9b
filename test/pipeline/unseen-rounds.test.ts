// Five compaction rounds on output nobody tuned for (issue 22): the runs of the real tools recorded by
// bench/tool-corpus.ts (`npm run corpus`), four a round, each round compacting the whole context. The
// facts are the tools' own (tsc `--pretty false`, junit and JSON reporters, libtest JSON, `grep -o`,
// `git status --porcelain`), never the parsers': every error code and place, every failing test with
// its place and assertion, every grep match, every changed file, every command and failing exit.
import { readFileSync } from 'node:fs';
import { compact, heuristicSummarizer, type Message, type Summarizer } from 'ctxkit';
import { assistantMessage, userMessage } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';
import type { CorpusEntry, CorpusFact, ToolCorpus } from '../../bench/tool-corpus.js';
import { visibleText } from '../../bench/visible-text.js';
import { normalizeForCheck } from '../../src/summarizing/anchors/normalize.js';
import { corpusRun } from '../helpers/tool-runs.js';

const corpus = JSON.parse(
  readFileSync(new URL('../fixtures/tool-outputs/real/corpus.json', import.meta.url), 'utf8'),
) as ToolCorpus;

/** A model that keeps no fact of its own: what survives is what ctxkit pins. */
const paraphrasing: Summarizer = {
  async summarize() {
    return 'Ran the checks of the round; several still fail and the assistant is working through them.';
  },
};

/** The tools' own notations read as the keys write them: `path(line,col)`, `File "path", line N`. */
function sameNotation(text: string): string {
  return text
    .replace(/\\"/g, '"')
    .replace(/([\w./-]+)\((\d+),(\d+)\)/g, '$1:$2:$3')
    .replace(/File "([^"]+)", line (\d+)/g, '$1:$2')
    .replace(/\bexit code (-?\d+)/g, 'exit $1');
}

function kept(text: string, fact: CorpusFact): boolean {
  return fact.keys.every((key) => text.includes(sameNotation(normalizeForCheck(key))));
}

/** The facts a session states about a run: its command, its facts, and `exit N` when it failed. */
function factsOf(entry: CorpusEntry): CorpusFact[] {
  return [
    { kind: 'command', keys: [entry.command] },
    ...entry.facts.filter((fact) => fact.kind !== 'exit' || entry.exitCode !== 0),
  ];
}

/** Retention after each of five rounds; a command run again supersedes its earlier run's facts. */
async function rounds(summarizer: Summarizer, maxOutputTokens: number, offset: number): Promise<number[]> {
  const entries = corpus.entries;
  let context: Message[] = [];
  const latest = new Map<string, CorpusFact[]>();
  const shares: number[] = [];
  for (let round = 0; round < 5; round++) {
    context.push(userMessage(`Round ${round + 1}: run the next checks and fix what fails.`));
    for (let step = 0; step < 4; step++) {
      const entry = entries[(offset + round * 4 + step) % entries.length]!;
      context.push(...corpusRun(entry, `call_${round}_${step}`));
      latest.delete(entry.command);
      latest.set(entry.command, factsOf(entry));
    }
    context.push(assistantMessage('Looked at the results; moving on.'));
    const result = await compact(context, {
      summarizer,
      config: { keepRecentTokens: 600, toolCallCutoff: 4 },
      maxOutputTokens,
    });
    context = result.messages;
    const text = sameNotation(visibleText(context));
    const facts = [...new Map([...latest.values()].flat().map((fact) => [JSON.stringify(fact), fact])).values()];
    shares.push(facts.filter((fact) => kept(text, fact)).length / facts.length);
  }
  return shares;
}

describe('five compaction rounds on the real tools’ output', () => {
  for (const [name, summarizer] of [
    ['the heuristic', heuristicSummarizer],
    ['a model that keeps no fact', paraphrasing],
  ] as const) {
    for (const budget of [400, 2_000]) {
      it(`keeps ≥ 95% of the current facts after every round with ${name} at ${budget} tokens`, async () => {
        for (const offset of [0, 7]) {
          const shares = await rounds(summarizer, budget, offset);
          for (const share of shares) expect(share).toBeGreaterThanOrEqual(0.95);
        }
      });
    }
  }
});
