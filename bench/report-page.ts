/**
 * The HTML report of a 50 MB session, for `npm run bench:hostile` (the section "The HTML report of a
 * session of about 50 MB" of docs/hostile-inputs.md): writing it with `ctxkit report` (its CPU time
 * in this process, three times), opening it in Chromium and typing a search (five times each, timed
 * in the page as `npm run test:browser-heavy` times it: test/cli/report-timing.ts).
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { branchTranscript } from '../src/cli/branch-transcript.js';
import { type ContextSettings, resolveWindow } from '../src/cli/context-settings.js';
import { inspectSession } from '../src/cli/inspect-session.js';
import { loadSession } from '../src/cli/load-session.js';
import { renderReport } from '../src/cli/render-report.js';
import { readReportTranscript } from '../test/cli/read-report-transcript.js';
import { recordRealisticSession } from '../test/cli/record-realistic-session.js';
import { CHROMIUM, CHROMIUM_ARGS, KEYS, openReport, typeQuery } from '../test/cli/report-timing.js';
import { runCli } from '../test/cli/run-cli.js';
import { formatCount, formatTime, summarize } from './measure.js';
import { table } from './report.js';

const RUNS = 5;
const log = (text: string) => process.stderr.write(`[bench:hostile] report: ${text}\n`);
const cpuNow = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

/** The CPU time of reading, measuring and rendering the session in this process, and the page's length. */
async function writeCpu(session: string): Promise<{ cpu: number; characters: number }> {
  const start = cpuNow();
  const loaded = await loadSession(session);
  const settings: ContextSettings = {
    ...resolveWindow({ window: 200_000, model: undefined, sessionModel: undefined }),
    config: {},
    systemPrompt: undefined,
    tools: undefined,
  };
  const inspection = await inspectSession(loaded, settings);
  const page = renderReport(inspection, branchTranscript(loaded, inspection));
  return { cpu: cpuNow() - start, characters: page.length };
}

/** The markdown section, measured now (or saying why not). */
export async function benchReportPage(): Promise<string> {
  const heading = '## The HTML report of a session of about 50 MB';
  if (!existsSync(CHROMIUM)) return `${heading}\n\nNot run: no Chromium at ${CHROMIUM}.\n`;
  const directory = mkdtempSync(join(tmpdir(), 'ctxkit-bench-report-'));
  const profile = mkdtempSync(join(tmpdir(), 'ctxkit-bench-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    log('recording a session of 50 MB of real tool output');
    const session = await recordRealisticSession(directory, 50);
    const file = join(directory, 'report.html');
    log('ctxkit report');
    const started = performance.now();
    const run = await runCli(['report', session, '-o', file, '--window', '200000']);
    if (run.exitCode !== 0) throw new Error(run.stderr);
    const written = performance.now() - started;
    const cpu: number[] = [];
    let characters = 0;
    for (let index = 0; index < 3; index++) {
      const measured = await writeCpu(session);
      cpu.push(measured.cpu);
      characters = measured.characters;
    }
    const messages = readReportTranscript(file).length;
    log('Chromium');
    const opens: number[] = [];
    const keys: number[][] = KEYS.map(() => []);
    for (let index = 0; index < RUNS; index++) {
      const { page, open } = await openReport(browser, file);
      opens.push(open);
      for (const [key, time] of (await typeQuery(page)).entries()) keys[key]!.push(time);
      await page.close();
    }
    const rows = [
      [
        'open (drawn and counted)',
        formatTime(summarize(opens).median),
        formatTime(Math.min(...opens)),
        formatTime(Math.max(...opens)),
      ],
      ...KEYS.map((key, index) => {
        const times = summarize(keys[index]!);
        return [
          `key \`${key}\``,
          formatTime(times.median),
          formatTime(Math.min(...keys[index]!)),
          formatTime(times.max),
        ];
      }),
    ];
    return `${heading}

A session of ${formatCount(statSync(session).size)} bytes (JSONL, ${formatCount(messages)} messages) made of real tool output (\`test/cli/record-realistic-session.ts\`: an agent reading this repository's files, searching them, reading its history and running the tools of the recorded corpus). \`ctxkit report\` wrote a page of ${formatCount(statSync(file).size)} bytes (the transcript gzipped and in base64) in ${formatTime(written)}; its work — reading, measuring and rendering a page of ${formatCount(characters)} characters — takes ${formatTime(summarize(cpu).median)} of CPU time (median of 3).

In Chromium (headless, 1200×900), ${RUNS} times: the page opened — loaded, unpacked, and its first 100 messages drawn and counted — and the query was typed at once, one key at a time, each answer awaited. Times are taken in the page (\`test/cli/report-timing.ts\`): the open from the navigation's start, a key from its own event time to the first frame after the count changed. \`npm run test:browser-heavy\` holds the best of five to under 3 s and 200 ms. Load average ${loadavg()[0]!.toFixed(1)} at the end.

${table(['step', 'median', 'best', 'worst'], ['l', 'r', 'r', 'r'], rows)}
`;
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
    rmSync(directory, { recursive: true, force: true });
  }
}
