/**
 * The unseen-output half of `npm run bench:fidelity`: retention measured on tool output produced
 * fresh by running the real tools (bench/tool-corpus.ts), with the facts taken from the tools'
 * structured output, never from the parsers under test.
 *
 * - one output through `summarizeToolOutput` (800 code points, the exit status passed as a host
 *   would), by kind of fact and by tool;
 * - a batch of 31 results archived at once (`summarizeToolResults`, the manager's default batch):
 *   the heuristic summary, what an LLM tool summarizer is given, and what a paraphrasing scripted
 *   model's summary leaves the model seeing;
 * - five rounds of compaction at a normal and a small budget, heuristic and paraphrasing model;
 * - the approximate counter on 2,000-character chunks of the same output (and of `git log -p`).
 */
import { execFileSync } from 'node:child_process';
import {
  approximateCounter,
  compact,
  heuristicSummarizer,
  type Message,
  type Summarizer,
  summarizeToolResults,
} from '../src/index.js';
import { normalizeForCheck } from '../src/summarizing/anchors/normalize.js';
import { extractAnchors, parseToolOutput, summarizeToolOutput } from '../src/summarizing/index.js';
import { assistantMessage, toolCallMessage, toolResultMessage, userMessage } from '../src/testing/index.js';
import { createTokenizerCounter } from '../src/tokenizer/index.js';
import { type CorpusEntry, type CorpusFact, generateToolCorpus, type ToolCorpus } from './tool-corpus.js';
import { visibleText as visibleTextOf } from './visible-text.js';

interface Tally {
  kept: number;
  total: number;
}
const tally = (): Tally => ({ kept: 0, total: 0 });
const percent = (value: Tally) => (value.total === 0 ? '–' : `${Math.round((100 * value.kept) / value.total)}%`);
const ratio = (value: Tally) => `${value.kept}/${value.total} (${percent(value)})`;

/** `exit code 1` and `exit 1` say the same: the check reads both as `exit 1`. */
const sameExit = (text: string) => text.replace(/\bexit code (-?\d+)/g, 'exit $1');

/**
 * The same fact in the tools' own notations, read as the keys write it: tsc's `path(line,col)`,
 * Python's `File "path", line N`, and a command's quotes JSON-escaped in a call's arguments.
 */
function sameNotation(text: string): string {
  return text
    .replace(/\\"/g, '"')
    .replace(/([\w./-]+)\((\d+),(\d+)\)/g, '$1:$2:$3')
    .replace(/File "([^"]+)", line (\d+)/g, '$1:$2');
}

function keeps(text: string, fact: CorpusFact): boolean {
  const said = sameExit(text);
  return fact.keys.every((key) => said.includes(sameExit(normalizeForCheck(key))));
}

/** The facts a session states about a run: its command, its own facts, and `exit N` only when it failed. */
function runFacts(entry: CorpusEntry): CorpusFact[] {
  return [
    { kind: 'command', keys: [entry.command] },
    ...entry.facts.filter((fact) => fact.kind !== 'exit' || entry.exitCode !== 0),
  ];
}

/** A tool result as an agent's bash tool returns it: the output, and a failing exit stated at the end. */
function resultText(entry: CorpusEntry): string {
  return entry.exitCode === 0 ? entry.output : `${entry.output}\n\nCommand exited with code ${entry.exitCode}`;
}

async function textOf(summarizer: Summarizer, request: Parameters<Summarizer['summarize']>[0]): Promise<string> {
  const answer = await summarizer.summarize(request);
  return typeof answer === 'string' ? answer : answer.text;
}

/**
 * A scripted "model" that paraphrases: one line per tool call saying what ran and whether it
 * passed, in its own words, with the first line of the output that looks like an error, shortened;
 * checkpoints are the heuristic's with every fact line reworded into prose (codes and places dropped).
 */
