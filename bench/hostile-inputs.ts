/**
 * `npm run bench:hostile`: what one hostile input costs — counting 1 MB of each family of hostile
 * text (test/fixtures/adversarial-texts.ts: runs of one character, random letters, Chinese, emoji,
 * base64, random bytes, long numbers, minified JavaScript; test/tokenizer/more-hostile-texts.ts:
 * other scripts, alternating scripts, combining marks, whitespace, special-token text) with the
 * exact tokenizer, beside
 * gpt-tokenizer's own encoder on shorter runs, `manager.prepare` on a user message of 1 MB, and the
 * HTML report of a 50 MB session (writing it with `ctxkit report`, opening it in Chromium, and each
 * keystroke of a search). Writes docs/hostile-inputs.md. Every figure comes from one run on one
 * machine; each time is the median of a few runs (and the worst, for the counter), after a warm-up.
 */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { countTokens as encoderCount } from 'gpt-tokenizer/encoding/o200k_base';
import { chromium } from 'playwright-core';
import { branchTranscript } from '../src/cli/branch-transcript.js';
import { type ContextSettings, resolveWindow } from '../src/cli/context-settings.js';
import { inspectSession } from '../src/cli/inspect-session.js';
import { loadSession } from '../src/cli/load-session.js';
import { renderReport } from '../src/cli/render-report.js';
import { approximateCounter, createContextManager, heuristicSummarizer } from '../src/index.js';
import { createTokenizerCounter } from '../src/tokenizer/index.js';
import { recordLargeSession } from '../test/cli/record-large-session.js';
import { runCli } from '../test/cli/run-cli.js';
import { ADVERSARIAL_FAMILIES } from '../test/fixtures/adversarial-texts.js';
import { corpus } from '../test/fixtures/corpus.js';
import { MORE_HOSTILE_FAMILIES } from '../test/tokenizer/more-hostile-texts.js';
import { formatCount, formatTime, sample } from './measure.js';
import { table } from './report.js';

const MEGABYTE = 1_000_000;
const log = (text: string) => process.stderr.write(`[bench:hostile] ${text}\n`);

/** A text of about `length` UTF-16 units made of `unit` repeated. */
const repeat = (unit: string, length = MEGABYTE) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

const counter = createTokenizerCounter();
log('warming up');
counter.count(repeat('warm up\n', 200_000));

// Each family's 1 MB text, counted five times: the median and the worst of the five.
const loadBeforeCounting = loadavg()[0]!;
const counting: string[][] = [];
const texts = new Map<string, string>();
for (const { name, make } of [
  ...ADVERSARIAL_FAMILIES,
  ...MORE_HOSTILE_FAMILIES,
  { name: 'the corpus, repeated', make: (length: number) => repeat(corpus.map(({ text }) => text).join('\n'), length) },
]) {
  log(`count: ${name}`);
  const text = make(MEGABYTE);
  texts.set(name, text);
  let tokens = 0;
  counter.count(text);
  // The process's CPU time too: on a shared machine the wall clock counts other programs' turns.
  let cpu = 0;
  const exact = await sample(5, () => {
    const start = process.cpuUsage();
    tokens = counter.count(text);
    const used = process.cpuUsage(start);
    cpu = Math.max(cpu, (used.user + used.system) / 1000);
  });
  const approximate = await sample(3, () => approximateCounter.count(text));
  counting.push([
    name,
    formatCount(text.length),
    formatCount(tokens),
    formatTime(exact.median),
    formatTime(exact.max),
    formatTime(cpu),
    formatTime(approximate.median),
  ]);
}

const plainText = { disallowedSpecial: new Set<string>() };
const encoder: string[][] = [];
for (const length of [10_000, 20_000, 40_000, 80_000]) {
  log(`encoder: ${length} newlines`);
  const text = repeat('\n', length);
  const theirs = await sample(1, () => encoderCount(text, plainText));
  const ours = await sample(3, () => counter.count(text));
  encoder.push([formatCount(length), formatTime(theirs.median), formatTime(ours.median)]);
}

log('manager.prepare on a 1 MB user message');
const prepare: string[][] = [];
for (const name of ['newlines', 'spaces', 'one letter', 'random lowercase letters', 'random Chinese', 'base64']) {
  const text = texts.get(name)!;
  const times = await sample(3, async () => {
    const manager = createContextManager({
      contextWindow: 2_000_000,
      counter,
      summarizer: heuristicSummarizer,
    });
    await manager.prepare([{ role: 'user', content: text }]);
  });
  prepare.push([name, formatTime(times.median)]);
}

