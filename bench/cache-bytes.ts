/**
 * Bytes the manager keeps per message: the heap (and array buffers) retained after a manager
 * prepared a history, less the heap with the host's history alone. Needs `--expose-gc`.
 */
import { type ContextConfigInput, referenceCounter, type TokenCounter } from '../src/index.js';
import { realisticHistory } from './histories.js';
import { defaultManager } from './managers.js';

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('Run the bench with node --expose-gc (npm run bench does).');
  for (let round = 0; round < 3; round++) gc();
}

function retained(): number {
  collect();
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
}

export async function measureCacheBytes(size: number, config: ContextConfigInput): Promise<number> {
  const { history, mix } = realisticHistory(size, 'unique', 23);
  const host = [...history];
  // A counter of its own, so every count the manager caches is new and attributable to it.
  const counter: TokenCounter = { name: 'bytes', count: (text) => referenceCounter.count(text) };
  // Warm up the modules and the steps appended later, so none of it is attributed to the caches.
  const later = [mix.userMessage(), ...mix.toolStep()];
  await defaultManager({ name: 'warm', count: () => 1 }, undefined, config).prepare(
    realisticHistory(200, 'unique', 5).history,
  );
  const before = retained();
  let manager: ReturnType<typeof defaultManager> | undefined = defaultManager(counter, undefined, config);
  await manager.prepare(host);
  host.push(...later);
  await manager.prepare(host);
  const after = retained();
  const bytes = (after - before) / host.length;
  manager = undefined;
  return bytes;
}
