/** `node --expose-gc --import tsx bench/profile-steady-state.ts [size] [unique|reused]`: per-call times after the first call, with and without a collection first. */
import { referenceCounter } from '../src/index.js';
import { RealisticMix, realisticHistory } from './histories.js';
import { defaultManager } from './managers.js';

const size = Number(process.argv[2] ?? 200_000);
const ids = process.argv[3] === 'reused' ? 'reused' : 'unique';
const { history } = realisticHistory(size, ids);
const manager = defaultManager(referenceCounter);
await manager.prepare(history);
const host = [...history];
const mix = new RealisticMix(ids, 99);
const gc = (globalThis as { gc?: () => void }).gc;
for (const collect of [false, true]) {
  if (collect) gc?.();
  const times: number[] = [];
  for (let step = 0; step < 30; step++) {
    host.push(mix.userMessage());
    const start = performance.now();
    await manager.prepare(host);
    times.push(performance.now() - start);
  }
  let walk = 0;
  const copy = host.slice();
  const start = performance.now();
  for (let i = 0; i < host.length; i++) if (host[i] === copy[i]) walk++;
  const walkTime = performance.now() - start;
  times.sort((a, b) => a - b);
  console.log(
    collect ? 'after gc' : 'no gc',
    'median',
    times[15]!.toFixed(3),
    'min',
    times[0]!.toFixed(3),
    'max',
    times[29]!.toFixed(3),
    'walk',
    walkTime.toFixed(3),
    walk > 0,
  );
}
