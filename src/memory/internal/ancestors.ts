import { MEMORY_ROOT, parentMemoryPath } from '../memory-paths.js';
import type { MemoryStore } from '../memory-store.js';
import { Refusal } from './memory-refusal.js';

/**
 * How many directories writing `target` would create.
 *
 * @internal
 */
export async function missingAncestors(target: string, { store }: { store: MemoryStore }): Promise<number> {
  let missing = 0;
  for (let parent = parentMemoryPath(target); parent !== MEMORY_ROOT; parent = parentMemoryPath(parent)) {
    if ((await store.stat(parent)) !== undefined) break;
    missing++;
  }
  return missing;
}

/**
 * Deletes the now empty directories above a removed `path`, nearest first, up to (not including) the
 * root, so emptied directories do not pile up against the directory cap.
 *
 * @internal
 */
export async function pruneEmptyParents(path: string, { store }: { store: MemoryStore }): Promise<void> {
  for (let parent = parentMemoryPath(path); parent !== MEMORY_ROOT; parent = parentMemoryPath(parent)) {
    const entry = await store.stat(parent);
    if (entry?.kind !== 'directory' || (await store.list(parent, { limit: 1 })).length > 0) return;
    await store.delete(parent);
  }
}

/**
 * Refuses a new path whose ancestor is a file.
 *
 * @internal
 */
export async function checkAncestors(target: string, { store }: { store: MemoryStore }): Promise<void> {
  for (let parent = parentMemoryPath(target); parent !== MEMORY_ROOT; parent = parentMemoryPath(parent)) {
    const entry = await store.stat(parent);
    if (entry?.kind === 'file') throw new Refusal(`${parent} is a file, so ${target} cannot be created inside it`);
    if (entry !== undefined) return;
  }
}
