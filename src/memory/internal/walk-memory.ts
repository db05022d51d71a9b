import { parentMemoryPath, resolveMemoryPath } from '../memory-paths.js';
import type { MemoryEntry, MemoryStore } from '../memory-store.js';

/**
 * A file or directory found by {@link walkMemory}, with its depth below the start.
 *
 * @internal
 */
interface WalkedEntry extends MemoryEntry {
  depth: number;
}

/**
 * Names a listing leaves out: dotfiles and `node_modules`.
 *
 * @internal
 */
function isHiddenName(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.startsWith('.') || name === 'node_modules';
}

/**
 * What a bounded walk found, and whether it stopped at its budget before seeing everything.
 *
 * @internal
 */
interface MemoryWalk {
  entries: WalkedEntry[];
  /** True when the walk stopped at `atMost` entries: there may be more. */
  stopped: boolean;
}

/**
 * The entries below `path` (depth first, children sorted by name), hidden ones included unless
 * `skipHidden` is set, at most `atMost` of them (files and directories alike): bounded work however
 * many entries a host planted there.
 *
 * @internal
 */
export async function walkMemory(options: {
  store: MemoryStore;
  path: string;
  atMost: number;
  skipHidden?: boolean;
}): Promise<MemoryWalk> {
  const found: WalkedEntry[] = [];
  let stopped = false;
  const visit = async (directory: string, depth: number): Promise<void> => {
    const room = options.atMost - found.length;
    const listed = await listChildren(options.store, directory, room + 1);
    if (listed.length > room) stopped = true;
    const children = listed.slice(0, room).sort((a, b) => (a.path < b.path ? -1 : 1));
    for (const child of children) {
      if (found.length >= options.atMost) {
        stopped = true;
        return;
      }
      if (options.skipHidden && isHiddenName(child.path)) continue;
      found.push({ ...child, depth });
      if (child.kind === 'directory') await visit(child.path, depth + 1);
    }
  };
  await visit(options.path, 1);
  return { entries: found, stopped };
}

/**
 * The children a store lists for `directory` (at most `limit`), keeping only entries whose path is a
 * valid, normalised name directly below it, so a store that lists an entry twice or under the wrong
 * parent cannot make a walk loop.
 */
async function listChildren(store: MemoryStore, directory: string, limit: number): Promise<MemoryEntry[]> {
  const seen = new Set<string>();
  const listed = await store.list(directory, { limit });
  return listed.slice(0, limit).filter((child) => {
    const resolved = resolveMemoryPath(child.path);
    if (!resolved.ok || resolved.path !== child.path || parentMemoryPath(child.path) !== directory) return false;
    if (child.path === directory || seen.has(child.path)) return false;
    seen.add(child.path);
    return true;
  });
}

/**
 * Files and directories below a path, counted until a cap is exceeded.
 *
 * @internal
 */
interface MemoryCounts {
  files: number;
  directories: number;
  /** True when counting stopped at a cap: the real counts may be higher. */
  stopped: boolean;
}

/**
 * Counts the files and directories below `path`, both kinds in whatever order the store lists them,
 * until the files reach `maxFiles` (no file may be added) or the directories exceed `maxDirectories`
 * (the memory is over its cap whatever is added). So a directory listed with its subdirectories
 * first still counts the files after them, and the counts decide a cap the same in any listing
 * order. Bounded work: at most `maxFiles + maxDirectories + 1` entries are listed in one directory
 * and counted in all, however many entries a host put there.
 *
 * @internal
 */
export async function countMemoryEntries(options: {
  store: MemoryStore;
  path: string;
  maxFiles: number;
  maxDirectories: number;
}): Promise<MemoryCounts> {
  const counts: MemoryCounts = { files: 0, directories: 0, stopped: false };
  const over = () => counts.files >= options.maxFiles || counts.directories > options.maxDirectories;
  const visit = async (directory: string): Promise<void> => {
    const room = options.maxFiles - counts.files + (options.maxDirectories - counts.directories) + 1;
    for (const child of await listChildren(options.store, directory, room)) {
      if (over()) {
        counts.stopped = true;
        return;
      }
      if (child.kind === 'file') counts.files++;
      else if (++counts.directories > options.maxDirectories) counts.stopped = true;
      else await visit(child.path);
    }
  };
  await visit(options.path);
  return counts;
}
