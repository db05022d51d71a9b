/**
 * Native against client compaction on the same scripted session (`npm run bench:native`): the
 * session of test/native/native-session.ts, run through the real `openai` and `@anthropic-ai/sdk`
 * clients against the loopback servers, once per strategy and script. Writes its block of
 * docs/benchmarks.md (between the native markers); the rest of the file is left alone.
 *
 * Deterministic: the loopback servers compact with a fixed rule and ctxkit's summarizer is the
 * heuristic one, so the figures do not vary between runs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { ANTHROPIC, type Leg, OPENAI, runScriptedSession, type SessionOutcome } from '../test/native/native-session.js';
import { table } from './report.js';

const WINDOW = 60_000;

const scripts: { name: string; legs: Leg[] }[] = [
  {
    name: 'OpenAI → Anthropic → OpenAI → key rotated',
    legs: [
      { target: OPENAI, turns: 8 },
      { target: ANTHROPIC, turns: 3 },
      { target: OPENAI, turns: 3 },
      { target: OPENAI, turns: 4, rotateKey: true },
    ],
  },
  {
    name: 'the first, longer (10, 4, 4, 4 turns)',
    legs: [
      { target: OPENAI, turns: 10 },
      { target: ANTHROPIC, turns: 4 },
      { target: OPENAI, turns: 4 },
      { target: OPENAI, turns: 4, rotateKey: true },
    ],
  },
  {
    name: 'Anthropic → OpenAI → Anthropic → key rotated',
    legs: [
      { target: ANTHROPIC, turns: 8 },
      { target: OPENAI, turns: 3 },
      { target: ANTHROPIC, turns: 3 },
      { target: ANTHROPIC, turns: 4, rotateKey: true },
    ],
  },
];

const number = (value: number) => value.toLocaleString('en-US');

/**
 * What the providers reported their compaction steps cost: Anthropic's usage.iterations, and the
 * usage of OpenAI's `POST /responses/compact` calls (OpenAI's inline compaction reports none apart).
 */
function compactionCost(outcome: SessionOutcome): string {
  const reports = outcome.manager.stats(outcome.history).nativeCompactions;
  const input = reports.reduce((sum, report) => sum + (report.usage?.input ?? 0), 0);
  const output = reports.reduce((sum, report) => sum + (report.usage?.output ?? 0), 0);
  return input + output === 0 ? '–' : `${number(input)} in / ${number(output)} out`;
}

const rows: string[][] = [];
for (const script of scripts) {
  for (const mode of ['client', 'native', 'native, OpenAI by /responses/compact'] as const) {
    const compaction = mode === 'client' ? 'client' : 'native';
    const openaiCompaction = mode === 'native' || mode === 'client' ? 'inline' : 'endpoint';
    const outcome = await runScriptedSession({
      compaction,
      openaiCompaction,
      contextWindow: WINDOW,
      legs: script.legs,
    });
    rows.push([
      script.name,
      mode,
      number(outcome.requests),
      number(outcome.promptTokens),
      `${outcome.summarizerCalls} (${number(outcome.summarizerTokens)})`,
      String(outcome.clientCompactions),
      String(outcome.nativeCompactions),
      compactionCost(outcome),
      `${outcome.refused} / ${outcome.rejected}`,
      `${outcome.dead}`,
      `${outcome.factsKept} / ${outcome.facts}`,
      `${outcome.factsReadByOpenAI} / ${outcome.factsSentToOpenAI}`,
    ]);
    console.info(rows.at(-1)!.join(' | '));
  }
}