/** Opens the report in Chromium and types a query, timing the page's load and each keystroke. */
async function timeReport(file: string, query: string): Promise<{ open: number; keys: [string, number, string][] }> {
  const profile = mkdtempSync(join(tmpdir(), 'ctxkit-bench-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage();
    const start = performance.now();
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load', timeout: 120_000 });
    await page.waitForFunction('/ of /.test(document.getElementById("search-count").textContent)', null, {
      timeout: 120_000,
    });
    const open = performance.now() - start;
    const keys: [string, number, string][] = [];
    for (const character of query) {
      // Page code runs in the browser; it is given as text (no DOM types here). It types one
      // character and waits for the count to change and the next frame to be drawn.
      const [time, count] = await page.evaluate<[number, string]>(`(async () => {
        const input = document.getElementById('search');
        const count = document.getElementById('search-count');
        const start = performance.now();
        input.value += ${JSON.stringify(character)};
        input.dispatchEvent(new Event('input'));
        await new Promise((resolve) => {
          const observer = new MutationObserver(() => { observer.disconnect(); resolve(); });
          observer.observe(count, { childList: true, characterData: true, subtree: true });
          setTimeout(resolve, 30000);
        });
        await new Promise((resolve) => requestAnimationFrame(resolve));
        return [performance.now() - start, count.textContent];
      })()`);
      keys.push([character, time, count]);
    }
    return { open, keys };
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const CHROMIUM = '/usr/bin/chromium';
const reportRows: string[][] = [];
let reportNote = `Not run: no Chromium at ${CHROMIUM}.`;
if (existsSync(CHROMIUM)) {
  log('report: recording a 50 MB session');
  const directory = mkdtempSync(join(tmpdir(), 'ctxkit-bench-report-'));
  try {
    const session = await recordLargeSession(directory, 50);
    const file = join(directory, 'report.html');
    log('report: ctxkit report');
    const started = performance.now();
    const run = await runCli(['report', session, '-o', file, '--window', '200000']);
    if (run.exitCode !== 0) throw new Error(run.stderr);
    const written = performance.now() - started;
    // The same work in this process, for its CPU time: reading, measuring and rendering the session.
    const cpuStart = process.cpuUsage();
    const loaded = await loadSession(session);
    const settings: ContextSettings = {
      ...resolveWindow({ window: 200_000, model: undefined, sessionModel: undefined }),
      config: {},
      systemPrompt: undefined,
      tools: undefined,
    };
    const inspection = await inspectSession(loaded, settings);
    const page = renderReport(inspection, branchTranscript(loaded, inspection));
    const cpuUsed = process.cpuUsage(cpuStart);
    const writtenCpu = (cpuUsed.user + cpuUsed.system) / 1000;
    log('report: Chromium');
    const { open, keys } = await timeReport(file, "node42' is");
    reportNote = `A session of ${formatCount(statSync(session).size)} bytes (JSONL); \`ctxkit report\` wrote a page of ${formatCount(statSync(file).size)} bytes in ${formatTime(written)} (its work — reading, measuring and rendering a page of ${formatCount(page.length)} characters — takes ${formatTime(writtenCpu)} of CPU time). In Chromium (headless) the page opened — loaded, and its first 100 messages drawn — in **${formatTime(open)}**. Each keystroke of a search, typed one by one (the time includes the 40 ms the page waits for more typing, the search and the next frame):`;
    for (const [character, time, count] of keys) reportRows.push([`\`${character}\``, formatTime(time), count]);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Said when the load was above the core count: the wall-clock times then include other programs' turns. */
const SHARED_NOTE = `

The load average was above the number of cores: other programs shared the processor, and the
wall-clock times include their turns (several times the work on a quiet machine). The CPU time
column counts this process only, but it too grows on a busy machine (caches shared with others).`;

const report = `# Hostile inputs

What a single hostile input costs: written by \`npm run bench:hostile\` (\`bench/hostile-inputs.ts\`)
on ${cpus()[0]?.model ?? 'an unknown CPU'} (${cpus().length} cores, load average ${loadBeforeCounting.toFixed(1)} when the counting
began and ${loadavg()[0]!.toFixed(1)} at the end of the run), Node ${process.version}. Each time is the median of a few runs after a warm-up; compare the
ratios, not the absolute times.${loadBeforeCounting > cpus().length ? SHARED_NOTE : ''}

## Counting 1 MB of hostile text

Each family of \`test/fixtures/adversarial-texts.ts\` and \`test/tokenizer/more-hostile-texts.ts\` at
1,000,000 UTF-16 units: runs the split pattern keeps in one piece (one character, a few letters
repeated, random letters of one script or of many, letters with combining marks, Chinese, emoji),
texts it cuts into many short pieces that seldom repeat (base64, hex, random bytes, random UTF-16
units, code points of every plane), whitespace, special-token text, long numbers and minified
JavaScript. The exact counter (\`ctxkit/tokenizer\`, \`o200k_base\`) gives gpt-tokenizer's own count
(tests check it on every family, shorter, against the encoder): it cuts a long piece where no token
of the encoding can span, and merges each range alone (short ones by scanning their pairs, longer
ones with a heap, a run of one character with one queue per rank); the encoder's merge loop is
quadratic in a piece's length. Five runs each, after one to warm up: the median and the worst, and
the worst in CPU time (the process's, garbage collection included), which other programs on a
shared machine do not inflate as much. The approximate counter is the root's script-aware
estimate.

${table(['text', 'UTF-16 units', 'tokens', 'exact counter (median)', 'exact counter (worst)', 'exact counter (worst CPU time)', 'approximate counter'], ['l', 'r', 'r', 'r', 'r', 'r', 'r'], counting)}

## Runs of newlines: gpt-tokenizer's encoder beside the exact counter

${table(['newlines', 'gpt-tokenizer countTokens', 'ctxkit/tokenizer count'], ['r', 'r', 'r'], encoder)}

## \`manager.prepare\` on one user message of 1 MB (exact counter, fresh manager)

${table(['message', 'prepare'], ['l', 'r'], prepare)}

## The HTML report of a session of about 50 MB

${reportNote}

${reportRows.length === 0 ? '' : table(['key', 'time to the answer', 'count shown'], ['l', 'r', 'r'], reportRows)}
`;

writeFileSync(new URL('../docs/hostile-inputs.md', import.meta.url), report);
console.log(report);
