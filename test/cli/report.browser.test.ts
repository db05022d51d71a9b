// The HTML report opened in a real headless Chromium (Debian's `chromium`, driven by playwright-core).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readReportTranscript } from './read-report-transcript.js';
import { recordLargeSession } from './record-large-session.js';
import { CASE_FOLD_PAYLOAD, type RecordedSessions, recordSessions, XSS_PAYLOAD } from './record-sessions.js';
import { runCli } from './run-cli.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(process.cwd(), 'test-artifacts');
const available = existsSync(CHROMIUM);

if (!available) {
  if (process.env.CI === 'true') {
    throw new Error(`The report's browser test needs Chromium at ${CHROMIUM}: run apt-get install -y chromium.`);
  }
  console.warn(`Skipping the report's browser test: no Chromium at ${CHROMIUM} (apt-get install -y chromium).`);
}

interface CompactionView {
  checkpoint: string;
  kept: number;
  summarized: number;
  archived: number;
  previous: number;
  sideBySide: boolean;
}

let sessions: RecordedSessions;
let browser: BrowserContext;
let profile: string;
const reports: Record<'compacted' | 'plain' | 'large', string> = { compacted: '', plain: '', large: '' };
/** Every URL the pages asked for: a self-contained report asks for nothing but itself. */
const requests: string[] = [];

async function open(report: string, options: { colorScheme?: 'light' | 'dark'; width?: number } = {}): Promise<Page> {
  const page = await browser.newPage();
  await page.emulateMedia({ colorScheme: options.colorScheme ?? 'light' });
  await page.setViewportSize({ width: options.width ?? 1200, height: 900 });
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(pathToFileURL(report).href);
  // The script unpacks the transcript after the load event: the page is open once it is drawn.
  await page.locator('#transcript > li').first().waitFor();
  return page;
}

