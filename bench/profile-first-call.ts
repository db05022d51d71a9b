/** `node --cpu-prof --import tsx bench/profile-first-call.ts`: the first call and tool steps at 14k, for a CPU profile. */
import { referenceCounter } from '../src/index.js';
import { RealisticMix, realisticHistory } from './histories.js';
import { defaultManager } from './managers.js';

const ids = process.argv[2] === 'reused' ? 'reused' : 'unique';
const { history } = realisticHistory(14_000, ids);
const manager = defaultManager(referenceCounter);
let start = performance.now();
await manager.prepare(history);
console.log('first call', (performance.now() - start).toFixed(1), 'ms');
const host = [...history];
const mix = new RealisticMix(ids, 99);
start = performance.now();
for (let step = 0; step < 20; step++) {
  host.push(...mix.toolStep());
  await manager.prepare(host);
}
console.log('tool step', ((performance.now() - start) / 20).toFixed(1), 'ms');
