/**
 * `npm run bench`: the per-call cost of the context manager with the default settings, beside
 * LangChain `trimMessages`, the first call, the bytes cached per message, the prefix-stable share
 * and summarizer calls of a long tool-heavy session, the pure functions' cost per message, and
 * counter accuracy. Writes docs/benchmarks.md (keeping the fidelity block). Every figure comes
 * from one run on one machine: compare the ratios, not the absolute times.
 *
 * `CTXKIT_BENCH_QUICK=1` runs the small sizes only (for a quick look; it does not write the file).
 */
import { cpus, loadavg } from 'node:os';
import { approximateCounter, referenceCounter } from '../src/index.js';
import { createTokenizerCounter } from '../src/tokenizer/index.js';
import { corpus } from '../test/fixtures/corpus.js';
import { measureCacheBytes } from './cache-bytes.js';
import type { IdMode } from './histories.js';
import { formatCount, formatRatio, formatSize, formatTime, type Samples } from './measure.js';
import {
  LANGCHAIN_LIMIT,
  LANGCHAIN_SIZES,
  type LangChainRow,
  measureLangChain,
  measurePerCall,
  type PerCallRow,
  SIZES,
  warmUp,
} from './per-call.js';
import { measurePureFunctions, PURE_SIZES } from './pure-functions.js';
import { table, writeReport } from './report.js';
import { runSession, type SessionResult } from './session.js';

const quick = process.env.CTXKIT_BENCH_QUICK === '1';
const began = performance.now();
/** The one-minute load average at each step, to say in the report how busy the machine was. */
const loads: number[] = [];
const log = (text: string) => {
  loads.push(loadavg()[0] ?? 0);
  process.stderr.write(`[bench ${((performance.now() - began) / 1000).toFixed(0)}s] ${text}\n`);
};

/** A tool step slower than this at one size is not run at the larger sizes (it would take minutes). */
const TOO_SLOW_MS = 400;
const sizes = quick ? SIZES.filter((size) => size <= 14_000) : [...SIZES];

log('warming up');
await warmUp();
const perCall: PerCallRow[] = [];
for (const mix of ['realistic', 'uniform'] as const) {
  for (const ids of ['unique', 'reused'] as IdMode[]) {
    let skipFrom: string | undefined;
    for (const size of sizes) {
      if (skipFrom !== undefined) {
        perCall.push(skippedRow(mix, ids, size, skipFrom));
        continue;
      }
      log(`per call: ${mix}, ${ids} ids, ${formatSize(size)}`);
      const row = await measurePerCall({
        mix,
        ids,
        size,
        newMessages: mix === 'realistic' ? 15 : 8,
        toolSteps: mix === 'realistic' ? 45 : 15,
        budgetMs: 2_500,
      });
      perCall.push(row);
      if (row.toolStep.median > TOO_SLOW_MS)
        skipFrom = `not run: a tool step took ${formatTime(row.toolStep.median)} at ${formatSize(size)}`;
    }
  }
}

const langChain: LangChainRow[] = [];
for (const size of LANGCHAIN_SIZES) {
  log(`LangChain trimMessages at ${formatSize(size)}`);
  langChain.push(await measureLangChain(size, size <= 1_000 ? 10 : 1));
}

log('bytes per message');
const cacheSize = quick ? 14_000 : 100_000;
const bytesDefault = await measureCacheBytes(cacheSize, {});
const bytesOff = await measureCacheBytes(cacheSize, { toolSummaryStrategy: 'off' });

log('long tool-heavy session');
const SESSION_CALLS = quick ? 150 : 400;
const SESSION_WINDOW = 16_000;
const sessions: SessionResult[] = [];
for (const variant of sessionVariants()) {
  sessions.push(await runSession({ ...variant, calls: SESSION_CALLS, contextWindow: SESSION_WINDOW }));
}

log('pure functions');
const pure = await measurePureFunctions(quick ? 300 : 1_500);

log('counter accuracy');
const exact = createTokenizerCounter({ encoding: 'o200k_base' });
const accuracy = corpus.map((entry) => {
  const count = exact.count(entry.text);
  return {
    sample: entry.name,
    exact: count,
    approximate: approximateCounter.count(entry.text) / count,
    reference: referenceCounter.count(entry.text) / count,
  };
});
const worst = (key: 'approximate' | 'reference') => Math.max(...accuracy.map((row) => Math.abs(row[key] - 1))) * 100;

const report = render();
if (quick) console.log(report);
else {
  writeReport(new URL('../docs/benchmarks.md', import.meta.url), report);
  console.log(report);
}
log('done');

