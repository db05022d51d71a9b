/**
 * `JSON.stringify` that never throws: a value it cannot serialize (a cycle, a BigInt) falls back to
 * `String(value)`, and `undefined` to the empty string.
 *
 * @internal
 */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}
