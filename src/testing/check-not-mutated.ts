import { deepDifferences } from './deep-differences.js';

/**
 * Freezes a value and everything reachable from it, so any attempt to change it throws a
 * `TypeError` (ES modules and test files run in strict mode). Use it on the input of a function
 * that promises not to mutate its input. Cycles are handled; the value is returned as it is.
 *
 * @param value - A message list, an entry list, a config, …
 * @returns The same value, now deeply frozen.
 *
 * @example
 * ```ts
 * const input = deepFreeze(conversation(userMessage('hi'), assistantMessage('hello')));
 * prepareModelMessages(input); // would throw if it wrote to a message
 * ```
 */
export function deepFreeze<T>(value: T): T {
  const seen = new WeakSet<object>();
  const freeze = (item: unknown): void => {
    // A typed array's elements cannot be frozen (the engine refuses): leave views as they are.
    if (typeof item !== 'object' || item === null || seen.has(item) || ArrayBuffer.isView(item)) return;
    seen.add(item);
    for (const key of Reflect.ownKeys(item)) freeze((item as Record<PropertyKey, unknown>)[key]);
    Object.freeze(item);
  };
  freeze(value);
  return value;
}

/**
 * Compares a value with a snapshot taken before a call (for example with `structuredClone`), and
 * reports every path that changed. Use it where freezing is not possible, or to check a value
 * after an async call. Keys holding `undefined` count as absent.
 *
 * @param snapshot - A deep copy taken before the call.
 * @param value - The value after the call.
 * @returns The changed paths as readable lines (at most 10); empty when nothing changed.
 *
 * @example
 * ```ts
 * const before = structuredClone(messages);
 * await summarizeToolResults(messages, { strategy: 'heuristic' });
 * expect(checkNotMutated(before, messages)).toEqual([]);
 * ```
 */
export function checkNotMutated(snapshot: unknown, value: unknown): string[] {
  return deepDifferences(snapshot, value).map((difference) => `mutated at ${difference}`);
}
