/**
 * Freezes a JSON value all the way down (objects and arrays; a frozen object is taken as frozen
 * through), so a shared value — a stored entry, a tool definition — cannot be changed by accident.
 * `ctxkit/testing` has its own `deepFreeze` for tests, which also walks symbol keys, cycles and
 * typed arrays.
 *
 * @internal
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    if (Array.isArray(value)) {
      for (const child of value) if (typeof child === 'object' && child !== null) deepFreeze(child);
    } else {
      for (const key in value) {
        const child = (value as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null) deepFreeze(child);
      }
    }
  }
  return value;
}
