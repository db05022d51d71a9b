/** Entries of room at first; the room doubles when full. */
const FIRST_CAPACITY = 64;

/**
 * The token count of each sent message by position, in the narrowest typed array that holds
 * every count so far: 2 bytes a message while counts are integers below 65,536 (a message of
 * that many tokens is rare; tool output is cut well below it by default), 4 below 2³², else 8
 * (a fractional count from a host's counter). Widening copies the counts once; they read back
 * exactly as set.
 *
 * @internal
 */
export class TokenCounts {
  private values: Uint16Array | Uint32Array | Float64Array = new Uint16Array(FIRST_CAPACITY);

  /** The count at `index` (0 where none was set). */
  at(index: number): number {
    return this.values[index] ?? 0;
  }

  /** Sets the count at `index`, making room and widening as needed. */
  set(index: number, tokens: number): void {
    if (!this.fits(tokens)) {
      this.values = this.resized(tokens >>> 0 === tokens ? Uint32Array : Float64Array, this.values.length);
    }
    if (index >= this.values.length) {
      let capacity = this.values.length * 2;
      while (capacity <= index) capacity *= 2;
      this.values = this.resized(this.values.constructor as CountsArray, capacity);
    }
    this.values[index] = tokens;
  }

  private fits(tokens: number): boolean {
    const values = this.values;
    if (values instanceof Uint16Array) return (tokens & 0xffff) === tokens;
    if (values instanceof Uint32Array) return tokens >>> 0 === tokens;
    return true;
  }

  /** The counts in a new array of the kind `Kind`, with room for `capacity`. */
  private resized(Kind: CountsArray, capacity: number): Uint16Array | Uint32Array | Float64Array {
    const next = new Kind(capacity);
    next.set(this.values);
    return next;
  }
}

type CountsArray = typeof Uint16Array | typeof Uint32Array | typeof Float64Array;
