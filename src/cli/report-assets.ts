/**
 * The report's stylesheet: light and dark (`prefers-color-scheme`), one column on a phone, system
 * fonts only.
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
 * A session of 50 MB must open in seconds and answer each keystroke at once, so the script draws
 * little and searches an index: the messages are data (`#transcript-data`), drawn 100 at a time
 * and each cut to 3,000 characters until asked for whole, and the browser lays out only those on
 * screen (`content-visibility`); their lowercased text is made once, in slices after the page has
 * opened, in a form as long as the text (a character whose lowercase is longer, such as "İ", stays
 * as it is), so a hit's index in it is its index in the text; a query that extends the previous
 * one searches only the previous hits; typing is coalesced (40 ms).
 *
 * @internal
 */
export const REPORT_SCRIPT = `
(() => {
  const PAGE = 100;
  const CLIP = 3000;
  const BEFORE_HIT = 200;
  const STATUS_LABELS = { 'in-context': 'in context', archived: 'archived', compacted: 'compacted away', checkpoint: 'checkpoint' };
  const input = document.getElementById('search');
  const status = document.getElementById('search-filter');
  const count = document.getElementById('search-count');
  const list = document.getElementById('transcript');
  const more = document.getElementById('show-more');
  // Each row: [entry id, status, label, kind, ISO time, text].
  const rows = JSON.parse(document.getElementById('transcript-data').textContent);
  const everyRow = rows.map((_, index) => index);
  const foldedTexts = new Array(rows.length);
  const foldedLabels = rows.map((row) => fold(row[2] + ' ' + row[3]));
  function fold(text) {
    const lower = text.toLowerCase();
    if (lower.length === text.length && !text.includes('\\u0130')) return lower;
    let out = '';
    for (const character of text) {
      const folded = character.toLowerCase();
      out += folded.length === character.length ? folded : character;
    }
    return out;
  }
  function foldedText(index) {
    if (foldedTexts[index] === undefined) foldedTexts[index] = fold(rows[index][5]);
    return foldedTexts[index];
  }
  let query = '';
  let wanted = 'all';
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
  function appendMarked(body, text, folded, start, end) {
    if (!query) { body.append(text.slice(start, end)); return end; }
    let from = start;
    for (let at = folded.indexOf(query, from); at !== -1 && at < end; at = folded.indexOf(query, from)) {
      body.append(text.slice(from, at));
      const mark = document.createElement('mark');
      mark.textContent = text.slice(at, at + query.length);
      body.append(mark);
      from = at + query.length;
    }
    if (from < end) body.append(text.slice(from, end));
    return Math.max(from, end);
  }
  function fillText(body, index, whole) {
    const text = rows[index][5];
    const folded = query ? foldedText(index) : text;
    let start = 0;
    let end = whole ? text.length : Math.min(text.length, CLIP);
    if (!whole && query) {
      const first = folded.indexOf(query);
      if (first >= end) {
        start = Math.max(0, first - BEFORE_HIT);
        end = Math.min(text.length, start + CLIP);
      }
    }
    body.textContent = '';
    if (start > 0) body.append('… ' + start.toLocaleString('en-US') + ' characters before …\\n');
    end = appendMarked(body, text, folded, start, end);
    if (end < text.length) body.append('\\n… ' + (text.length - end).toLocaleString('en-US') + ' more characters');
  }
  function item(index) {
    const [entryId, state, label, kind, time, text] = rows[index];
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
  function apply() {
    const nextQuery = fold(input.value.trim());
    const nextWanted = status.value;
    // A longer query finds only what the shorter one found: search those again, not everything.
    const base = nextWanted === wanted && nextQuery.includes(query) ? matches : everyRow;
    query = nextQuery;
    wanted = nextWanted;
    matches = base.filter((index) =>
      (wanted === 'all' || rows[index][1] === wanted) &&
      (!query || foldedText(index).includes(query) || foldedLabels[index].includes(query)));
    list.textContent = '';
    drawn = 0;
    drawMore();
    count.textContent = matches.length.toLocaleString('en-US') + ' of ' + rows.length.toLocaleString('en-US') + ' messages';
  }
  let timer;
  const soon = () => { clearTimeout(timer); timer = setTimeout(apply, 40); };
  input.addEventListener('input', soon);
  status.addEventListener('change', apply);
  more.addEventListener('click', drawMore);
  document.addEventListener('keydown', (event) => {
    if (event.key === '/' && document.activeElement !== input) { event.preventDefault(); input.focus(); }
  });
  apply();
  // Lowercase the texts in slices of about 1 MB after the page has opened, so the first search
  // does not pay for all of them at once (a search before that lowercases what it reads).
  let next = 0;
  function foldSome() {
    for (let budget = 1000000; next < rows.length && budget > 0; next++) budget -= foldedText(next).length;
    if (next < rows.length) setTimeout(foldSome, 0);
  }
  setTimeout(foldSome, 0);
})();
`;