describe.skipIf(!available)('ctxkit report in Chromium', () => {
  beforeAll(async () => {
    sessions = await recordSessions(mkdtempSync(join(tmpdir(), 'ctxkit-report-')));
    const settings = [
      '--window',
      '16000',
      '--reserve',
      '3000',
      '--keep-recent-tokens',
      '2000',
      '--tool-call-cutoff',
      '4',
      '--tool-summary-batch',
      '0',
    ];
    reports.compacted = join(sessions.directory, 'compacted.html');
    reports.plain = join(sessions.directory, 'plain.html');
    reports.large = join(sessions.directory, 'large.html');
    const large = await recordLargeSession(join(sessions.directory, 'large'), 3);
    const [compacted, plain, largeRun] = await Promise.all([
      runCli(['report', sessions.compacted, '-o', reports.compacted, ...settings]),
      runCli(['report', sessions.plain, '-o', reports.plain, '--window', '8000', '--reserve', '1000']),
      runCli(['report', large, '-o', reports.large, '--window', '200000']),
    ]);
    expect(largeRun).toMatchObject({ exitCode: 0, stderr: '' });
    expect(compacted).toMatchObject({ exitCode: 0, stderr: '' });
    expect(plain).toMatchObject({ exitCode: 0, stderr: '' });
    profile = mkdtempSync(join(tmpdir(), 'ctxkit-chromium-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    rmSync(profile, { recursive: true, force: true });
    rmSync(sessions.directory, { recursive: true, force: true });
  });

  test('draws the usage chart with the window, the thresholds and each compaction', async () => {
    const page = await open(reports.compacted);
    const chart = page.locator('svg.chart');
    await expect.poll(() => chart.count()).toBe(1);
    const calls = Number(await chart.getAttribute('data-calls'));
    expect(calls).toBeGreaterThan(20);
    const points = await page.locator('svg.chart polyline.usage').getAttribute('points');
    expect(points?.trim().split(' ')).toHaveLength(calls);
    for (const name of ['window', 'limit', 'warning']) {
      expect(await page.locator(`svg.chart .threshold-${name}`).count()).toBe(1);
    }
    expect(await page.locator('svg.chart .threshold-limit').getAttribute('data-tokens')).toBe('13000');
    const markers = page.locator('svg.chart a.compaction-marker');
    expect(await markers.count()).toBe(sessions.compactions);
    // The chart is drawn: the usage line has a real size on the page.
    const box = await page.locator('svg.chart polyline.usage').boundingBox();
    expect(box?.width).toBeGreaterThan(300);
    await page.screenshot({ path: join(ARTIFACTS, 'report-light.png') });
    // A marker is a link to its compaction, reachable with the keyboard.
    await markers.first().focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('location.hash')).toBe('#compaction-1');
    await page.close();
  });

  test('sets each checkpoint beside what it replaced: kept, summarized and archived told apart', async () => {
    const page = await open(reports.compacted);
    const articles = page.locator('article.compaction');
    // Page code runs in the browser; it is given as text (the tests compile without DOM types).
    const found = await page.evaluate<CompactionView[]>(`
      Array.from(document.querySelectorAll('article.compaction'), (article) => {
        const count = (fate) => article.querySelectorAll('li[data-fate="' + fate + '"]').length;
        const checkpoint = article.querySelector('.checkpoint').getBoundingClientRect();
        const replaced = article.querySelector('.replaced').getBoundingClientRect();
        return {
          checkpoint: article.querySelector('.checkpoint pre').textContent,
          kept: count('kept'),
          summarized: count('summarized'),
          archived: count('archived'),
          previous: count('previous-summary'),
          sideBySide: replaced.left >= checkpoint.right - 1,
        };
      })`);
    expect(found).toHaveLength(sessions.compactions);
    for (const compaction of found) {
      expect(compaction.checkpoint).toContain('## Goal');
      expect(compaction.kept).toBeGreaterThan(0);
      expect(compaction.summarized).toBeGreaterThan(0);
      expect(compaction.archived).toBeGreaterThan(0);
      expect(compaction.sideBySide).toBe(true);
    }
    expect(found.map((compaction) => compaction.previous)).toEqual([0, ...found.slice(1).map(() => 1)]);
    // A replaced message opens with the keyboard.
    const summary = articles.first().locator('li[data-fate="kept"] summary').first();
    await summary.focus();
    await page.keyboard.press('Enter');
    expect(await articles.first().locator('li[data-fate="kept"] details').first().getAttribute('open')).not.toBeNull();
    await page.close();
  });

  test('searches the branch on the client, from the keyboard', async () => {
    const page = await open(reports.compacted);
    const data = readReportTranscript(reports.compacted);
    const total = data.length;
    expect(total).toBeGreaterThan(50);
    expect(await page.locator('#transcript > li').count()).toBe(Math.min(total, 100));
    await expect.poll(() => page.locator('#search-count').textContent()).toBe(`${total} of ${total} messages`);
    await page.keyboard.press('/');
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('search');
    const query = 'Turn 7: keep fixing';
    // Which messages hold it, read from the page's own data (a long message is drawn cut).
    const matching = data.filter((row) => row.text.includes(query)).length;
    expect(matching).toBeGreaterThan(0);
    expect(matching).toBeLessThan(total);
    await page.keyboard.type(query);
    await expect.poll(() => page.locator('#transcript > li:not([hidden])').count()).toBe(matching);
    expect(await page.locator('#search-count').textContent()).toBe(`${matching} of ${total} messages`);
    const marks = await page.locator('#transcript > li:not([hidden]) mark').allTextContents();
    expect(marks.length).toBeGreaterThanOrEqual(matching);
    expect(new Set(marks)).toEqual(new Set([query]));
    // The user's own message is among the matches.
    expect(await page.locator('#transcript > li:not([hidden])[data-label^="user message"]').count()).toBe(1);
    // Filter by status: the messages compacted away.
    await page.fill('#search', '');
    await page.selectOption('#search-filter', 'compacted');
    const compacted = await page.locator('#transcript > li:not([hidden])').count();
    expect(compacted).toBeGreaterThan(0);
    expect(compacted).toBeLessThan(total);
    expect(await page.locator('#transcript > li:not([hidden]):not([data-status="compacted"])').count()).toBe(0);
    expect(await page.locator('label[for="search"]').count()).toBe(1);
    await page.close();
  });

  test('highlights the text that matches, even after characters that change length when lowercased', async () => {
    const page = await open(reports.plain);
    expect(await page.locator('#transcript').textContent()).toContain(CASE_FOLD_PAYLOAD);
    await page.fill('#search', 'PARSER');
    await expect.poll(() => page.locator('#transcript > li:not([hidden]) mark').count()).toBeGreaterThan(3);
    const marks = await page.locator('#transcript > li:not([hidden]) mark').allTextContents();
    expect(new Set(marks.map((mark) => mark.toLowerCase()))).toEqual(new Set(['parser']));
    // "İ" itself is found and marked whole.
    await page.fill('#search', 'İİ the');
    await expect.poll(() => page.locator('#transcript > li:not([hidden]) mark').first().textContent()).toBe('İİ the');
    await page.close();
  });

  test('draws a large session a page at a time, long messages cut until asked for whole', async () => {
    // What keeps a 50 MB session's report fast (npm run bench:hostile times it): the page draws a
    // bounded part of the transcript, whatever the session's size, and searches its own data.
    const page = await open(reports.large);
    expect(readReportTranscript(reports.large)).toHaveLength(450);
    await expect.poll(() => page.locator('#search-count').textContent()).toBe('450 of 450 messages');
    const drawn = page.locator('#transcript > li');
    expect(await drawn.count()).toBe(100);
    const drawnText = await page.evaluate<number>(`document.getElementById('transcript').textContent.length`);
    expect(drawnText).toBeLessThan(100 * 3_400);
    // The next page, from the keyboard.
    await page.locator('#show-more').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => drawn.count()).toBe(200);
    // A tool result of about 16,000 characters is cut, and opens whole on request.
    const result = page.locator('#transcript > li[data-label^="toolResult"]').first();
    expect((await result.locator('pre').textContent())!.length).toBeLessThan(3_100);
    await result.locator('button.whole').click();
    expect((await result.locator('pre').textContent())!.length).toBeGreaterThan(15_000);
    // A hit past the cut is shown with the text around it, marked.
    await page.fill('#search', "Node159' is not assignable (turn 77)");
    await expect.poll(() => page.locator('#search-count').textContent()).toBe('1 of 450 messages');
    expect(await page.locator('#transcript mark').allTextContents()).toEqual(["Node159' is not assignable (turn 77)"]);
    expect(await page.locator('#transcript pre').textContent()).toMatch(/^… [\d,]+ characters before …/);
    await page.close();
  });

  test('shows session text as text: the XSS payload stays inert', async () => {
    const page = await open(reports.plain);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    // One script runs; the other element is the transcript as compressed data, which never runs.
    expect(await page.locator('script').count()).toBe(2);
    expect(await page.locator('script[type="application/gzip"]').count()).toBe(1);
    expect(readReportTranscript(reports.plain).some((row) => row.text.includes(XSS_PAYLOAD))).toBe(true);
    expect(await page.locator('#transcript').textContent()).toContain(XSS_PAYLOAD);
    expect(readFileSync(reports.plain, 'utf8')).not.toContain('<script>window.__xss');
    expect(errors).toEqual([]);
    await page.close();
  });

  test('is readable on a phone and in dark mode, and loads nothing from the network', async () => {
    const page = await open(reports.compacted, { colorScheme: 'dark', width: 390 });
    const background = await page.evaluate('getComputedStyle(document.body).backgroundColor');
    expect(background).toBe('rgb(13, 17, 23)');
    // No sideways scrolling: the page fits the phone's width.
    const widths = await page.evaluate<number[]>('[document.documentElement.scrollWidth, window.innerWidth]');
    expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    // One column: the checkpoint sits above what it replaced.
    const article = page.locator('article.compaction').first();
    const checkpoint = await article.locator('.checkpoint').boundingBox();
    const replaced = await article.locator('.replaced').boundingBox();
    expect(replaced!.y).toBeGreaterThan(checkpoint!.y);
    await page.screenshot({ path: join(ARTIFACTS, 'report-phone-dark.png') });
    await page.close();
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((url) => url.startsWith('file://'))).toBe(true);
  });
});
