/** Growing typed arrays by doubling. */

function capacity(current: number, needed: number): number {
  let size = Math.max(64, current * 2);
  while (size < needed) size *= 2;
  return size;
}

/** An `Int32Array` of room for `needed` entries at least, holding `array`'s. @internal */
export function growInts(array: Int32Array, needed: number): Int32Array {
  const next = new Int32Array(capacity(array.length, needed));
  next.set(array);
  return next;
}

/** A `Float64Array` of room for `needed` entries at least, holding `array`'s. @internal */
export function growFloats(array: Float64Array, needed: number): Float64Array {
  const next = new Float64Array(capacity(array.length, needed));
  next.set(array);
  return next;
}
