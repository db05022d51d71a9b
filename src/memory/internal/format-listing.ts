import { MEMORY_ROOT, parentMemoryPath } from '../memory-paths.js';
import type { MemoryStore } from '../memory-store.js';
import { walkMemory } from './walk-memory.js';

/** How many levels below the viewed directory a listing shows. */
const LISTING_DEPTH = 2;

/**
 * A size as `du -h` would print it: `512B`, `1.5K`, `2.0M`.
 *
 * @internal
 */
function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}K`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}M`;
}

/**
 * The listing `view` shows for a directory: sizes (directories total their visible files), two
 * levels deep, walking at most `atMost` entries (then sizes count only what was walked, and a notice
 * says so).
 *
 * @internal
 */
export async function formatListing(options: { store: MemoryStore; path: string; atMost: number }): Promise<string> {
  const { entries, stopped } = await walkMemory({
    store: options.store,
    path: options.path,
    atMost: options.atMost,
    skipHidden: true,
  });
  const totals = new Map<string, number>();
  for (const entry of entries) {
    if (entry.kind !== 'file') continue;
    for (let parent = parentMemoryPath(entry.path); ; parent = parentMemoryPath(parent)) {
      totals.set(parent, (totals.get(parent) ?? 0) + entry.size);
      if (parent === options.path || parent === MEMORY_ROOT) break;
    }
  }
  const total = (directory: string) => totals.get(directory) ?? 0;
  const lines = [`${formatSize(total(options.path))}\t${options.path}/`];
  for (const entry of entries) {
    if (entry.depth > LISTING_DEPTH) continue;
    lines.push(
      entry.kind === 'directory'
        ? `${formatSize(total(entry.path))}\t${entry.path}/`
        : `${formatSize(entry.size)}\t${entry.path}`,
    );
  }
  if (stopped) {
    lines.push(
      `[stopped after ${options.atMost} entries: there are more, and sizes count only those; view a subdirectory]`,
    );
  }
  const header = `Directory ${options.path} (${LISTING_DEPTH} levels deep; hidden items and node_modules not shown):`;
  return entries.length === 0 && !stopped ? `${header}\n${lines[0]}\n(empty)` : `${header}\n${lines.join('\n')}`;
}
