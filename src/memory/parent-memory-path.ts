import { assertStringArgument } from '../validation/assert-argument.js';
import { MEMORY_ROOT } from './memory-root.js';

/**
 * The parent of a normalised memory path (the root is its own parent). Takes trusted input: a path
 * {@link resolveMemoryPath} returned, never the model's raw text.
 *
 * @param path - A path returned by {@link resolveMemoryPath}.
 * @returns The parent path.
 *
 * @example
 * ```ts
 * parentMemoryPath('/memories/a/b.md'); // '/memories/a'
 * ```
 */
export function parentMemoryPath(path: string): string {
  assertStringArgument(path, 'parentMemoryPath', 'path');
  const index = path.lastIndexOf('/');
  return index <= MEMORY_ROOT.length - 1 ? MEMORY_ROOT : path.slice(0, index);
}
