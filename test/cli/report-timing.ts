// Times the HTML report in a real headless Chromium, for `npm run test:browser-heavy` and `npm run
// bench:hostile`. The times are taken in the page, from the navigation's start (performance.now):
// opening ends at the first frame in which the transcript is drawn and counted; a keystroke's answer
// at the first frame after the search count changed, counted from the key's own event time, so a
// page too busy to take the key is timed too.
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';

/** Typed one key at a time, each answer awaited: a query, a correction, a new ending. */
export const KEYS: readonly string[] = [...'StoreError', 'Backspace', 'Backspace', 'Backspace', ...'ror('];

/** The query KEYS leave in the search box. */
export const TYPED_QUERY = KEYS.reduce((text, key) => (key === 'Backspace' ? text.slice(0, -1) : text + key), '');

/**
 * Runs in the page before its own script (as text: the tests compile without DOM types). Notes the
 * first frame in which the transcript is drawn and counted, the time of each key, the first frame
 * after each change of the search count, and the long tasks.
 */
const PROBE = `(() => {
  const probe = { opened: 0, key: 0, answered: 0, longTasks: [] };
  window.__probe = probe;
  try {
    new PerformanceObserver((list) => {
      for (const task of list.getEntries()) probe.longTasks.push([Math.round(task.startTime), Math.round(task.duration)]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  addEventListener('keydown', (event) => { probe.key = event.timeStamp; probe.answered = 0; }, true);
  let watching = false;
  function watch() {
    const count = document.getElementById('search-count');
    if (count && !watching) {
      watching = true;
      new MutationObserver(() => requestAnimationFrame(() => { if (!probe.answered) probe.answered = performance.now(); }))
        .observe(count, { childList: true, characterData: true, subtree: true });
    }
    if (count && / of /.test(count.textContent) && document.querySelector('#transcript > li')) probe.opened = performance.now();
    else requestAnimationFrame(watch);
  }
  requestAnimationFrame(watch);
})();`;

interface Probe {
  opened: number;
  key: number;
  answered: number;
  longTasks: [number, number][];
}

/** The probe, inside page functions (which are sent to the page as text, so each spells it out). */
type WithProbe = { __probe: Probe };

/** Opens the report in a new page; resolves with the page and the time it took to open, in ms. */
export async function openReport(browser: BrowserContext, file: string): Promise<{ page: Page; open: number }> {
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1200, height: 900 });
  await page.addInitScript(PROBE);
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load', timeout: 120_000 });
  await page.waitForFunction(() => (globalThis as unknown as WithProbe).__probe.opened > 0, null, {
    timeout: 120_000,
  });
  return { page, open: await page.evaluate(() => (globalThis as unknown as WithProbe).__probe.opened) };
}

/** Types KEYS into the search, one key at a time; resolves with each key's time to its answer, in ms. */
export async function typeQuery(page: Page): Promise<number[]> {
  await page.focus('#search');
  const times: number[] = [];
  for (const key of KEYS) {
    await page.keyboard.press(key);
    await page.waitForFunction(() => (globalThis as unknown as WithProbe).__probe.answered > 0, null, {
      timeout: 60_000,
      polling: 10,
    });
    times.push(
      await page.evaluate(() => {
        const { answered, key } = (globalThis as unknown as WithProbe).__probe;
        return answered - key;
      }),
    );
  }
  return times;
}

/** The page's long tasks so far, as [start, duration] in ms. */
export function longTasks(page: Page): Promise<[number, number][]> {
  return page.evaluate(() => (globalThis as unknown as WithProbe).__probe.longTasks);
}

/** Chromium as the report's tests drive it. */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
];