const paraphrasingModel: Summarizer = {
  async summarize(request) {
    if (request.kind === 'tool_results') {
      const lines: string[] = [];
      for (const message of request.messages) {
        if (message.role !== 'toolResult') continue;
        const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
        const failed = message.isError === true || /exited with code [1-9]/.test(text);
        const problem = text.split('\n').find((line) => /error|fail|panick|exception/i.test(line));
        lines.push(
          `- The ${message.toolName} call ${failed ? 'did not succeed' : 'went fine'}${problem ? `; it complained about ${problem.trim().slice(0, 40)}…` : ''}.`,
        );
      }
      return lines.join('\n');
    }
    const draft = await textOf(heuristicSummarizer, request);
    return draft
      .split('\n')
      .map((line) =>
        /^##/.test(line)
          ? line
          : line.replace(/\S+\.\w+:\d+(:\d+)?/g, 'a source file').replace(/\b[A-Z]+\d{3,4}\b/g, 'an error'),
      )
      .join('\n');
  },
};

/** What the anchors of one run write (the pinned lines a checkpoint would carry), normalized for the check. */
function anchorText(entry: CorpusEntry): string {
  const anchors = extractAnchors([
    userMessage('Fix what fails.'),
    toolCallMessage([{ id: 'call', name: 'bash', arguments: { command: entry.command } }]),
    toolResultMessage('call', resultText(entry), {
      toolName: 'bash',
      ...(entry.exitCode === 0 ? {} : { isError: true }),
    }),
  ]);
  return normalizeForCheck(sameNotation(anchors.map((anchor) => `${anchor.category}: ${anchor.text}`).join('\n')));
}

/** A recording model: what the LLM tool summarizer is given. */
function recordingModel(seen: string[]): Summarizer {
  return {
    async summarize(request) {
      seen.push(request.text);
      return 'summary';
    },
  };
}

/** 41 runs of the corpus's tools, as an agent would make them: the oldest 31 get archived at once. */
function batchSession(entries: readonly CorpusEntry[]): { messages: Message[]; archived: CorpusEntry[] } {
  const messages: Message[] = [userMessage('Make the test suites and the build pass; start by running everything.')];
  const runs: CorpusEntry[] = [];
  for (let index = 0; index < 41; index++) {
    const entry = entries[index % entries.length]!;
    runs.push(entry);
    const id = `call_${index}`;
    messages.push(
      toolCallMessage([{ id, name: 'bash', arguments: { command: entry.command } }]),
      toolResultMessage(id, resultText(entry), {
        toolName: 'bash',
        ...(entry.exitCode === 0 ? {} : { isError: true }),
      }),
    );
  }
  return { messages, archived: runs.slice(0, 31) };
}

function dedupe(facts: readonly CorpusFact[]): CorpusFact[] {
  const seen = new Map<string, CorpusFact>();
  for (const fact of facts) seen.set(`${fact.kind}\u0000${fact.keys.join('\u0000')}`, fact);
  return [...seen.values()];
}

async function batchRetention(entries: readonly CorpusEntry[]) {
  const { messages, archived } = batchSession(entries);
  const facts = dedupe(archived.flatMap(runFacts));
  const score = (text: string) => {
    const byKind = new Map<string, Tally>();
    const all = tally();
    for (const fact of facts) {
      const kept = keeps(text, fact);
      const kind = byKind.get(fact.kind) ?? tally();
      byKind.set(fact.kind, kind);
      for (const value of [kind, all]) {
        value.total++;
        if (kept) value.kept++;
      }
    }
    return { all, byKind };
  };
  const heuristic = await summarizeToolResults(messages, { strategy: 'heuristic' });
  const seen: string[] = [];
  await summarizeToolResults(messages, { strategy: 'llm', summarizer: recordingModel(seen) });
  const paraphrased = await summarizeToolResults(messages, { strategy: 'llm', summarizer: paraphrasingModel });
  // What the model sees afterwards, less the ten results still visible (the facts are the archived ones').
  const afterArchive = (result: Awaited<ReturnType<typeof summarizeToolResults>>) =>
    visibleTextOf(
      result.messages.filter((message) => message.role !== 'toolResult'),
      sameNotation,
    );
  return {
    facts: facts.length,
    results: archived.length,
    heuristic: score(afterArchive(heuristic)),
    given: score(normalizeForCheck(sameNotation(seen[0] ?? ''))),
    paraphrased: score(afterArchive(paraphrased)),
  };
}

/** One run of a round: the command and the facts its output states. */
interface RoundRun {
  command: string;
  facts: CorpusFact[];
}

