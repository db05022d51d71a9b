/** Timing helpers of the benchmarks: samples of one call each, summarized by median and mean. */

/** Samples in milliseconds. */
export interface Samples {
  median: number;
  mean: number;
  max: number;
  count: number;
}

export function summarize(times: readonly number[]): Samples {
  const sorted = [...times].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, time) => sum + time, 0) / Math.max(1, sorted.length);
  return {
    median: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
    mean,
    max: sorted.at(-1) ?? Number.NaN,
    count: sorted.length,
  };
}

/**
 * Times `count` calls of `step` (each preceded by `before`, which is not timed), stopping early
 * once `budgetMs` of timed work is spent (at least `minimum` calls).
 */
export async function sample(
  count: number,
  step: () => unknown,
  options: { before?: () => unknown; budgetMs?: number; minimum?: number } = {},
): Promise<Samples> {
  const times: number[] = [];
  let spent = 0;
  for (let index = 0; index < count; index++) {
    await options.before?.();
    const start = performance.now();
    await step();
    const time = performance.now() - start;
    times.push(time);
    spent += time;
    if (spent > (options.budgetMs ?? Number.POSITIVE_INFINITY) && times.length >= (options.minimum ?? 3)) break;
  }
  return summarize(times);
}

/** `12.3 ms`, `45.6 µs`. */
export function formatTime(milliseconds: number): string {
  if (!Number.isFinite(milliseconds)) return '—';
  if (milliseconds >= 1000) return `${(milliseconds / 1000).toFixed(2)} s`;
  if (milliseconds >= 1) return `${milliseconds.toFixed(2)} ms`;
  return `${(milliseconds * 1000).toFixed(1)} µs`;
}

/** `1,234×`. */
export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return '—';
  if (ratio >= 100) return `${Math.round(ratio).toLocaleString('en-US')}×`;
  return `${ratio.toFixed(ratio >= 10 ? 0 : 1)}×`;
}

export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** Sizes written as the issue writes them: 1k, 14k, 100k. */
export function formatSize(size: number): string {
  return size >= 1000 ? `${Math.round(size / 1000)}k` : String(size);
}
