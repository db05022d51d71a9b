// The soak's block of docs/benchmarks.md, between its markers (the rest of the file is left alone).
import { readFileSync, writeFileSync } from 'node:fs';
import type { SoakReport } from './soak-session.js';

const FAMILY_ORDER = ['openai-chat', 'openai-responses', 'anthropic', 'ai-sdk-middleware', 'ai-sdk-converters'];
const START = '<!-- soak:start -->';
const END = '<!-- soak:end -->';

/** The markdown block for a soak run, markers included; `kept` rows (of families not rerun) stay. */
export function soakBlock(reports: readonly SoakReport[], kept: readonly string[] = []): string {
  const row = (report: SoakReport) =>
    [
      report.family,
      `${report.completed}/${report.turns}`,
      String(report.dead),
      String(report.rejected.length),
      String(report.unanswered),
      String(report.modelRequests),
      `${report.forced.overflow} / ${report.forced['500']} / ${report.forced['429']}`,
      String(report.serverOverflows),
      String(report.compactions.threshold),
      String(report.recoveries),
      String(report.compactions.failed),
      String(report.summarizerCalls),
      Object.entries(report.rungs)
        .map(([rung, count]) => `${rung} ${count}`)
        .join(', ') || '—',
      String(report.toolCalls),
      report.seconds.toFixed(1),
    ].join(' | ');
  return [
    START,
    '## Soak: long sessions through the real clients, with faults',
    '',
    'Written by `npm run soak` (test/soak): one session per client family (its user turns in the table) — the',
    'real `openai` client (Chat Completions, Responses with `store: false`), `@anthropic-ai/sdk`, and `ai`',
    "with ctxkit's middleware and with the converters only — against the loopback servers (32,000-token",
    "window; the servers count 30–50% above ctxkit's estimate) behind a proxy that forces the provider's",
    'own overflow error at the first call of every ninth turn, on two turns in a row every fifty, and on',
    'the call right after each threshold compaction (at most once in a turn that has not recovered yet:',
    'the manager recovers once per turn), a 500 every 11th call and a 429 every 17th (the SDKs retry',
    'them). Tool outputs run from one line to 500,000 characters; assistant turns carry thinking, signed',
    'on two turns in three and unsigned on the third (not through the AI SDK, whose thinking and tool',
    'approvals are handled by another change). A session is dead when anything escapes its loop; a',
    'request is rejected when a server or the proxy refuses it for breaking a provider rule. Server',
    'overflows are those a server answered on its own (the prompt was over its window by its count);',
    'overflow recoveries count both kinds.',
    '',
    '| family | turns | dead | rejected | unanswered calls | model requests | forced overflow / 500 / 429 | server overflows | threshold compactions | overflow recoveries | failed compactions | summarizer calls | recovery rungs | tool calls | seconds |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |',
    ...[
      ...kept.filter((line) => !reports.some((report) => line.startsWith(`| ${report.family} |`))),
      ...reports.map((report) => `| ${row(report)} |`),
    ].sort(
      (a, b) => FAMILY_ORDER.indexOf(a.split(' | ')[0]!.slice(2)) - FAMILY_ORDER.indexOf(b.split(' | ')[0]!.slice(2)),
    ),
    END,
  ].join('\n');
}

/** Writes the block for `reports` into docs/benchmarks.md (replacing the soak block, or appended), keeping the rows of families not in `reports`. */
export function writeSoakReports(reports: readonly SoakReport[]): void {
  const file = new URL('../../docs/benchmarks.md', import.meta.url);
  const current = readFileSync(file, 'utf8');
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  const kept =
    start >= 0 && end > start
      ? current
          .slice(start, end)
          .split('\n')
          .filter((line) => FAMILY_ORDER.some((family) => line.startsWith(`| ${family} |`)))
      : [];
  const block = soakBlock(reports, kept);
  const next =
    start >= 0 && end > start
      ? `${current.slice(0, start)}${block}${current.slice(end + END.length)}`
      : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
}