/** Sessions of five rounds, each a request and four runs of the corpus's tools. */
function roundSessions(entries: readonly CorpusEntry[]): { rounds: { messages: Message[]; runs: RoundRun[] }[] }[] {
  const sessions = [];
  for (let offset = 0; offset < 2; offset++) {
    const rounds = [];
    let call = 0;
    for (let round = 0; round < 5; round++) {
      const messages: Message[] = [userMessage(`Round ${round + 1}: run the next checks and fix what fails.`)];
      const runs: RoundRun[] = [];
      for (let step = 0; step < 4; step++) {
        const entry = entries[(offset * 7 + round * 4 + step) % entries.length]!;
        const id = `call_${offset}_${call++}`;
        messages.push(
          toolCallMessage([{ id, name: 'bash', arguments: { command: entry.command } }]),
          toolResultMessage(id, resultText(entry), {
            toolName: 'bash',
            ...(entry.exitCode === 0 ? {} : { isError: true }),
          }),
        );
        runs.push({ command: entry.command, facts: runFacts(entry) });
      }
      messages.push(assistantMessage('Looked at the results; moving on.'));
      rounds.push({ messages, runs });
    }
    sessions.push({ rounds });
  }
  return sessions;
}

const BUDGETS = [
  { name: 'normal', maxOutputTokens: 2_000 },
  { name: 'small', maxOutputTokens: 400 },
];

/** What a round of compaction kept, and which facts it lost (for `--lost`). */
interface RoundScore {
  byRound: Tally[];
  failures: number;
  /** Tokens of the checkpoint after the last round, per session. */
  checkpointTokens: number[];
  /** Per session and round, the facts not found. */
  lost: { session: number; round: number; facts: CorpusFact[] }[];
}

/**
 * Five rounds of compaction. The facts due after a round are those of each command's latest run: a
 * command run again states its facts afresh (the sessions run \`npx tsc --noEmit -p .\` and
 * \`pytest --tb=short\` again on another project), so what only its earlier run reported is resolved,
 * as it is for the agent (and a checkpoint must not state it as current).
 */
async function roundRetention(
  entries: readonly CorpusEntry[],
  summarizer: Summarizer,
  maxOutputTokens: number,
): Promise<RoundScore> {
  const byRound = Array.from({ length: 5 }, tally);
  const score: RoundScore = { byRound, failures: 0, checkpointTokens: [], lost: [] };
  for (const [index, session] of roundSessions(entries).entries()) {
    let context: Message[] = [];
    const latest = new Map<string, CorpusFact[]>();
    for (let round = 0; round < 5; round++) {
      context = [...context, ...session.rounds[round]!.messages];
      for (const run of session.rounds[round]!.runs) {
        latest.delete(run.command);
        latest.set(run.command, run.facts);
      }
      try {
        context = (
          await compact(context, { summarizer, config: { keepRecentTokens: 600, toolCallCutoff: 4 }, maxOutputTokens })
        ).messages;
      } catch {
        score.failures++;
      }
      const text = visibleTextOf(context, sameNotation);
      const lost: CorpusFact[] = [];
      for (const fact of dedupe([...latest.values()].flat())) {
        byRound[round]!.total++;
        if (keeps(text, fact)) byRound[round]!.kept++;
        else lost.push(fact);
      }
      score.lost.push({ session: index, round: round + 1, facts: lost });
    }
    const checkpoint = context[0];
    score.checkpointTokens.push(
      checkpoint === undefined ? 0 : approximateCounter.count(visibleTextOf([checkpoint], (text) => text)),
    );
  }
  return score;
}

/** Texts for the counter: the corpus, its other texts, and this repository's recent history (fixtures aside). */
function counterTexts(corpus: ToolCorpus): { name: string; text: string }[] {
  const texts = [...corpus.entries.map((entry) => ({ name: entry.name, text: entry.output })), ...corpus.texts];
  try {
    texts.push({
      name: 'git log -p',
      // Without the fixtures, which hold this corpus as JSON-escaped JSON.
      text: execFileSync('git', ['log', '-p', '-n', '30', '--no-color', '--', '.', ':(exclude)test/fixtures'], {
        encoding: 'utf8',
        maxBuffer: 1e8,
      }),
    });
  } catch {
    // Not a git checkout: the corpus alone.
  }
  return texts;
}