const block = [
  '<!-- native:start -->',
  '## Native against client compaction',
  '',
  'Written by `npm run bench:native` (bench/native-compaction.ts); deterministic. One scripted coding',
  `session per row, through the real \`openai\` and \`@anthropic-ai/sdk\` clients against the loopback`,
  `servers (window ${number(WINDOW)} tokens, \`reserveTokens\` 4,096, tool summaries off so only compaction`,
  'differs): each user turn states a fact (`FACT-n=…`) and asks for a fix; the model calls tools (about',
  '1,500 tokens of test output each) until it answers. `client` is ctxkit compacting with its heuristic',
  "summarizer at its own trigger; `native` lets the provider compact first (ctxkit's threshold less a tenth)",
  "and keeps ctxkit's compaction as the fallback. The loopback servers compact by a fixed rule (each user",
  "request and tool call, one line), so the facts-kept column compares that rule with ctxkit's heuristic",
  "checkpoint, not a real provider's summary with a real model's. Prompt tokens are the servers' own",
  "counts over every model request; summarizer calls are ctxkit's (for `native`: the portable summaries",
  "of OpenAI's opaque items, written when the session leaves OpenAI or an item is refused), with ctxkit's",
  'estimate of the text they sent, which a model summarizer would be billed as input. The native cost is',
  "what the provider reported for its compaction steps: Anthropic's `usage.iterations[]` (summed into",
  '`usage.compaction`), and the usage of each `POST /responses/compact` call (read by',
  '`readOpenAICompaction` into `usage.compaction`); inline, the Responses API reports none apart from the',
  "response's own usage. The third row of each script compacts OpenAI by the standalone endpoint: the host",
  "calls it once the context passes the manager's native threshold, instead of `context_management`; its",
  'calls are not model requests, so their input is in the cost column, not in prompt tokens sent (in the',
  'last script the OpenAI leg never reaches the threshold, so that row equals the inline one).',
  "The last column is the loopback's view of the last request OpenAI's model answered: of the facts",
  'stated up to then, those in what it read (a compaction item read as its summary). The loopback',
  'answers the standalone endpoint as the real API does: its output keeps every user message and its',
  'item stands for the rest only, so a client that sends the item without those messages loses them.',
  '',
  table(
    [
      'script',
      'compaction',
      'requests',
      'prompt tokens sent',
      'summarizer calls (input tokens)',
      'client compactions',
      'native compactions',
      'native compaction cost reported',
      'refused / rejected',
      'dead turns',
      'facts readable at the end',
      "facts OpenAI's model read last",
    ],
    ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    rows,
  ),
  '',
  "Refused is the scripted key rotation (the provider refuses its own stale payload once; ctxkit splices in the portable summary and retries); rejected counts requests that broke a provider's rule; a dead turn is one whose error reached the host.",
  '',
  "Native sends fewer prompt tokens here because the loopback's compaction keeps no recent turns verbatim,",
  "where ctxkit's keeps `keepRecentTokens` of them; a real provider's choice may differ. Facts are counted",
  "in the text a model reads (message contents), not in ctxkit's metadata. The longer script kept 14 of",
  "22 facts natively before ctxkit pinned a provider's summary's lost facts: its heuristic checkpoint,",
  "updating the Anthropic leg's summary (written in the provider's own format) for OpenAI's next item,",
  'carried over only the sections it knows. Now the manager reads the facts of every span a provider',
  'compacts, pins those its readable summary left out (within a quarter of the token limit) and carries',
  'them as anchors to the next compaction, so native keeps every fact client compaction keeps.',
  '',
  'After a standalone compaction ctxkit used to send OpenAI the item alone, dropping the user messages',
  "the endpoint returns beside it: in the longer script's endpoint row its model then read 2 of the 22",
  'facts in its last request. It now sends the whole output (the user messages, then the item): 22 of',
  '22 read, for 1,193,490 prompt tokens instead of 1,178,621 (+1.3%); in the first script 907,406',
  'instead of 789,026 (+15%, and one more request), where its last request read all 18 either way.',
  "Those tokens are the cost of the endpoint's contract.",
  '<!-- native:end -->',
].join('\n');

const file = new URL('../docs/benchmarks.md', import.meta.url);
const current = readFileSync(file, 'utf8');
const start = current.indexOf('<!-- native:start -->');
const end = current.indexOf('<!-- native:end -->');
const next =
  start >= 0 && end > start
    ? `${current.slice(0, start)}${block}${current.slice(end + '<!-- native:end -->'.length)}`
    : `${current.trimEnd()}\n\n${block}\n`;
writeFileSync(file, next);
