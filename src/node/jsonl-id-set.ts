import { mixHash } from '../internal/mix-hash.js';

/** Whether `bytes[a, aEnd)` and `bytes[b, bEnd)` are the same bytes. @internal */
export function sameBytes(bytes: Uint8Array, a: number, aEnd: number, b: number, bEnd: number): boolean {
  if (aEnd - a !== bEnd - b) return false;
  for (let offset = 0; offset < aEnd - a; offset++) if (bytes[a + offset] !== bytes[b + offset]) return false;
  return true;
}

/**
 * The ids of the lines a JSONL reopen indexes, held as byte ranges of the file: a repeated id is
 * found while indexing without decoding an id to a string.
 *
 * @internal
 */
export class IdSet {
  /** Open addressing: each slot holds 1 + the index of an id in `starts`/`ends`, or 0. */
  private readonly slots: Int32Array;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private size = 0;

  constructor(
    private readonly bytes: Uint8Array,
    capacity: number,
  ) {
    let slots = 16;
    while (slots < capacity * 2) slots *= 2;
    this.slots = new Int32Array(slots);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
  }

  /** Adds the id spelled by `bytes[start, end)`; returns false when the same bytes were added before. */
  add(start: number, end: number): boolean {
    const { bytes, slots } = this;
    let hash = 0x811c9dc5;
    for (let at = start; at < end; at++) hash = Math.imul(hash ^ bytes[at]!, 0x01000193);
    hash = mixHash(hash); // FNV-1a's low bits alone would pile ids like e1, e2, … into runs
    const mask = slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const held = slots[slot]!;
      if (held === 0) {
        this.starts[this.size] = start;
        this.ends[this.size] = end;
        slots[slot] = ++this.size;
        return true;
      }
      const index = held - 1;
      if (sameBytes(bytes, this.starts[index]!, this.ends[index]!, start, end)) return false;
    }
  }
}