/** The session variants: the defaults, and the seed-001 reference policy (archive on every result past the cutoff). */
function sessionVariants(): { label: string; config?: Record<string, unknown> }[] {
  return [
    { label: 'defaults' },
    { label: 'reference policy (`toolSummaryBatch: 0`)', config: { toolSummaryBatch: 0 } },
  ];
}

function skippedRow(mix: 'realistic' | 'uniform', ids: IdMode, size: number, reason: string): PerCallRow {
  const none = { median: Number.NaN, mean: Number.NaN, max: Number.NaN, count: 0 };
  return {
    mix,
    ids,
    size,
    characters: Number.NaN,
    first: none,
    count: none,
    newMessage: none,
    toolStep: none,
    toolSteps: 0,
    summarizerCalls: 0,
    skipped: reason,
  };
}

/** The median of the calls that archived a batch, and how many there were (— when none did). */
function archiveCalls(samples: Samples | undefined): string {
  return samples === undefined ? '—' : `${formatTime(samples.median)} (${samples.count})`;
}

/** LangChain's cheaper measured step (only the new message where the tool step was not run). */
function cheaperTrim(row: LangChainRow): number {
  const tool = row.trimToolStep.median;
  return Number.isFinite(tool) ? Math.min(row.trimNewMessage.median, tool) : row.trimNewMessage.median;
}

