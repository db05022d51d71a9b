import { opendir } from 'node:fs/promises';
import { resolveMemoryPath } from '../../memory/memory-paths.js';
import type { MemoryEntry, MemoryListOptions } from '../../memory/memory-store.js';
import { errorCode, fail } from './file-memory-errors.js';
import type { FileMemoryTree } from './file-memory-tree.js';
import { lstatIn } from './stat-entry.js';
import { openDirectoryAt } from './walk-memory-tree.js';

/**
 * The store's `list`: the regular files and directories directly inside `path` (links, special
 * files and names that are not valid memory names left out), reading the directory only until
 * `limit` children were found.
 *
 * @internal
 */
export async function listDirectory(
  tree: FileMemoryTree,
  path: string,
  listOptions?: MemoryListOptions,
): Promise<MemoryEntry[]> {
  const limit = listOptions?.limit ?? Number.POSITIVE_INFINITY;
  const directory = await openDirectoryAt(tree, path);
  try {
    const children: MemoryEntry[] = [];
    if (limit <= 0) return children;
    const listing = await opendir(directory.base).catch((error: unknown) => {
      throw fail(`${path} could not be listed (${errorCode(error)})`, error);
    });
    const entries = [];
    for await (const child of listing) entries.push(child);
    const names = new Set(entries.map((child) => child.name));
    for (const child of entries) {
      if (!child.isFile() && !child.isDirectory()) continue;
      // Listed under its NFC path (the one the tool reaches it by), unless its NFC twin is there.
      const name = child.name.normalize('NFC');
      if (name !== child.name && names.has(name)) continue;
      const childPath = `${path}/${name}`;
      const resolved = resolveMemoryPath(childPath);
      if (!resolved.ok || resolved.path !== childPath) continue;
      const info = await lstatIn(directory, child.name, childPath);
      if (info?.isDirectory()) children.push({ path: childPath, kind: 'directory', size: 0 });
      else if (info?.isFile()) children.push({ path: childPath, kind: 'file', size: info.size });
      if (children.length >= limit) break;
    }
    return children;
  } finally {
    await directory.handle.close();
  }
}
