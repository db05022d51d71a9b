import { StoreError } from '../errors.js';
import { assertObjectArgument, assertStringArgument } from '../validation/assert-argument.js';
import { isWithinMemoryPath, MEMORY_ROOT, parentMemoryPath } from './memory-paths.js';
import type {
  MemoryEntry,
  MemoryListOptions,
  MemoryReadOptions,
  MemoryStore,
  MemoryWriteOptions,
} from './memory-store.js';

const encoder = new TextEncoder();

function fail(message: string): StoreError {
  return new StoreError({ message, code: 'STORE_FAILED' });
}

/**
 * A memory tool store ({@link MemoryStore}) that keeps the files in a map: for tests, browsers and
 * agents whose memory only has to outlive a context reset, not the process.
 *
 * @returns An empty store holding only the `/memories` root.
 *
 * @example
 * ```ts
 * import { createInMemoryMemoryStore, createMemoryTool } from 'ctxkit/memory';
 *
 * const tool = createMemoryTool({ store: createInMemoryMemoryStore() });
 * await tool.execute({ command: 'create', path: '/memories/todo.md', file_text: '- ship it' });
 * ```
 */
export function createInMemoryMemoryStore(): MemoryStore {
  const files = new Map<string, string>();
  const directories = new Set<string>([MEMORY_ROOT]);

  function entry(path: string): MemoryEntry | undefined {
    const text = files.get(path);
    if (text !== undefined) return { path, kind: 'file', size: encoder.encode(text).length };
    return directories.has(path) ? { path, kind: 'directory', size: 0 } : undefined;
  }

  function makeParents(path: string): void {
    for (let parent = parentMemoryPath(path); !directories.has(parent); parent = parentMemoryPath(parent)) {
      if (files.has(parent)) throw fail(`cannot create ${path}: ${parent} is a file`);
      directories.add(parent);
    }
  }

  function within(path: string): string[] {
    const found: string[] = [];
    for (const key of [...files.keys(), ...directories])
      if (isWithinMemoryPath({ path: key, ancestor: path })) found.push(key);
    return found;
  }

  return {
    async stat(path: string): Promise<MemoryEntry | undefined> {
      assertStringArgument(path, 'MemoryStore.stat', 'path');
      return entry(path);
    },
    async list(path: string, options?: MemoryListOptions): Promise<MemoryEntry[]> {
      assertStringArgument(path, 'MemoryStore.list', 'path');
      if (!directories.has(path)) throw fail(`${path} is not a directory`);
      const limit = options?.limit ?? Number.POSITIVE_INFINITY;
      const children: MemoryEntry[] = [];
      for (const key of [...directories, ...files.keys()]) {
        if (children.length >= limit) break;
        if (key !== path && parentMemoryPath(key) === path) children.push(entry(key)!);
      }
      return children;
    },
    async read(path: string, options?: MemoryReadOptions): Promise<string> {
      assertStringArgument(path, 'MemoryStore.read', 'path');
      const text = files.get(path);
      if (text === undefined) throw fail(directories.has(path) ? `${path} is a directory` : `${path} does not exist`);
      const maxBytes = options?.maxBytes ?? Number.POSITIVE_INFINITY;
      if (text.length * 3 <= maxBytes) return text;
      const bytes = encoder.encode(text);
      if (bytes.length <= maxBytes) return text;
      // Cut back to a whole character: drop continuation bytes at the cut, then the lead byte.
      let end = maxBytes;
      while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
      return new TextDecoder().decode(bytes.subarray(0, end));
    },
    async write(path: string, text: string, options: MemoryWriteOptions): Promise<void> {
      assertStringArgument(path, 'MemoryStore.write', 'path');
      assertStringArgument(text, 'MemoryStore.write', 'text');
      assertObjectArgument(options, 'MemoryStore.write', 'options');
      if (directories.has(path)) throw fail(`${path} is a directory`);
      if (files.has(path) && !options.overwrite) throw fail(`${path} already exists`);
      makeParents(path);
      files.set(path, text);
    },
    async delete(path: string): Promise<void> {
      assertStringArgument(path, 'MemoryStore.delete', 'path');
      if (path === MEMORY_ROOT) throw fail(`${MEMORY_ROOT} itself cannot be deleted`);
      if (entry(path) === undefined) throw fail(`${path} does not exist`);
      for (const key of within(path)) {
        files.delete(key);
        directories.delete(key);
      }
    },
    async rename(from: string, to: string): Promise<void> {
      assertStringArgument(from, 'MemoryStore.rename', 'from');
      assertStringArgument(to, 'MemoryStore.rename', 'to');
      if (from === MEMORY_ROOT || to === MEMORY_ROOT) throw fail(`${MEMORY_ROOT} itself cannot be renamed`);
      if (entry(from) === undefined) throw fail(`${from} does not exist`);
      if (entry(to) !== undefined) throw fail(`${to} already exists`);
      if (isWithinMemoryPath({ path: to, ancestor: from })) throw fail(`cannot move ${from} into itself`);
      makeParents(to);
      for (const key of within(from)) {
        const moved = to + key.slice(from.length);
        const text = files.get(key);
        if (text !== undefined) {
          files.delete(key);
          files.set(moved, text);
        } else {
          directories.delete(key);
          directories.add(moved);
        }
      }
    },
  };
}
