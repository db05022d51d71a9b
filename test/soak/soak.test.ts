// The soak in CI: a short session per client family (CTXKIT_SOAK_TURNS turns, 40 by default);
// `npm run soak` runs 1,000 turns per family and writes the figures to docs/benchmarks.md.
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { soakBlock, writeSoakBlock } from './soak-report.js';
import { runSoak, SOAK_FAMILIES, type SoakReport } from './soak-session.js';

const TURNS = Number(process.env.CTXKIT_SOAK_TURNS ?? 40);
const reports: SoakReport[] = [];

describe(`soak: ${TURNS} turns per client family, faults forced along the way`, () => {
  for (const family of SOAK_FAMILIES) {
    it(
      `${family}: no dead session, no rejected request, every tool call answered`,
      async () => {
        const report = await runSoak(family, TURNS);
        reports.push(report);
        console.info(
          `soak ${family}: ${report.completed}/${TURNS} turns, ${report.modelRequests} model requests, forced overflow/500/429 ${report.forced.overflow}/${report.forced['500']}/${report.forced['429']}, ${report.compactions.threshold} compactions, ${report.recoveries} recoveries, ${report.summarizerCalls} summarizer calls, rungs ${JSON.stringify(report.rungs)}`,
        );
        expect(report.deadError).toBeUndefined();
        expect(report.dead).toBe(0);
        expect(report.completed).toBe(TURNS);
        expect(report.rejected).toEqual([]);
        expect(report.unanswered).toBe(0);
        // The faults happened, and what the manager did about them was reported.
        expect(report.forced.overflow).toBeGreaterThan(0);
        expect(report.forced['500'] + report.forced['429']).toBeGreaterThan(0);
        expect(report.recoveries).toBeGreaterThanOrEqual(report.forced.overflow);
        expect(report.compactions.threshold + report.compactions.overflow).toBeGreaterThan(0);
        expect(report.largestToolOutput).toBeGreaterThanOrEqual(500_000);
      },
      Math.max(60_000, TURNS * 1_500),
    );
  }

  it.runIf(process.env.CTXKIT_SOAK_WRITE === '1')('writes the figures to docs/benchmarks.md', () => {
    expect(reports).toHaveLength(SOAK_FAMILIES.length);
    writeSoakBlock(soakBlock(reports));
    if (process.env.CTXKIT_SOAK_JSON) writeFileSync(process.env.CTXKIT_SOAK_JSON, JSON.stringify(reports, null, 2));
  });
});
