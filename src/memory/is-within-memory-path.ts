import { assertObjectArgument, assertStringArgument } from '../validation/assert-argument.js';
/**
 * Whether `path` is `ancestor` itself or lies below it (by whole names, so `/memories/a` does not
 * contain `/memories/ab`). Takes trusted input: paths {@link resolveMemoryPath} returned.
 *
 * @param options - The two normalised paths.
 * @returns True when `path` is inside `ancestor`.
 *
 * @example
 * ```ts
 * isWithinMemoryPath({ path: '/memories/a/b', ancestor: '/memories/a' }); // true
 * ```
 */
export function isWithinMemoryPath(options: { path: string; ancestor: string }): boolean {
  assertObjectArgument(options, 'isWithinMemoryPath', 'options');
  const { path, ancestor } = options;
  assertStringArgument(path, 'isWithinMemoryPath', 'options.path');
  assertStringArgument(ancestor, 'isWithinMemoryPath', 'options.ancestor');
  return path === ancestor || path.startsWith(`${ancestor}/`);
}
