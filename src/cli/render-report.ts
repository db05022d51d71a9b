import type { TranscriptItem } from './branch-transcript.js';
import { html, Markup } from './escape-html.js';
import type { InspectedCompaction, SessionInspection, TokenShare } from './inspect-session.js';
import { REPORT_SCRIPT, REPORT_STYLES } from './report-assets.js';
import { renderUsageChart } from './report-chart.js';
import { encodeTranscript } from './transcript-payload.js';

const number = (value: number) => Math.round(value).toLocaleString('en-US');
const percent = (share: TokenShare) => (share.percent === null ? '–' : `${share.percent.toFixed(1)}%`);
const ROLE_LABELS: Record<string, string> = {
  user: 'User messages',
  assistant: 'Assistant messages',
  toolResult: 'Tool results',
};
const FATE_LABELS = {
  kept: 'kept verbatim',
  summarized: 'summarized',
  archived: 'archived',
  'previous-summary': 'previous checkpoint',
};

/**
 * The self-contained HTML report of a session: inline CSS, one inline script (allowed by a nonce in
 * a Content-Security-Policy that forbids everything else: no network, no other script, no inline
 * handlers), an inline SVG chart. Every piece of session text is escaped.
 *
 * @internal
 */
export function renderReport(inspection: SessionInspection, transcript: readonly TranscriptItem[]): string {
  const nonce = globalThis.crypto.randomUUID().replaceAll('-', '');
  const { session, model, context } = inspection;
  const title = `ctxkit report: ${session.name ?? session.id}`;
  const policy = `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; img-src data:; base-uri 'none'; form-action 'none'`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="color-scheme" content="light dark">
<title>${title}</title>
<style>${new Markup(REPORT_STYLES)}</style>
</head>
<body>
<a class="skip" href="#main">Skip to the report</a>
<header>
<h1>${title}</h1>
<p class="meta">${session.source.kind}: ${session.source.location} · ${session.entryCount} entries · created ${new Date(session.createdAt).toISOString()}</p>
<p class="meta">${model.contextWindow === null ? 'Window unknown (pass --model or --window): no percentages or limits.' : `${model.id ? `Model ${model.id} · ` : ''}window ${number(model.contextWindow)} tokens`}</p>
</header>
<nav aria-label="Sections"><ul>
<li><a href="#usage">Usage</a></li><li><a href="#breakdown">Breakdown</a></li><li><a href="#compactions">Compactions (${inspection.compactions.length})</a></li>
<li><a href="#archived">Archived tool results (${inspection.archived.length})</a></li><li><a href="#branches">Branches (${inspection.branches.length})</a></li><li><a href="#search-section">Search the branch</a></li>
</ul></nav>
<main id="main">
${inspection.warnings.length === 0 ? '' : html`<p class="warning" role="status">${inspection.warnings.map((warning) => `Line ${warning.line} of the session file was skipped (${warning.torn ? 'torn last line' : 'invalid line'}: ${warning.reason}); the rest is shown. `)}</p>`}
<div class="summary-cards">
<div class="card">Context now<strong>${number(context.tokens)} tokens</strong>${context.percent === null ? '' : `${context.percent.toFixed(1)}% of the window`}</div>
<div class="card">Messages sent<strong>${context.messageCount}</strong>level ${context.level}</div>
<div class="card">Compactions<strong>${inspection.compactions.length}</strong>on this branch</div>
<div class="card">Archived tool results<strong>${inspection.archived.length}</strong>${inspection.toolSummaries.length === 1 ? '1 summary' : `${inspection.toolSummaries.length} summaries`}</div>
</div>
<section id="usage" aria-labelledby="usage-title">
<h2 id="usage-title">Context usage over the turns</h2>
<figure>
${renderUsageChart(inspection)}
<figcaption><ul class="legend">
<li><span class="swatch" style="background:var(--usage)"></span>tokens before each model call (the manager's estimate)</li>
<li><span class="swatch" style="background:var(--muted)"></span>provider-reported input</li>
<li><span class="swatch" style="background:var(--window)"></span>window</li>
<li><span class="swatch" style="background:var(--limit)"></span>compaction limit</li>
<li><span class="swatch" style="background:var(--warning)"></span>warning threshold</li>
<li><span class="swatch" style="background:var(--compaction)"></span>compaction (select to open)</li>
</ul></figcaption>
</figure>
<details><summary>The chart's numbers as a table</summary>
<div class="table-scroll"><table><thead><tr><th scope="col">Model call</th><th scope="col" class="number">Tokens</th><th scope="col" class="number">Provider-reported</th><th scope="col">Compaction before it</th></tr></thead><tbody>
${inspection.timeline.map(
  (point) =>
    html`<tr><td>${point.call}</td><td class="number">${number(point.tokens)}</td><td class="number">${point.reported === null ? '–' : number(point.reported)}</td><td>${inspection.compactions.flatMap((compaction, index) => (compaction.beforeCall === point.call ? [`#${index + 1}`] : [])).join(' ')}</td></tr>`,
)}
</tbody></table></div></details>
</section>
${renderBreakdown(inspection)}
<section id="compactions" aria-labelledby="compactions-title">
<h2 id="compactions-title">Compactions</h2>
${inspection.compactions.length === 0 ? html`<p>No compaction on this branch.</p>` : inspection.compactions.map(renderCompaction)}
</section>
${renderArchived(inspection)}
${renderBranches(inspection)}
<section id="search-section" aria-labelledby="search-title">
<h2 id="search-title">Search the branch</h2>
<div class="search-row">
<label for="search">Search messages</label>
<input id="search" type="search" placeholder="text, tool name, role… (press /)" autocomplete="off">
<label for="search-filter">Show</label>
<select id="search-filter"><option value="all">all messages</option><option value="in-context">in context</option><option value="compacted">compacted away</option><option value="archived">archived</option><option value="checkpoint">checkpoints</option></select>
</div>
<p id="search-count" role="status" aria-live="polite">${transcript.length} messages</p>
<ol id="transcript" class="messages"></ol>
<p><button type="button" id="show-more" hidden>Show more</button></p>
<noscript><p>The messages are drawn by the page's script: allow it to see them.</p></noscript>
<script type="application/gzip" id="transcript-data" data-encoding="base64">${new Markup(encodeTranscript(transcript))}</script>
</section>
</main>
<footer>Written by <code>ctxkit report</code>. Token counts are the context manager's estimates unless marked as provider-reported.</footer>
<script nonce="${nonce}">${new Markup(REPORT_SCRIPT)}</script>
</body>
</html>
`.text;
}

function renderBreakdown(inspection: SessionInspection): Markup {
  const { breakdown } = inspection.context;
  const rows: [string, TokenShare][] = [
    ['System prompt', breakdown.systemPrompt],
    ['Tool definitions', breakdown.tools],
    ...Object.entries(breakdown.byRole).map(([role, share]): [string, TokenShare] => [
      ROLE_LABELS[role] ?? role,
      share,
    ]),
  ];
  const kinds = Object.entries(breakdown.byKind);
  const max = Math.max(1, ...rows.map(([, share]) => share.tokens), ...kinds.map(([, share]) => share.tokens));
  const row = ([label, share]: [string, TokenShare]) =>
    html`<tr><th scope="row">${label}</th><td class="number">${number(share.tokens)}</td><td class="number">${percent(share)}</td><td aria-hidden="true"><div class="bar" style="width:${((share.tokens / max) * 100).toFixed(1)}%"></div></td></tr>`;
  return html`<section id="breakdown" aria-labelledby="breakdown-title">
<h2 id="breakdown-title">Breakdown of the context now</h2>
<p class="meta">The same numbers as the manager's <code>stats()</code>: ${number(inspection.context.tokens)} tokens (${inspection.context.source}); the rows are estimates.</p>
<div class="table-scroll"><table>
<thead><tr><th scope="col">Part</th><th scope="col" class="number">Tokens</th><th scope="col" class="number">Window</th><th scope="col"><span class="skip">Share</span></th></tr></thead>
<tbody>${rows.map(row)}</tbody>
<tbody><tr><th scope="rowgroup" colspan="4">By kind</th></tr>${kinds.map(row)}</tbody>
<tfoot><tr><th scope="row">Total</th><td class="number">${number(breakdown.total.tokens)}</td><td class="number">${percent(breakdown.total)}</td><td></td></tr></tfoot>
</table></div>
</section>`;
}

function renderCompaction(compaction: InspectedCompaction, index: number): Markup {
  const counts = (fate: keyof typeof FATE_LABELS) =>
    compaction.replaced.filter((message) => message.fate === fate).length;
  return html`<article class="compaction" id="compaction-${index + 1}" aria-labelledby="compaction-${index + 1}-title" tabindex="-1">
<h3 id="compaction-${index + 1}-title">Compaction ${index + 1} · before model call ${compaction.beforeCall}</h3>
<p class="meta">Reason: ${compaction.reason ?? 'not recorded'} · ${number(compaction.tokensBefore)} → ${number(compaction.tokensAfter)} tokens${compaction.tokensAfterSource === 'measured' ? ' (after: measured now)' : ''} · ${new Date(compaction.timestamp).toISOString()} · entry ${compaction.entryId}</p>
${compaction.native ? html`<p class="meta">Native: made by ${compaction.native.provider} ${compaction.native.model} (${compaction.native.api}) · payload ${number(compaction.native.payloadBytes)} bytes${compaction.native.usage ? ` · cost ${number(compaction.native.usage.input)} in / ${number(compaction.native.usage.output)} out tokens` : ''}${compaction.checkpoint === '' ? ' · readable summary not written yet (opaque item)' : ''}</p>` : ''}
<p class="meta"><span class="badge badge-kept">${counts('kept')} kept verbatim</span><span class="badge badge-summarized">${counts('summarized')} summarized</span><span class="badge badge-archived">${counts('archived')} archived</span>${counts('previous-summary') > 0 ? html`<span class="badge badge-previous-summary">previous checkpoint updated</span>` : ''}</p>
<div class="compare">
<div class="checkpoint"><h4>Checkpoint</h4><pre tabindex="0" aria-label="Checkpoint of compaction ${index + 1}">${compaction.checkpoint}</pre></div>
<div class="replaced"><h4>What it replaced (${compaction.replaced.length} messages)</h4>
<ol class="messages">${compaction.replaced.map(
    (message) =>
      html`<li data-fate="${message.fate}"><details><summary><span class="badge badge-${message.fate}">${FATE_LABELS[message.fate]}</span><span class="who">${message.label}</span> <span class="tokens">${number(message.tokens)} tokens</span></summary><pre>${clip(message.text)}</pre></details></li>`,
  )}</ol></div>
</div>
</article>`;
}

/** Replaced messages are shown cut: the search section below has every message whole, once. */
const REPLACED_TEXT_CHARS = 2_000;

function clip(text: string): string {
  const points = Array.from(text);
  if (points.length <= REPLACED_TEXT_CHARS) return text;
  return `${points.slice(0, REPLACED_TEXT_CHARS).join('')}\n… ${(points.length - REPLACED_TEXT_CHARS).toLocaleString('en-US')} more characters (the whole message is in "Search the branch")`;
}

/**
 * A longer table starts closed: the browser neither lays out nor styles a closed `<details>`, and a
 * long session archives thousands of tool results.
 */
const OPEN_TABLE_ROWS = 50;

function renderArchived(inspection: SessionInspection): Markup {
  return html`<section id="archived" aria-labelledby="archived-title">
<h2 id="archived-title">Archived tool results</h2>
${
  inspection.archived.length === 0
    ? html`<p>No tool result is archived.</p>`
    : html`<details${inspection.archived.length <= OPEN_TABLE_ROWS ? new Markup(' open') : ''}><summary>The ${number(inspection.archived.length)} archived tool results as a table</summary><div class="table-scroll"><table><thead><tr><th scope="col">Tool</th><th scope="col">Call</th><th scope="col" class="number">Tokens</th><th scope="col">Archived</th></tr></thead><tbody>${inspection.archived.map(
        (result) =>
          html`<tr><td>${result.toolName}</td><td><code>${result.toolCallId}</code></td><td class="number">${number(result.tokens)}</td><td>${result.recorded ? 'in the session' : 'by the pipeline now'}</td></tr>`,
      )}</tbody></table></div></details>`
}
${inspection.toolSummaries.map(
  (summary, index) =>
    html`<details><summary>Summary ${index + 1} standing for them (${number(summary.tokens)} tokens${summary.recorded ? '' : ', written by the heuristic summarizer now'})</summary><pre>${summary.text}</pre></details>`,
)}
</section>`;
}

function renderBranches(inspection: SessionInspection): Markup {
  return html`<section id="branches" aria-labelledby="branches-title">
<h2 id="branches-title">Branches and labels</h2>
<ul>${inspection.branches.map(
    (branch) =>
      html`<li>${branch.current ? html`<strong>current</strong> ` : ''}<code>${branch.leafId}</code> · ${branch.entryCount} entries${branch.forkedAt === null ? '' : html` · forked at <code>${branch.forkedAt}</code>`}${branch.labels.length === 0 ? '' : ` · labels: ${branch.labels.join(', ')}`}${branch.lastMessage === null ? '' : html` · “${branch.lastMessage}”`}</li>`,
  )}</ul>
${inspection.labels.length === 0 ? '' : html`<p>Labels: ${inspection.labels.map((label) => html`<code>${label.targetId}</code> ${label.label}; `)}</p>`}
</section>`;
}