function render(): string {
  const realistic14k = perCall.find((row) => row.mix === 'realistic' && row.ids === 'unique' && row.size === 14_000);
  const lc14k = langChain.find((row) => row.size === 14_000);
  const lines: string[] = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (`bench/run.ts`) in one run on one machine',
    `(${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}), shared with other work while it ran`,
    `(one-minute load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} over the run, sampled at each step):`,
    'compare the ratios within a table, not absolute times across runs.',
    '',
    '## Method',
    '',
    '- **Histories.** The realistic mix is a coding-agent session: turns of a user message, one to',
    '  eight tool steps (an assistant message with one call, sometimes two in parallel, sometimes a',
    '  line of text first; `bash`, `read`, `edit`, `grep` calls with JSON arguments) and their',
    '  results (mostly a few characters to a few hundred, a few of 8,000–30,000), and a closing',
    `  answer: ${formatCount(realistic14k?.characters ?? 0)} model-facing characters at 14,000 messages. The uniform mix`,
    '  repeats user, call, result, answer of about 35 characters each. Tool-call ids are unique',
    '  (`call_<n>`), or reused (`call_0` in every turn, as local models send).',
    '- **The manager** runs with the default settings (tool summaries by the model summarizer, the',
    '  default cutoff and batching, the default tool-output limits), the reference counter',
    '  (chars/4, the counter LangChain is given), a window large enough that no compaction is',
    '  due and the cost-aware policy off (`costAware: false`: it would compact a history this long',
    '  every few tool steps), so every call projects and accounts for the whole history. The',
    '  summarizer answers at once (the bench measures ctxkit, not a model).',
    '- **First call**: a new manager prepares the whole history (message objects it never saw);',
    '  beside it, counting every message once with the same counter (`sumMessageTokens` on fresh',
    '  objects). Both are timed in CPU time of the process (collector threads included), as wall',
    '  time on a shared machine swings with the other work; a garbage collection runs before each',
    '  timed run; median of 41 runs at 1k, 5 at 14k, 3 above, after eight warm-up rounds on a small history',
    "  (so the first rows do not pay for compiling ctxkit's code).",
    '- **Per call**: the host keeps its own array, pushes one new user message (or one tool step: a',
    '  call and its result) and calls `prepare` with it. Median over the calls (mean in brackets: it',
    '  includes the calls that archive a batch). `prepare` compares the whole array with what it saw',
    '  last, reference by reference, so that a change anywhere in it is seen: at 100k messages and',
    '  more that walk (about 2.5 ns a message) is most of the cost; `append` (below) skips it. The',
    '  other ways a host keeps its history cost the same (see below).',
    `- **LangChain** \`trimMessages\` (\`@langchain/core\`, strategy \`last\`, system prompt kept, start on a`,
    `  human message) gets the same history as LangChain messages (converted once, not per call)`,
    `  and the same chars/4 count of text and JSON arguments. It trims to ${formatCount(LANGCHAIN_LIMIT)} tokens (a`,
    '  128k-token model less the reserve), as a host would; it drops the oldest messages one at a',
    '  time and recounts the rest each time, so its cost grows with the square of what it drops. It',
    `  runs at ${LANGCHAIN_SIZES.map(formatSize).join(' and ')} only, and once per step at 14k (one call takes seconds; the tool step only at 1k); "nothing to trim" is the`,
    '  same call with no limit: one count of the whole list.',
    '',
    '## Per call with the default settings',
    '',
  ];
  const perCallTable = (mix: 'realistic' | 'uniform') =>
    table(
      [
        'ids',
        'messages',
        'first call',
        'count all',
        'first ÷ count',
        'one new message',
        'one tool step',
        'summarizer calls / tool steps',
      ],
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
      perCall
        .filter((row) => row.mix === mix)
        .map((row) =>
          row.skipped
            ? [row.ids, formatSize(row.size), row.skipped, '', '', '', '', '']
            : [
                row.ids,
                formatSize(row.size),
                formatTime(row.first.median),
                formatTime(row.count.median),
                formatRatio(row.first.median / row.count.median),
                `${formatTime(row.newMessage.median)} (${formatTime(row.newMessage.mean)})`,
                `${formatTime(row.toolStep.median)} (${formatTime(row.toolStep.mean)})`,
                `${row.summarizerCalls} / ${row.toolSteps}`,
              ],
        ),
    );
  lines.push(
    '### Realistic mix',
    '',
    perCallTable('realistic'),
    '',
    '### Uniform mix',
    '',
    perCallTable('uniform'),
    '',
  );

  const appendRows = perCall.filter((row) => row.appendMessage !== undefined);
  if (appendRows.length > 0) {
    lines.push(
      '### Telling the manager what is new (`append`)',
      '',
      table(
        [
          'mix',
          'ids',
          'messages',
          'append one message',
          'append one tool step',
          'count the new message',
          'append ÷ count',
        ],
        ['l', 'l', 'r', 'r', 'r', 'r', 'r'],
        appendRows.map((row) => [
          row.mix,
          row.ids,
          formatSize(row.size),
          formatTime(row.appendMessage!.median),
          formatTime(row.appendToolStep!.median),
          formatTime(row.countNewMessage!.median),
          formatRatio(row.appendMessage!.median / row.countNewMessage!.median),
        ]),
      ),
      '',
    );
  }

  const hostRows = perCall.filter((row) => row.pushOntoHistory !== undefined);
  if (hostRows.length > 0) {
    lines.push(
      '### How the host keeps its history (one new message)',
      '',
      'The same manager, one new user message per call, the host passing: its own array with the message pushed',
      'onto it (as above); the `history` the manager returned, with the message pushed onto it; or a new array',
      "`[...history, message]`, as the README's loop does (the host's copy is not timed: only `prepare`). The last",
      'column pushes tool steps onto the returned history: its mean and slowest call include the calls that',
      'archive a batch. The last two time such calls apart, after those: tool steps until five calls archived',
      'a batch (median, and how many there were). Pushed onto the returned history, the host receives a new',
      'array that hides the batch (the array it pushed onto is its own): one copy of the history; with',
      '`append` nothing is copied.',
      '',
      table(
        [
          'mix',
          'ids',
          'messages',
          'own array',
          'returned history, pushed onto',
          '`[...history, message]`',
          'tool steps pushed onto the returned history: median (mean, slowest)',
          'a call that archives: pushed onto the returned history',
          'a call that archives: `append`',
        ],
        ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
        hostRows.map((row) => [
          row.mix,
          row.ids,
          formatSize(row.size),
          formatTime(row.newMessage.median),
          formatTime(row.pushOntoHistory!.median),
          formatTime(row.copyOfHistory!.median),
          `${formatTime(row.pushToolStepOntoHistory!.median)} (${formatTime(row.pushToolStepOntoHistory!.mean)}, ${formatTime(row.pushToolStepOntoHistory!.max)})`,
          archiveCalls(row.pushArchive),
          archiveCalls(row.appendArchive),
        ]),
      ),
      '',
    );
  }

  lines.push(
    '### Against LangChain `trimMessages` (realistic mix, unique ids)',
    '',
    table(
      [
        'messages',
        'LangChain, one new message',
        'LangChain, one tool step',
        'LangChain, nothing to trim',
        'ctxkit, one new message',
        'ctxkit, one tool step',
        'speed-up (trim)',
        'speed-up (nothing to trim)',
      ],
      ['r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
      langChain.map((row) => {
        const ours = perCall.find(
          (candidate) => candidate.mix === 'realistic' && candidate.ids === 'unique' && candidate.size === row.size,
        );
        const slowest = Math.max(ours?.newMessage.median ?? Number.NaN, ours?.toolStep.median ?? Number.NaN);
        return [
          formatSize(row.size),
          formatTime(row.trimNewMessage.median),
          formatTime(row.trimToolStep.median),
          formatTime(row.noTrimNewMessage.median),
          formatTime(ours?.newMessage.median ?? Number.NaN),
          formatTime(ours?.toolStep.median ?? Number.NaN),
          formatRatio(cheaperTrim(row) / slowest),
          formatRatio(row.noTrimNewMessage.median / slowest),
        ];
      }),
    ),
    '',
    `Speed-ups divide LangChain's cheaper step by ctxkit's slower one (medians).${lc14k ? '' : ' LangChain did not run at 14k.'}`,
    '',
    '## Bytes kept per message',
    '',
    `Heap and array buffers retained after a manager prepared a realistic history of ${formatCount(cacheSize)} messages`,
    '(and one more step), less the heap with the host\'s history alone, per message. "In all" is everything the',
    'manager holds; "returned" is what stays when the host keeps only the `messages` and `history` arrays the',
    'manager returned (the two arrays, and the archived copies and placeholders that replace old tool results in',
    'them); "caches" is the rest: token counts, the sent-id table, private copies of the arrays, projections.',
    'In an agent loop that keeps `history`, the originals of archived tool results are freed, which this',
    'measurement does not count (the host here keeps its own array).',
    '',
    table(
      ['settings', 'in all', 'returned', 'caches'],
      ['l', 'r', 'r', 'r'],
      [bytesDefault, bytesOff].map((bytes, index) => [
        index === 0 ? 'defaults' : "`toolSummaryStrategy: 'off'`",
        bytes.total.toFixed(0),
        bytes.returned.toFixed(0),
        bytes.caches.toFixed(0),
      ]),
    ),
    '',
    '## A long tool-heavy session: prompt-cache stability and summarizer calls',
    '',
    `${SESSION_CALLS} model calls with the default settings and a ${formatCount(SESSION_WINDOW)}-token window: turns of 2–10 tool steps`,
    'with realistic outputs (unscaled: mostly short, some of a few thousand characters, a few of',
    "8,000–30,000). Each reply carries usage (the provider's count, which differs from the manager's),",
    'reported with `recordUsage`, and the host keeps the history `prepare` returns. "Prefix-stable" is',
    'the share of calls whose request (system prompt and messages, serialized) starts with the previous',
    'call\'s request byte for byte, which a provider\'s prompt cache needs; "on usage" is the share of',
    "calls whose count rests on the provider's usage rather than on estimates alone.",
    '',
    table(
      [
        'settings',
        'prefix-stable',
        'summarizer calls per 100 model calls',
        'tool-summary batches',
        'compactions',
        'on usage',
      ],
      ['l', 'r', 'r', 'r', 'r', 'r'],
      sessions.map((session) => {
        const calls = Object.values(session.summarizerCalls).reduce((sum, value) => sum + value, 0);
        return [
          session.label,
          `${(session.prefixStable * 100).toFixed(1)}%`,
          ((calls / session.modelCalls) * 100).toFixed(1),
          String(session.archivedEvents),
          String(session.compactions),
          `${(session.usageBacked * 100).toFixed(0)}%`,
        ];
      }),
    ),
    '',
    '## The pure functions, per message',
    '',
    'Median time of one call divided by the history length (nanoseconds per message), on the realistic',
    'mix with warm per-message caches (the same message objects each call). A flat row means the cost',
    'grows in proportion to the history; these functions see the whole list by design (the manager',
    'calls them on what is new or on a batch).',
    '',
    table(
      ['function', ...PURE_SIZES.map(formatSize)],
      ['l', ...PURE_SIZES.map(() => 'r' as const)],
      pure.map((row) => [row.name, ...row.perMessage.map((value) => `${value.toFixed(0)} ns`)]),
    ),
    '',
    '## Counter accuracy against o200k_base',
    '',
    'Estimate ÷ exact count on the mixed corpus of `test/fixtures/corpus.ts` (1.00 is exact).',
    '',
    table(
      ['sample', 'o200k tokens', 'approximate', 'reference (chars / 4)'],
      ['l', 'r', 'r', 'r'],
      accuracy.map((row) => [row.sample, String(row.exact), row.approximate.toFixed(2), row.reference.toFixed(2)]),
    ),
    '',
    `Worst error: approximate ${worst('approximate').toFixed(0)}%, reference ${worst('reference').toFixed(0)}%.`,
    '',
    'The session stores (SQLite branch read, JSONL reopen) are measured with their own tests and',
    'documents, not here.',
  );
  return lines.join('\n');
}
