/**
 * `npm run bench:fidelity`: how much of what matters survives five rounds of compaction.
 *
 * Scripted sessions (test/fixtures/fidelity-sessions.ts) built from realistic tool outputs declare,
 * round by round, the facts a checkpoint must keep. Each session is compacted after every round, at
 * a normal and a small summary budget, with the heuristic summarizer and with a scripted "model"
 * that drops facts on purpose, each with and without anchoring. A fact is retained when every one
 * of its keys is still in what the model sees after the compaction (the summary, the kept tail and
 * any tool digest). Results go to docs/benchmarks.md, between the fidelity markers only.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { compact, heuristicSummarizer, type Message, type Summarizer } from '../src/index.js';
import { normalizeForCheck } from '../src/summarizing/anchors/normalize.js';
import type { SummaryRequest } from '../src/summarizing/index.js';
import { ANCHOR_CATEGORIES, type AnchorCategory, parseToolOutput } from '../src/summarizing/index.js';

import { type DeclaredFact, fidelitySessions, toolOutput } from '../test/fixtures/fidelity-sessions.js';
import { measureUnseen } from './fidelity-unseen.js';
import { visibleText } from './visible-text.js';

const ROUNDS = 5;
const BUDGETS = [
  { name: 'normal', maxOutputTokens: 2_000 },
  { name: 'small', maxOutputTokens: 400 },
];
const CONFIG = { keepRecentTokens: 600, toolCallCutoff: 4 };

/** The text of a summary answer. */
async function textOf(summarizer: Summarizer, request: SummaryRequest): Promise<string> {
  const answer = await summarizer.summarize(request);
  return typeof answer === 'string' ? answer : answer.text;
}

/**
 * A scripted "model" that writes a plausible checkpoint and drops facts on purpose: it paraphrases
 * the goal, forgets the constraints and decisions, keeps one line in three of the files and
 * commands, and no error location.
 */
const forgetfulModel: Summarizer = {
  async summarize(request) {
    const draft = await textOf(heuristicSummarizer, request);
    const out: string[] = [];
    let section = '';
    let kept = 0;
    for (const line of draft.split('\n')) {
      const heading = /^##+ (.+)$/.exec(line);
      if (heading) {
        section = heading[1]!;
        out.push(line);
        if (section === 'Goal') out.push('- Improve the project as the user asked.');
        continue;
      }
      if (['Goal', 'Constraints & Preferences', 'Key Decisions'].includes(section)) continue;
      if (/\w\.\w+:\d+/.test(line) || /\bTS\d{4}\b|\bE\d{4}\b/.test(line)) continue;
      if (section === 'Files & Commands' && kept++ % 3 !== 0) continue;
      out.push(line);
    }
    return out.join('\n');
  },
};

function retained(fact: DeclaredFact, text: string): boolean {
  return fact.keys.every((key) => text.includes(normalizeForCheck(key)));
}

interface Tally {
  kept: number;
  total: number;
}
const add = (tally: Tally, kept: boolean) => {
  tally.total++;
  if (kept) tally.kept++;
};
const percent = (tally: Tally | undefined) =>
  tally === undefined || tally.total === 0 ? '–' : `${Math.round((100 * tally.kept) / tally.total)}%`;

interface Run {
  summarizer: string;
  budget: string;
  anchoring: boolean;
  byRound: Tally[];
  byCategory: Map<AnchorCategory, Tally>;
  required: Tally;
  failures: number;
}

async function runOne(
  name: string,
  base: Summarizer,
  budget: (typeof BUDGETS)[number],
  anchoring: boolean,
): Promise<Run> {
  const run: Run = {
    summarizer: name,
    budget: budget.name,
    anchoring,
    byRound: Array.from({ length: ROUNDS }, () => ({ kept: 0, total: 0 })),
    byCategory: new Map(),
    required: { kept: 0, total: 0 },
    failures: 0,
  };
  for (const session of fidelitySessions()) {
    const summarizer = base;
    let context: Message[] = [];
    const declared: DeclaredFact[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const step = session.rounds[round];
      if (step) {
        context = [...context, ...step.messages];
        declared.push(...step.facts);
      }
      try {
        const result = await compact(context, {
          summarizer,
          config: CONFIG,
          maxOutputTokens: budget.maxOutputTokens,
          anchoring,
        });
        context = result.messages;
      } catch {
        run.failures++;
      }
      const text = visibleText(context);
      for (const fact of declared) {
        const kept = retained(fact, text);
        add(run.byRound[round]!, kept);
        if (round === ROUNDS - 1) {
          const tally = run.byCategory.get(fact.category) ?? { kept: 0, total: 0 };
          run.byCategory.set(fact.category, tally);
          add(tally, kept);
          if (fact.category === 'goal' || fact.category === 'constraint') add(run.required, kept);
        }
      }
    }
  }
  return run;
}

