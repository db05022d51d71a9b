/**
 * The calls that archive a batch, for the two ways a host can go on from the history it received
 * (docs/architecture.md, "The one copy left"): pushing its new messages onto the returned `history`
 * and passing it back, or `append`. Tool steps until 15 calls archived, each timed in CPU time with
 * the host's push, after a collection: the median of those calls (the first left out), the median
 * of the other calls and the mean of all. Run: `node --expose-gc --import tsx bench/archive-calls.ts [messages]`.
 */
import { type Message, referenceCounter } from '../src/index.js';
import { freshCopies, RealisticMix, realisticHistory } from './histories.js';
import { countingSummarizer, defaultManager } from './managers.js';

const size = Number(process.argv[2] ?? 200_000);
const collect = (globalThis as { gc?: () => void }).gc ?? (() => {});
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1_000;
};
const median = (times: readonly number[]) => [...times].sort((a, b) => a - b)[times.length >> 1] ?? Number.NaN;

for (const way of ['push', 'append'] as const) {
  const { history } = realisticHistory(size, 'unique');
  const summarizer = countingSummarizer();
  const manager = defaultManager(referenceCounter, summarizer);
  let kept: Message[] = (await manager.prepare(freshCopies(history))).history;
  const steps = new RealisticMix('unique', 99);
  const archiving: number[] = [];
  const others: number[] = [];
  for (let step = 0; step < 1_000 && archiving.length < 15; step++) {
    const batches = summarizer.calls['tool_results'] ?? 0;
    const added = steps.toolStep();
    collect();
    const start = cpuMs();
    if (way === 'push') kept.push(...added);
    kept = (way === 'push' ? await manager.prepare(kept) : await manager.append(added)).history;
    const time = cpuMs() - start;
    ((summarizer.calls['tool_results'] ?? 0) > batches ? archiving : others).push(time);
  }
  const all = [...archiving, ...others];
  console.log(
    `${way}, ${size} messages: a call that archives ${median(archiving.slice(1)).toFixed(2)} ms (median of ${archiving.length - 1}),`,
    `other calls ${median(others).toFixed(3)} ms, mean of ${all.length} steps ${(all.reduce((a, b) => a + b, 0) / all.length).toFixed(2)} ms`,
  );
}
