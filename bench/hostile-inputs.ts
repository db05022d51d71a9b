/**
 * `npm run bench:hostile`: what one hostile input costs — counting 1 MB texts that the split
 * pattern keeps in one piece (runs of one character, a paragraph of Chinese without punctuation,
 * a long word) with the exact tokenizer, beside gpt-tokenizer's own encoder on shorter runs,
 * `manager.prepare` on a user message of 1 MB, and the HTML report of a 50 MB session in Chromium
 * (opening it, and each keystroke of a search). Writes docs/hostile-inputs.md. Every figure comes
 * from one run on one machine; each time is the median of a few runs, after a warm-up.
 */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { countTokens as encoderCount } from 'gpt-tokenizer/encoding/o200k_base';
import { chromium } from 'playwright-core';
import { approximateCounter, createContextManager, heuristicSummarizer } from '../src/index.js';
import { createTokenizerCounter } from '../src/tokenizer/index.js';
import { recordLargeSession } from '../test/cli/record-large-session.js';
import { runCli } from '../test/cli/run-cli.js';
import { corpus } from '../test/fixtures/corpus.js';
import { formatCount, formatTime, sample } from './measure.js';
import { table } from './report.js';

const MEGABYTE = 1_000_000;
const log = (text: string) => process.stderr.write(`[bench:hostile] ${text}\n`);

/** A text of about `length` UTF-16 units made of `unit` repeated. */
const repeat = (unit: string, length = MEGABYTE) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

/** Letters in an order with no period short enough to help a cache. */
function lettersWithoutSpaces(length: number): string {
  let state = 7;
  let text = '';
  for (let index = 0; index < length; index++) {
    state = (state * 48_271) % 2_147_483_647;
    text += String.fromCharCode(97 + (state % 26));
  }
  return text;
}

const HOSTILE_TEXTS: readonly (readonly [string, string])[] = [
  ['1,000,000 newlines', repeat('\n')],
  ['1,000,000 spaces', repeat(' ')],
  ['" \\n" × 500,000', repeat(' \n')],
  ['1,000,000 × "a"', repeat('a')],
  ['letters without a space', lettersWithoutSpaces(MEGABYTE)],
  ['Chinese without punctuation', repeat('中文字符串的长度')],
  ['emoji × 500,000', repeat('😀')],
  ['punctuation run', repeat('!@#$%^&*()')],
  ['digits', repeat('1234567890')],
  ['the corpus, repeated', repeat(corpus.map(({ text }) => text).join('\n'))],
];

const counter = createTokenizerCounter();
log('warming up');
counter.count(repeat('warm up\n', 200_000));

const counting: string[][] = [];
for (const [name, text] of HOSTILE_TEXTS) {
  log(`count: ${name}`);
  let tokens = 0;
  const exact = await sample(3, () => {
    tokens = counter.count(text);
  });
  const approximate = await sample(3, () => approximateCounter.count(text));
  counting.push([
    name,
    formatCount(text.length),
    formatCount(tokens),
    formatTime(exact.median),
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
for (const [name, text] of HOSTILE_TEXTS.slice(0, 6)) {
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
    log('report: Chromium');
    const { open, keys } = await timeReport(file, "node42' is");
    reportNote = `A session of ${formatCount(statSync(session).size)} bytes (JSONL); \`ctxkit report\` wrote a page of ${formatCount(statSync(file).size)} bytes in ${formatTime(written)}. In Chromium (headless) the page opened — loaded, and its first 100 messages drawn — in **${formatTime(open)}**. Each keystroke of a search, typed one by one (the time includes the 40 ms the page waits for more typing, the search and the next frame):`;
    for (const [character, time, count] of keys) reportRows.push([`\`${character}\``, formatTime(time), count]);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const report = `# Hostile inputs

What a single hostile input costs: written by \`npm run bench:hostile\` (\`bench/hostile-inputs.ts\`)
on ${cpus()[0]?.model ?? 'an unknown CPU'} (${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} at the end of the
run), Node ${process.version}. Each time is the median of three runs after a warm-up; compare the
ratios, not the absolute times.

## Counting 1 MB texts that are one piece

The exact counter (\`ctxkit/tokenizer\`, \`o200k_base\`) gives gpt-tokenizer's own count (a property
test checks it against the encoder) by merging byte pairs with a heap, in n log n time; the
encoder's merge loop is quadratic in a piece's length. The approximate counter is the root's
script-aware estimate.

${table(['text', 'UTF-16 units', 'tokens', 'exact counter', 'approximate counter'], ['l', 'r', 'r', 'r', 'r'], counting)}

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
