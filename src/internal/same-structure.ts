/**
 * Deep equality of two values built from JSON-like parts (objects, arrays, strings, numbers…), as
 * adapters compare what an SDK hands back with what it sent: the SDKs rebuild objects on every call
 * but keep their strings, so this walks the structure, not the text. Keys whose value is
 * `undefined` count as absent; a URL compares by its `href`; binary data (a typed array, a `Buffer`,
 * an `ArrayBuffer`) by the bytes it views, not by the (possibly pooled) buffer behind it.
 *
 * @param a - One value.
 * @param b - The other.
 * @param ignoredKey - A key left out of every object compared (e.g. `providerData`, `id`).
 * @internal
 */
export function sameStructure(a: unknown, b: unknown, ignoredKey?: string): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof URL || b instanceof URL) return a instanceof URL && b instanceof URL && a.href === b.href;
  if (isBinary(a) || isBinary(b)) {
    if (!isBinary(a) || !isBinary(b)) return false;
    const left = bytesOf(a);
    const right = bytesOf(b);
    return left.length === right.length && left.every((value, index) => value === right[index]);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = (value: Record<string, unknown>) =>
    Object.keys(value).filter((key) => key !== ignoredKey && value[key] !== undefined);
  const leftKeys = keys(left);
  if (leftKeys.length !== keys(right).length) return false;
  return leftKeys.every((key) => sameStructure(left[key], right[key], ignoredKey));
}

function isBinary(value: object): value is ArrayBufferView | ArrayBuffer {
  return ArrayBuffer.isView(value) || value instanceof ArrayBuffer;
}

/** The bytes a view covers (a `Buffer` from Node's pool views a slice of a larger buffer). */
function bytesOf(value: ArrayBufferView | ArrayBuffer): Uint8Array {
  return value instanceof ArrayBuffer
    ? new Uint8Array(value)
    : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
}
