/**
 * The report's stylesheet: light and dark (`prefers-color-scheme`), one column on a phone, system
 * fonts only. The browser lays out only the sections and messages near the screen
 * (`content-visibility`): a long session's tables hold tens of thousands of cells.
 *
 * @internal
 */
export const REPORT_STYLES = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --panel: #f6f8fa;
  --accent: #0969da; --usage: #0969da; --window: #1b1f24; --limit: #cf222e; --warning: #9a6700; --compaction: #8250df;
  --kept: #1a7f37; --summarized: #9a6700; --archived: #57606a; --previous: #8250df; --mark: #fff8c5; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #30363d; --panel: #161b22; --accent: #4493f8;
    --usage: #4493f8; --window: #e6edf3; --limit: #f85149; --warning: #d29922; --compaction: #ab7df8;
    --kept: #3fb950; --summarized: #d29922; --archived: #9198a1; --previous: #ab7df8; --mark: #5a4a00; }
}
* { box-sizing: border-box; } figure { margin: 0; }
body { margin: 0; background: var(--bg); color: var(--fg); line-height: 1.5;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 8px; top: 8px; background: var(--panel); padding: 4px 8px; }
header, main, nav { max-width: 1100px; margin: 0 auto; padding: 0 16px; }
header { padding-top: 16px; } h1 { font-size: 1.4rem; margin: 0 0 4px; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; border-bottom: 1px solid var(--line); padding-bottom: 4px; margin-top: 32px; }
h3 { font-size: 1rem; margin: 0 0 8px; } h4 { margin: 0 0 6px; font-size: .95rem; }
.meta { color: var(--muted); margin: 0; overflow-wrap: anywhere; }
nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: 4px 16px; padding: 0; margin: 12px 0 0; }
a { color: var(--accent); } :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.summary-cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 8px; margin-top: 12px; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; }
.card strong { display: block; font-size: 1.2rem; }
.chart { width: 100%; height: auto; display: block; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; }
.chart text { fill: var(--muted); font-size: 12px; } .chart .tick line { stroke: var(--line); }
.chart .usage { fill: none; stroke: var(--usage); stroke-width: 2.5; } .chart .point { fill: var(--usage); }
.chart .reported { fill: var(--muted); opacity: .7; }
.chart .threshold line { stroke-width: 1.5; stroke-dasharray: 6 4; }
.chart .threshold-window line { stroke: var(--window); stroke-dasharray: none; } .chart .threshold-window text { fill: var(--window); }
.chart .threshold-limit line { stroke: var(--limit); } .chart .threshold-limit text { fill: var(--limit); }
.chart .threshold-warning line { stroke: var(--warning); } .chart .threshold-warning text { fill: var(--warning); }
.chart .compaction-marker line { stroke: var(--compaction); stroke-dasharray: 2 3; }
.chart .compaction-marker .drop { stroke-width: 4; stroke-dasharray: none; opacity: .6; }
.chart .compaction-marker circle { fill: var(--compaction); } .chart .compaction-marker text { fill: var(--compaction); font-weight: 600; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; color: var(--muted); font-size: .9rem; padding: 0; list-style: none; }
.swatch { display: inline-block; width: 14px; height: 4px; vertical-align: middle; margin-right: 4px; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.bar { height: 8px; background: var(--usage); border-radius: 4px; min-width: 1px; }
.table-scroll { overflow-x: auto; }
article.compaction { border: 1px solid var(--line); border-radius: 6px; padding: 12px; margin: 12px 0; background: var(--panel); }
.compare { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
@media (max-width: 720px) { .compare { grid-template-columns: 1fr; } body { font-size: 14px; } }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.checkpoint pre { background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: 8px; max-height: 32rem; overflow: auto; }
ol.messages { list-style: none; padding: 0; margin: 0; }
ol.messages li { border-left: 4px solid var(--line); padding: 4px 8px; margin: 4px 0; background: var(--bg); }
#transcript > li { content-visibility: auto; contain-intrinsic-size: auto 8rem; }
main > section:not(#search-section) { content-visibility: auto; contain-intrinsic-size: auto 40rem; }
li[data-fate="kept"], li[data-status="in-context"] { border-left-color: var(--kept); }
li[data-fate="summarized"], li[data-status="compacted"] { border-left-color: var(--summarized); }
li[data-fate="archived"], li[data-status="archived"] { border-left-color: var(--archived); }
li[data-fate="previous-summary"], li[data-status="checkpoint"] { border-left-color: var(--previous); }
.badge { display: inline-block; font-size: .75rem; font-weight: 600; padding: 0 6px; border-radius: 10px; border: 1px solid currentColor; margin-right: 6px; }
.badge-kept, .badge-in-context { color: var(--kept); } .badge-summarized, .badge-compacted { color: var(--summarized); }
.badge-archived { color: var(--archived); } .badge-previous-summary, .badge-checkpoint { color: var(--previous); }
details > summary { cursor: pointer; } details pre { margin-top: 4px; }
.message-head { display: flex; flex-wrap: wrap; gap: 4px 8px; align-items: baseline; }
.message-head .who { font-weight: 600; } .message-head .tokens { color: var(--muted); font-size: .85rem; }
.search-row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.search-row input { flex: 1 1 240px; font: inherit; padding: 6px 8px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); }
.search-row select { font: inherit; padding: 6px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); }
mark { background: var(--mark); color: inherit; }
.warning { border: 1px solid var(--warning); border-radius: 6px; padding: 8px 12px; }
footer { max-width: 1100px; margin: 32px auto; padding: 0 16px; color: var(--muted); font-size: .85rem; }
`;

/**
 * The report's one script: draws the transcript from the page's own data and searches it. It reads
 * only the page's own text; nothing is evaluated or fetched.
 *
 * A session of 50 MB must open in a second or two and answer each keystroke at once (`npm run
 * test:browser-heavy` holds it to under 3 s and 200 ms), so the script does little at a time:
 * - the transcript comes compressed (`encodeTranscript`): the browser unpacks and decodes it
 *   (DecompressionStream) after the page has loaded, into one string each message's text is a
 *   slice of (no JSON to parse, no copy), so that every text is ready before the first keystroke;
 * - the messages are drawn 100 at a time, each cut to 3,000 characters until asked for whole, and
 *   the browser lays out only those on screen (`content-visibility`);
 * - a search is a case-insensitive regular expression of the query's characters (flags `iu`: each
 *   character matches its case variants, one character for one, so a hit is marked where it is
 *   even after a character such as "İ" whose lowercase is longer): nothing is lowercased ahead;
 * - no piece of work holds the page for more than about 10 ms: a search runs in slices, so a key
 *   pressed meanwhile is taken at once, and the newer query replaces the older one;
 * - a query that contains an earlier one is searched for only among that one's hits (of the last
 *   64 answers, the fewest), and a query met again (a correction with Backspace) is answered from
 *   them.
 *
 * @internal
 */
export const REPORT_SCRIPT = `
(() => {
  const PAGE = 100;
  const CLIP = 3000;
  const BEFORE_HIT = 200;
  const SLICE_MS = 10;
  const CACHED_ANSWERS = 64;
  const STATUS_LABELS = { 'in-context': 'in context', archived: 'archived', compacted: 'compacted away', checkpoint: 'checkpoint' };
  const input = document.getElementById('search');
  const status = document.getElementById('search-filter');
  const count = document.getElementById('search-count');
  const list = document.getElementById('transcript');
  const more = document.getElementById('show-more');
  const source = document.getElementById('transcript-data');
  // Each row: [entry id, status, label, kind, ISO time, the text's length].
  let rows = [];
  let texts;
  let labels;
  let everyRow = [];
  let ready = false;

  // Runs queued steps one per task: what keeps each piece of work short and the page awake.
  const steps = [];
  const channel = new MessageChannel();
  channel.port1.onmessage = () => { const step = steps.shift(); if (step) step(); };
  function later(step) { steps.push(step); channel.port2.postMessage(0); }

  // The query as a pattern that finds it whatever the case.
  function pattern(text, flags) {
    return new RegExp(text.replace(/[\\\\^$.*+?()[\\]{}|\\/]/g, '\\\\$&'), flags);
  }

  let query = '';
  let marker = null;
  let matches = everyRow;
  let drawn = 0;
  function span(className, text) {
    const element = document.createElement('span');
    element.className = className;
    element.textContent = text;
    return element;
  }
  // Appends text[start, end) with the hits marked; a hit that starts before the end is shown
  // whole. Returns where the shown text ends.
  function appendMarked(body, text, start, end) {
    if (!marker) { body.append(text.slice(start, end)); return end; }
    let from = start;
    marker.lastIndex = from;
    for (let hit = marker.exec(text); hit && hit.index < end; hit = marker.exec(text)) {
      body.append(text.slice(from, hit.index));
      const mark = document.createElement('mark');
      mark.textContent = hit[0];
      body.append(mark);
      from = hit.index + hit[0].length;
    }
    if (from < end) body.append(text.slice(from, end));
    return Math.max(from, end);
  }
  function fillText(body, index, whole) {
    const text = texts[index];
    let start = 0;
    let end = whole ? text.length : Math.min(text.length, CLIP);
    if (!whole && marker) {
      marker.lastIndex = 0;
      const first = marker.exec(text);
      if (first && first.index >= end) {
        start = Math.max(0, first.index - BEFORE_HIT);
        end = Math.min(text.length, start + CLIP);
      }
    }
    body.textContent = '';
    if (start > 0) body.append('… ' + start.toLocaleString('en-US') + ' characters before …\\n');
    end = appendMarked(body, text, start, end);
    if (end < text.length) body.append('\\n… ' + (text.length - end).toLocaleString('en-US') + ' more characters');
  }
  function item(index) {
    const [entryId, state, label, kind, time] = rows[index];
    const text = texts[index];
    const element = document.createElement('li');
    element.dataset.status = state;
    element.dataset.label = label + ' ' + kind;
    element.id = 'entry-' + entryId;
    const head = document.createElement('div');
    head.className = 'message-head';
    head.append(span('badge badge-' + state, STATUS_LABELS[state]), span('who', label));
    if (kind !== 'message') head.append(span('tokens', kind));
    head.append(span('tokens', time));
    const body = document.createElement('pre');
    fillText(body, index, false);
    element.append(head, body);
    if (text.length > CLIP) {
      const whole = document.createElement('button');
      whole.type = 'button';
      whole.className = 'whole';
      whole.textContent = 'Show the whole message (' + text.length.toLocaleString('en-US') + ' characters)';
      whole.addEventListener('click', () => { fillText(body, index, true); whole.remove(); });
      element.append(whole);
    }
    return element;
  }
  function drawMore() {
    const fragment = document.createDocumentFragment();
    const until = Math.min(matches.length, drawn + PAGE);
    for (; drawn < until; drawn++) fragment.append(item(matches[drawn]));
    list.append(fragment);
    const rest = matches.length - drawn;
    more.hidden = rest === 0;
    more.textContent = 'Show ' + Math.min(PAGE, rest) + ' more (' + rest.toLocaleString('en-US') + ' not shown)';
  }
  function show(nextQuery, found) {
    query = nextQuery;
    marker = query ? pattern(query, 'giu') : null;
    matches = found;
    list.textContent = '';
    drawn = 0;
    drawMore();
    count.textContent = matches.length.toLocaleString('en-US') + ' of ' + rows.length.toLocaleString('en-US') + ' messages';
  }

  // The answers of recent searches, by filter and query. A text that holds a query holds every
  // part of it, whatever the case: so a query is searched for only among the fewest hits of an
  // earlier query it contains.
  const answers = new Map();
  function remember(key, answer) {
    answers.delete(key);
    answers.set(key, answer);
    if (answers.size > CACHED_ANSWERS) answers.delete(answers.keys().next().value);
  }
  function narrowest(wanted, text) {
    let base = everyRow;
    for (const answer of answers.values()) {
      if ((answer.wanted === wanted || answer.wanted === 'all') && text.includes(answer.query) && answer.found.length < base.length) base = answer.found;
    }
    return base;
  }
  let searching = 0;
  function apply() {
    if (!ready) return;
    const nextQuery = input.value.trim();
    const wanted = status.value;
    const key = wanted + '\\n' + nextQuery;
    const generation = ++searching;
    const known = answers.get(key);
    if (known) {
      remember(key, known);
      show(nextQuery, known.found);
      return;
    }
    const base = narrowest(wanted, nextQuery);
    const finder = nextQuery ? pattern(nextQuery, 'iu') : null;
    const found = [];
    let at = 0;
    function step() {
      if (generation !== searching) return;
      const until = performance.now() + SLICE_MS;
      for (; at < base.length; at++) {
        if (performance.now() > until) { later(step); return; }
        const index = base[at];
        if ((wanted === 'all' || rows[index][1] === wanted) && (!finder || finder.test(texts[index]) || finder.test(labels[index]))) found.push(index);
      }
      remember(key, { wanted, query: nextQuery, found });
      show(nextQuery, found);
    }
    step();
  }

  function fromBase64(text) {
    if (Uint8Array.fromBase64) return Uint8Array.fromBase64(text);
    const binary = atob(text);
    const out = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index++) out[index] = binary.charCodeAt(index);
    return out;
  }
  async function load() {
    const packed = fromBase64(source.textContent);
    // The page's copy is not needed again: let the browser free it.
    source.textContent = '';
    const unpacked = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));
    const data = await new Response(unpacked).text();
    const headEnd = data.indexOf('\\n');
    rows = JSON.parse(data.slice(0, headEnd));
    let start = headEnd + 1;
    texts = rows.map((row) => data.slice(start, (start += row[5])));
    labels = rows.map((row) => row[2] + ' ' + row[3]);
    everyRow = rows.map((_, index) => index);
    matches = everyRow;
    ready = true;
    apply();
  }

  input.addEventListener('input', apply);
  status.addEventListener('change', apply);
  more.addEventListener('click', drawMore);
  document.addEventListener('keydown', (event) => {
    if (event.key === '/' && document.activeElement !== input) { event.preventDefault(); input.focus(); }
  });
  load().catch((error) => {
    count.textContent = 'The messages cannot be shown: this browser could not unpack them (' + error + '). ' +
      'The report needs DecompressionStream (Chrome 80, Firefox 113, Safari 16.4 or later).';
  });
})();
`;
