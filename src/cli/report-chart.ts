import { html, type Markup } from './escape-html.js';
import type { SessionInspection } from './inspect-session.js';

const WIDTH = 800;
const HEIGHT = 320;
const LEFT = 64;
const RIGHT = 16;
const TOP = 16;
const BOTTOM = 40;

/** Above this many calls the line alone is drawn: a dot per call would merge into a smear. */
const MAX_POINT_MARKERS = 200;

const number = (value: number) => Math.round(value).toLocaleString('en-US');

/**
 * The context-usage chart of the report: tokens before each model call, the window, the warning
 * threshold and the compaction limit as lines, and each compaction as a marker that links to it.
 *
 * @internal
 */
export function renderUsageChart(inspection: SessionInspection): Markup {
  const { timeline, compactions, context, model } = inspection;
  const calls = Math.max(1, timeline.length);
  const peak = Math.max(
    1,
    model.contextWindow ?? 0,
    ...timeline.map((point) => Math.max(point.tokens, point.reported ?? 0)),
    ...compactions.map((compaction) => compaction.tokensBefore),
  );
  const top = niceCeiling(peak * 1.05);
  const x = (call: number) => LEFT + ((call - 1) / Math.max(1, calls - 1)) * (WIDTH - LEFT - RIGHT);
  const y = (tokens: number) => TOP + (1 - tokens / top) * (HEIGHT - TOP - BOTTOM);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((share) => Math.round(top * share));
  const line = timeline.map((point) => `${x(point.call).toFixed(1)},${y(point.tokens).toFixed(1)}`).join(' ');
  const thresholds = [
    { name: 'window', label: 'Window', tokens: model.contextWindow, at: 1 },
    { name: 'limit', label: 'Compaction limit', tokens: context.limit, at: 0.75 },
    // Below its line: the warning is often just under the compaction limit.
    { name: 'warning', label: 'Warning', tokens: context.warningAt, at: 0.22, below: true },
  ].filter(
    (threshold): threshold is { name: string; label: string; tokens: number; at: number; below?: boolean } =>
      threshold.tokens !== null,
  );

  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="chart-title chart-description" data-calls="${timeline.length}">
<title id="chart-title">Context usage over ${timeline.length} model calls</title>
<desc id="chart-description">Tokens of the context before each model call${model.contextWindow === null ? '' : `, against a window of ${number(model.contextWindow)} tokens`}; ${compactions.length} compactions marked.</desc>
${ticks.map(
  (tick) =>
    html`<g class="tick"><line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(tick)}" y2="${y(tick)}"></line><text x="${LEFT - 6}" y="${y(tick) + 4}" text-anchor="end">${shortTokens(tick)}</text></g>`,
)}
<text class="axis-label" x="${(LEFT + WIDTH - RIGHT) / 2}" y="${HEIGHT - 6}" text-anchor="middle">model call (1–${timeline.length})</text>
${thresholds.map(
  (threshold) =>
    html`<g class="threshold threshold-${threshold.name}" data-tokens="${threshold.tokens}"><line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(threshold.tokens)}" y2="${y(threshold.tokens)}"></line><text x="${LEFT + (WIDTH - LEFT - RIGHT) * threshold.at - 4}" y="${y(threshold.tokens) + (threshold.below ? 14 : -4)}" text-anchor="end">${threshold.label} ${shortTokens(threshold.tokens)}</text></g>`,
)}
${compactions.map((compaction, index) => {
  const at = Math.min(x(Math.max(1, compaction.beforeCall - 0.5)), WIDTH - RIGHT);
  return html`<a class="compaction-marker" href="#compaction-${index + 1}" aria-label="Compaction ${index + 1}: ${number(compaction.tokensBefore)} to ${number(compaction.tokensAfter)} tokens before call ${compaction.beforeCall}"><line x1="${at}" x2="${at}" y1="${TOP}" y2="${HEIGHT - BOTTOM}"></line><line class="drop" x1="${at}" x2="${at}" y1="${y(compaction.tokensBefore)}" y2="${y(compaction.tokensAfter)}"></line><circle cx="${at}" cy="${y(compaction.tokensBefore)}" r="5"></circle><text x="${at + 4}" y="${TOP + 12}">C${index + 1}</text><title>Compaction ${index + 1}: ${number(compaction.tokensBefore)} → ${number(compaction.tokensAfter)} tokens</title></a>`;
})}
<polyline class="usage" points="${line}"></polyline>
${(timeline.length > MAX_POINT_MARKERS ? [] : timeline).map(
  (point) =>
    html`<circle class="point" cx="${x(point.call)}" cy="${y(point.tokens)}" r="2.5"><title>Call ${point.call}: ${number(point.tokens)} tokens${point.reported === null ? '' : ` (provider reported ${number(point.reported)})`}</title></circle>`,
)}
${timeline
  .filter((point) => point.reported !== null)
  .map(
    (point) =>
      html`<rect class="reported" x="${x(point.call) - 2}" y="${y(point.reported ?? 0) - 2}" width="4" height="4"></rect>`,
  )}
</svg>`;
}

function niceCeiling(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

function shortTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${(tokens / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
  if (tokens >= 1000) return `${(tokens / 1000).toFixed(1).replace(/\.0$/, '')}K`;
  return String(tokens);
}
