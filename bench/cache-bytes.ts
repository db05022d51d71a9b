/**
 * Bytes the manager keeps per message: the heap (and array buffers) retained after a manager
 * prepared a history, less the heap with the host's history alone, split into what the manager
 * returned (its `messages` and `history` arrays, with the archived copies and placeholders only
 * they hold) and its caches beyond that. Needs `--expose-gc`.
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

/** Bytes per message retained by a manager, in all and split by what holds them. */
export interface CacheBytes {
  /** Everything the manager retains. */
  total: number;
  /** What stays when only the arrays the manager returned are kept (the manager dropped). */
  returned: number;
  /** The rest: counts, id tables, private copies, projections (`total - returned`). */
  caches: number;
}

export async function measureCacheBytes(size: number, config: ContextConfigInput): Promise<CacheBytes> {
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
  let result: Awaited<ReturnType<ReturnType<typeof defaultManager>['prepare']>> | undefined =
    await manager.prepare(host);
  const after = retained();
  manager = undefined;
  const outputs = retained();
  const count = host.length;
  const bytes = {
    total: (after - before) / count,
    returned: (outputs - before) / count,
    caches: (after - outputs) / count,
  };
  // Keeps the returned arrays alive through the second measurement, then lets them go.
  if (result.messages.length + result.history.length < 0) throw new Error('unreachable');
  result = undefined;
  return bytes;
}
