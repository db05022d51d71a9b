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
 * The report's one script: the search over the branch (a client-side filter). It reads only the
 * page's own text; nothing is evaluated or fetched.
 *
 * @internal
 */
export const REPORT_SCRIPT = `
(() => {
  const input = document.getElementById('search');
  const status = document.getElementById('search-filter');
  const count = document.getElementById('search-count');
  const items = Array.from(document.querySelectorAll('#transcript > li'));
  const bodies = items.map((item) => item.querySelector('pre'));
  const texts = bodies.map((body) => body.textContent);
  function highlight(body, text, query) {
    body.textContent = '';
    if (!query) { body.textContent = text; return; }
    const lower = text.toLowerCase();
    let from = 0;
    for (let at = lower.indexOf(query, from); at !== -1; at = lower.indexOf(query, from)) {
      body.append(text.slice(from, at));
      const mark = document.createElement('mark');
      mark.textContent = text.slice(at, at + query.length);
      body.append(mark);
      from = at + query.length;
    }
    body.append(text.slice(from));
  }
  function apply() {
    const query = input.value.trim().toLowerCase();
    const wanted = status.value;
    let shown = 0;
    items.forEach((item, index) => {
      const matches = (!query || texts[index].toLowerCase().includes(query) || item.dataset.label.toLowerCase().includes(query))
        && (wanted === 'all' || item.dataset.status === wanted);
      item.hidden = !matches;
      if (matches) shown++;
      highlight(bodies[index], texts[index], matches ? query : '');
    });
    count.textContent = shown + ' of ' + items.length + ' messages';
  }
  input.addEventListener('input', apply);
  status.addEventListener('change', apply);
  document.addEventListener('keydown', (event) => {
    if (event.key === '/' && document.activeElement !== input) { event.preventDefault(); input.focus(); }
  });
  apply();
})();
`;
