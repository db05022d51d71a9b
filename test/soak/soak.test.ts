// The soak in CI (`npm run test:soak`; `npm test` leaves it out): a short session per client family
// (CTXKIT_SOAK_TURNS turns, 25 by default: two turns in a row forced at 20 and 21).
// `npm run soak` runs 1,000 turns per family (one process per family, CTXKIT_SOAK_FAMILY), saves
// each report (CTXKIT_SOAK_JSON) and writes the figures to docs/benchmarks.md.
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runSoak, SOAK_FAMILIES, type SoakFamily, type SoakReport } from './soak-session.js';

const TURNS = Number(process.env.CTXKIT_SOAK_TURNS ?? 25);
const only = process.env.CTXKIT_SOAK_FAMILY as SoakFamily | undefined;
const families = only === undefined ? SOAK_FAMILIES : SOAK_FAMILIES.filter((family) => family === only);
const reports: SoakReport[] = [];

describe(`soak: ${TURNS} turns per client family, faults forced along the way`, () => {
  for (const family of families) {
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
        // Every forced overflow started a recovery. Through the AI SDK a 500 on the recovery's retry is
        // retried by the SDK around the middleware, which drops that recovery (reported as failed).
        expect(report.recoveries + report.compactions.failed).toBeGreaterThanOrEqual(report.forced.overflow);
        expect(report.compactions.threshold + report.compactions.overflow).toBeGreaterThan(0);
        expect(report.largestToolOutput).toBeGreaterThanOrEqual(500_000);
      },
      Math.max(60_000, TURNS * 3_000),
    );
  }

  it.runIf(process.env.CTXKIT_SOAK_JSON !== undefined)('saves the reports', () => {
    writeFileSync(process.env.CTXKIT_SOAK_JSON!, JSON.stringify(reports, null, 2));
  });
});
