// `formatContextStats` (the `/context` text) says what `stats()` learned beyond the breakdown, as
// `ctxkit inspect` does: the provider's count against the estimate once it differs, and the
// compactions the heuristic wrote because the summarizer failed; nothing when they say nothing.
import {
  createContextManager,
  estimateContextTokens,
  formatContextStats,
  type Message,
  referenceCounter,
  sumMessageTokens,
} from 'ctxkit';
import { createScriptedSummarizer } from 'ctxkit/testing';
import { expect, test } from 'vitest';

/** Turns of 1,000-token user messages, each answered with the provider's count: `drift`× the estimate. */
function conversation(turns: number, drift: number): Message[] {
  const history: Message[] = [];
  for (let turn = 0; turn < turns; turn++) {
    history.push({ role: 'user', content: `${turn} `.repeat(2_000) });
    const estimate =
      sumMessageTokens(history, referenceCounter) + estimateContextTokens([], { counter: referenceCounter });
    history.push({
      role: 'assistant',
      content: [{ type: 'text', text: 'ok' }],
      usage: { input: Math.ceil(drift * estimate), output: 2 },
    });
  }
  return history;
}

test('prints the calibration when the provider counts more than the estimate', async () => {
  const context = createContextManager({
    summarizer: createScriptedSummarizer([]),
    contextWindow: 200_000,
    counter: referenceCounter,
  });
  const history = conversation(4, 1.6);
  await context.prepare(history);
  const stats = context.stats(history);
  expect(stats.calibration.ratio).toBeGreaterThan(1.3);
  expect(formatContextStats(stats)).toContain(
    `Provider counts ${stats.calibration.ratio.toFixed(2)}× the estimate (from ${stats.calibration.samples} usage reports)`,
  );
});

test('prints the summarizer fallbacks once there was one, and neither line before', async () => {
  const summarizer = createScriptedSummarizer([], { afterScript: new Error('503 upstream overloaded') });
  const context = createContextManager({
    summarizer,
    contextWindow: 10_000,
    counter: referenceCounter,
    config: { reserveTokens: 2_000, keepRecentTokens: 2_000 },
  });
  const history = conversation(12, 1);
  expect(formatContextStats(context.stats(history))).not.toMatch(/Provider counts|heuristic|fallback/i);
  const prepared = await context.prepare(history);
  const stats = context.stats(prepared.history);
  expect(stats.summarizerFallbacks).toBe(1);
  expect(stats.calibration.ratio).toBe(1);
  const text = formatContextStats(stats);
  expect(text).toContain('Summarizer fallbacks: 1 compaction written by the heuristic summarizer');
  expect(text).not.toContain('Provider counts');
});