function counterAccuracy(corpus: ToolCorpus) {
  const exact = createTokenizerCounter({ encoding: 'o200k_base' });
  const rows = new Map<string, { chunks: number; within: number; under: number; low: number; high: number }>();
  const total = { chunks: 0, within: 0, under: 0, low: Number.POSITIVE_INFINITY, high: 0 };
  for (const { name, text } of counterTexts(corpus)) {
    const points = [...text];
    const group = name === 'git log -p' ? name : name.startsWith('sourcemap-') ? 'source maps' : 'tool output';
    const row = rows.get(group) ?? { chunks: 0, within: 0, under: 0, low: Number.POSITIVE_INFINITY, high: 0 };
    rows.set(group, row);
    for (let at = 0; at < points.length; at += 2_000) {
      const chunk = points.slice(at, at + 2_000).join('');
      if (points.length > 500 && chunk.length < 500) continue;
      const value = approximateCounter.count(chunk) / exact.count(chunk);
      for (const target of [row, total]) {
        target.chunks++;
        if (Math.abs(value - 1) <= 0.1) target.within++;
        if (value < 0.9) target.under++;
        target.low = Math.min(target.low, value);
        target.high = Math.max(target.high, value);
      }
    }
  }
  return { rows, total };
}

/**
 * Measures everything on a corpus generated now; returns the markdown block for docs/fidelity.md.
 * With `printLost`, the facts each round of compaction lost are printed (`npm run bench:fidelity --
 * --lost`).
 */