function parserThroughput(): string {
  const names = [
    'tsc.txt',
    'node-test-tap.txt',
    'vitest.txt',
    'pytest.txt',
    'cargo-test.txt',
    'eslint.txt',
    'git-diff.txt',
    'unknown.txt',
  ];
  const texts = names.map(toolOutput);
  const bytes = texts.reduce((sum, text) => sum + text.length, 0);
  for (let index = 0; index < 200; index++) for (const text of texts) parseToolOutput(text);
  const repeats = 2_000;
  const started = performance.now();
  for (let index = 0; index < repeats; index++) for (const text of texts) parseToolOutput(text);
  const seconds = (performance.now() - started) / 1000;
  const perOutput = (seconds * 1e6) / (repeats * texts.length);
  return `Parsing (detection and one parser pass) runs at ${((bytes * repeats) / seconds / 1e6).toFixed(1)} MB/s over the fixtures (${perOutput.toFixed(0)} µs per output of ${Math.round(bytes / texts.length)} characters on average).`;
}

function render(runs: readonly Run[]): string {
  const sessions = fidelitySessions();
  const facts = sessions.flatMap((session) => session.rounds.flatMap((round) => round.facts));
  const lines = [
    '<!-- fidelity:start -->',
    '## Retention of facts through compaction',
    '',
    'Written by `npm run bench:fidelity` (bench/fidelity.ts); deterministic, so the figures do not vary',
    `between runs. ${sessions.length} scripted sessions (${sessions.map((session) => session.name).join(', ')}) built from`,
    `realistic tool outputs declare ${facts.length} facts over ${ROUNDS} rounds; after each round the session is compacted`,
    `(\`keepRecentTokens\` ${CONFIG.keepRecentTokens}, \`toolCallCutoff\` ${CONFIG.toolCallCutoff}) with a summary budget of`,
    `${BUDGETS.map((budget) => `${budget.maxOutputTokens} tokens (${budget.name})`).join(' or ')}. A fact is retained when each of its keys`,
    "(a goal in the user's words, an error code and its `file:line:col`, a failing test's name, a path…) is still",
    'in what the model sees. "Scripted model" paraphrases the goal and drops constraints, decisions, error',
    "locations and two files in three on purpose; anchoring (`compact`'s `anchoring` option, on by default)",
    'must put them back.',
    '',
    '### All declared facts, after each round',
    '',
    `| summarizer | budget | anchoring | ${Array.from({ length: ROUNDS }, (_, index) => `round ${index + 1}`).join(' | ')} | goal and constraints | failed compactions |`,
    `| --- | --- | --- | ${Array.from({ length: ROUNDS }, () => '---:').join(' | ')} | ---: | ---: |`,
  ];
  for (const run of runs) {
    lines.push(
      `| ${run.summarizer} | ${run.budget} | ${run.anchoring ? 'on' : 'off'} | ${run.byRound.map(percent).join(' | ')} | ${percent(run.required)} | ${run.failures} |`,
    );
  }
  const categories = ANCHOR_CATEGORIES.filter((category) => facts.some((fact) => fact.category === category));
  lines.push(
    '',
    `### By category after round ${ROUNDS}: with anchoring / without`,
    '',
    `| summarizer | budget | ${categories.map((category) => `${category} (${facts.filter((fact) => fact.category === category).length})`).join(' | ')} |`,
    `| --- | --- | ${categories.map(() => '---:').join(' | ')} |`,
  );
  for (const run of runs.filter((entry) => entry.anchoring)) {
    const without = runs.find(
      (entry) => !entry.anchoring && entry.summarizer === run.summarizer && entry.budget === run.budget,
    );
    const cells = categories.map(
      (category) => `${percent(run.byCategory.get(category))} / ${percent(without?.byCategory.get(category))}`,
    );
    lines.push(`| ${run.summarizer} | ${run.budget} | ${cells.join(' | ')} |`);
  }
  lines.push('', parserThroughput(), '<!-- fidelity:end -->');
  return lines.join('\n');
}

/** Replaces the fidelity block of docs/benchmarks.md (or appends it); the rest of the file is left alone. */
function writeBlock(block: string): void {
  const file = new URL('../docs/benchmarks.md', import.meta.url);
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = '# Benchmarks\n';
  }
  const start = current.indexOf('<!-- fidelity:start -->');
  const end = current.indexOf('<!-- fidelity:end -->');
  const next =
    start >= 0 && end > start
      ? `${current.slice(0, start)}${block}${current.slice(end + '<!-- fidelity:end -->'.length)}`
      : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
}

const runs: Run[] = [];
for (const [name, summarizer] of [
  ['heuristic', heuristicSummarizer],
  ['scripted model', forgetfulModel],
] as const) {
  for (const budget of BUDGETS) {
    for (const anchoring of [true, false]) runs.push(await runOne(name, summarizer, budget, anchoring));
  }
}
const block = render(runs);
writeBlock(block);
console.log(block);

/** Replaces the unseen-output block of docs/fidelity.md (or appends it). */
function writeUnseen(unseen: string): void {
  const file = new URL('../docs/fidelity.md', import.meta.url);
  const current = readFileSync(file, 'utf8');
  const start = current.indexOf('<!-- unseen:start -->');
  const end = current.indexOf('<!-- unseen:end -->');
  const next =
    start >= 0 && end > start
      ? `${current.slice(0, start)}${unseen}${current.slice(end + '<!-- unseen:end -->'.length)}`
      : `${current.trimEnd()}\n\n${unseen}\n`;
  writeFileSync(file, next);
}

const unseen = await measureUnseen({ printLost: process.argv.includes('--lost') });
writeUnseen(unseen);
console.log(unseen);