export async function measureUnseen(options: { printLost?: boolean } = {}): Promise<string> {
  const corpus = generateToolCorpus();
  const single = tally();
  const heldOut = tally();
  const exitStated = tally();
  const byKind = new Map<string, Tally>();
  const byTool: string[] = [];
  // Per parser (the format each output is read as): facts kept by the digest and by the anchors.
  const byFormat = new Map<string, { outputs: string[]; digest: Tally; anchors: Tally }>();
  for (const entry of corpus.entries) {
    const format = parseToolOutput(entry.output, { command: entry.command }).format;
    const row = byFormat.get(format) ?? { outputs: [], digest: tally(), anchors: tally() };
    byFormat.set(format, row);
    row.outputs.push(entry.name);
    const anchored = anchorText(entry);
    for (const fact of runFacts(entry)) {
      row.anchors.total++;
      if (keeps(anchored, fact)) row.anchors.kept++;
    }
    const digest = normalizeForCheck(
      summarizeToolOutput(entry.output, { command: entry.command, exitCode: entry.exitCode, maxChars: 800 }),
    );
    const own = tally();
    for (const fact of entry.facts) {
      const kept = keeps(digest, fact);
      const kind = byKind.get(fact.kind) ?? tally();
      byKind.set(fact.kind, kind);
      for (const value of entry.heldOut ? [own, kind, single, heldOut] : [own, kind, single]) {
        value.total++;
        if (kept) value.kept++;
      }
    }
    const alone = normalizeForCheck(summarizeToolOutput(resultText(entry), { command: entry.command }));
    exitStated.total++;
    if (entry.exitCode === 0 ? /exit 0|exit status unknown/.test(alone) : alone.includes(`exit ${entry.exitCode}`))
      exitStated.kept++;
    byTool.push(`${entry.name} ${percent(own)}`);
    row.digest.kept += own.kept;
    row.digest.total += own.total;
  }
  const batch = await batchRetention(corpus.entries);
  const rounds: string[] = [];
  for (const [name, summarizer] of [
    ['heuristic', heuristicSummarizer],
    ['paraphrasing model', paraphrasingModel],
  ] as const) {
    for (const budget of BUDGETS) {
      const score = await roundRetention(corpus.entries, summarizer, budget.maxOutputTokens);
      const tokens = score.checkpointTokens.map((count) => count.toLocaleString('en-US')).join(', ');
      rounds.push(
        `| ${name} | ${budget.name} (${budget.maxOutputTokens.toLocaleString('en-US')}) | ${score.byRound.map(percent).join(' | ')} | ${tokens} | ${score.failures} |`,
      );
      if (options.printLost)
        for (const { session, round, facts } of score.lost)
          if (facts.length > 0)
            console.log(
              `${name}, ${budget.name}, session ${session + 1}, round ${round}: lost ${facts.map((fact) => `${fact.kind} ${fact.keys.join(' & ')}`).join(' | ')}`,
            );
    }
  }
  const counter = counterAccuracy(corpus);
  const kinds = [...byKind.keys()];
  const batchKinds = [...batch.heuristic.byKind.keys()];
  const counterRow = (
    name: string,
    row: { chunks: number; within: number; under: number; low: number; high: number },
  ) =>
    `| ${name} | ${row.chunks} | ${Math.round((1000 * row.within) / row.chunks) / 10}% | ${row.under} | ${row.low.toFixed(2)}–${row.high.toFixed(2)} |`;
  return [
    '<!-- unseen:start -->',
    'Written by `npm run bench:fidelity` (bench/fidelity-unseen.ts) on a corpus it generates by running the',
    `real tools on small broken projects (${corpus.entries.length} outputs: ${corpus.entries.map((entry) => entry.name).join(', ')}${corpus.skipped.length ? `; not installed, so not measured: ${corpus.skipped.join(', ')}` : ''}).`,
    "The facts come from the tools' structured output (tsc `--pretty false`, the junit and JSON reporters of",
    "node:test, vitest and pytest, libtest and cargo JSON, biome's JSON reporter, `git status --porcelain`,",
    '`git diff --numstat`, `grep -o`/`-c`) or from the lines the generator wrote a `throw` on, never from the',
    "parsers measured. Figures vary a little between machines with the tools' versions.",
    '',
    '### One output through `summarizeToolOutput` (800 code points, exit status given)',
    '',
    `All facts: ${ratio(single)}; of the held-out scenarios (added to the generator after the parsers were fixed`,
    `against the others, and not tuned for): ${ratio(heldOut)}. Exit status stated from the output alone (a failing run's \`Command exited`,
    `with code N\` as a bash tool appends it; \`exit status unknown\` for a run that says nothing): ${ratio(exitStated)}.`,
    '',
    `| ${kinds.join(' | ')} |`,
    `| ${kinds.map(() => '---:').join(' | ')} |`,
    `| ${kinds.map((kind) => ratio(byKind.get(kind)!)).join(' | ')} |`,
    '',
    `By tool: ${byTool.join(', ')}.`,
    '',
    '### Each parser on the real output',
    '',
    "Facts of each output kept by its digest (800 code points) and by its anchors (what a checkpoint's pinned",
    'section carries of the run: its command, failing exit status, counts, codes, places, failing tests with',
    'their assertions, grep matches, changed files), by the format the output is read as.',
    '',
    '| parser | outputs | digest | anchors |',
    '| --- | --- | ---: | ---: |',
    ...[...byFormat].map(
      ([format, row]) => `| \`${format}\` | ${row.outputs.join(', ')} | ${ratio(row.digest)} | ${ratio(row.anchors)} |`,
    ),
    '',
    `### A batch of ${batch.results} results archived at once (${batch.facts} facts: commands, failing exits, codes, locations, tests, messages, paths)`,
    '',
    `| what the model is left with | all | ${batchKinds.join(' | ')} |`,
    `| --- | ---: | ${batchKinds.map(() => '---:').join(' | ')} |`,
    ...(
      [
        ['heuristic summary', batch.heuristic],
        ['text given to an LLM tool summarizer', batch.given],
        ["paraphrasing model's summary", batch.paraphrased],
      ] as const
    ).map(
      ([name, score]) =>
        `| ${name} | ${percent(score.all)} | ${batchKinds.map((kind) => percent(score.byKind.get(kind) ?? tally())).join(' | ')} |`,
    ),
    '',
    "### Five rounds of compaction (two sessions of four runs a round; anchoring on; each command's latest run's facts)",
    '',
    '| summarizer | budget (summary tokens) | round 1 | round 2 | round 3 | round 4 | round 5 | checkpoint tokens after round 5 | failed compactions |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rounds,
    '',
    '### The approximate counter against o200k_base, 2,000-character chunks',
    '',
    '| text | chunks | within ±10% | under by > 10% | ratio range |',
    '| --- | ---: | ---: | ---: | --- |',
    ...[...counter.rows].map(([name, row]) => counterRow(name, row)),
    counterRow('all', counter.total),
    '<!-- unseen:end -->',
  ].join('\n');
}
