// Where byte-pair merging provably cannot join the bytes on its two sides: a position of a piece
// that no token of the encoding spans. Every part a merge makes is a token whose bytes lie in the
// piece, so if no token's bytes can lie across a position, no part ever does, the two sides merge
// each on its own, and the piece's count is the sum of the sides' counts. A long piece of random
// Chinese, emoji or Cyrillic — one piece for the split pattern — falls apart into pieces of a
// character or a few this way, which are cheap to count and repeat.
//
// The test must never call a position free that some token spans (a wrong count); calling a free
// position spanned only costs speed. So it looks at two bytes on each side of the position: a token
// that spans it either holds those four bytes across its own inner position, or starts one byte
// before the position, or ends one byte after it, or is those two bytes. Bit sets made once from the
// tokens answer each case: two-byte tokens exactly, the other three cases hashed (a collision sets
// a bit no token needs, which only makes the test more careful) into blocks chosen by the two bytes
// at the position, so that one test reads one block of memory — on random text each read misses the
// processor's caches, and the reads are what a free position costs.

/** Bits of the hashed set (2^23 bits, 1 MB). */
const HASH_BITS = 23;
const HASH_SHIFT = 32 - HASH_BITS;

/** The three hashed cases, told apart in the key's high bits. */
const STARTS_BEFORE = 0x0100_0000;
const ENDS_AFTER = 0x0200_0000;

/** Bits of a block of the hashed set: the keys of one junction's two bytes share a block (two cache lines). */
const BLOCK_BITS = 10;

/** The bit of a key, whose junction bytes are `pair`, in the hashed set. */
const hashOf = (pair: number, key: number): number =>
  ((Math.imul(pair, 0x9e37_79b1) >>> HASH_SHIFT) & ~((1 << BLOCK_BITS) - 1)) |
  (Math.imul(key, 0x85eb_ca6b) >>> (32 - BLOCK_BITS));

/** The tokens' bytes, as {@link MergeBoundaries} reads them: `bytes[offset, offset + length)` for each token. */
export interface TokenSpans {
  readonly bytes: Uint8Array;
  forEach(visit: (offset: number, length: number) => void): void;
}

/** The positions of a piece that no token spans, told from the bytes around each. @internal */
export class MergeBoundaries {
  /** Two-byte tokens, by their bytes (2^16 bits). */
  private readonly pairs = new Int32Array(2 ** 11);
  /** Tokens by the bytes around one of their inner positions (hashed). */
  private readonly spans = new Int32Array(2 ** (HASH_BITS - 5));

  constructor(tokens: TokenSpans) {
    const { bytes } = tokens;
    tokens.forEach((offset, length) => {
      if (length < 2) return;
      if (length === 2) {
        const key = (bytes[offset]! << 8) | bytes[offset + 1]!;
        this.pairs[key >>> 5]! |= 1 << (key & 31);
        return;
      }
      // Inner position `inner` of the token: its first, its last, and the ones between.
      const first = (bytes[offset]! << 16) | (bytes[offset + 1]! << 8) | bytes[offset + 2]!;
      this.add((bytes[offset]! << 8) | bytes[offset + 1]!, first | STARTS_BEFORE);
      const end = offset + length;
      const last = (bytes[end - 3]! << 16) | (bytes[end - 2]! << 8) | bytes[end - 1]!;
      this.add((bytes[end - 2]! << 8) | bytes[end - 1]!, last | ENDS_AFTER);
      for (let inner = offset + 2; inner <= end - 2; inner++) {
        const key = (bytes[inner - 2]! << 24) | (bytes[inner - 1]! << 16) | (bytes[inner]! << 8) | bytes[inner + 1]!;
        this.add((bytes[inner - 1]! << 8) | bytes[inner]!, key);
      }
    });
  }

  private add(pair: number, key: number): void {
    const bit = hashOf(pair, key);
    this.spans[bit >>> 5]! |= 1 << (bit & 31);
  }

  private has(pair: number, key: number): boolean {
    const bit = hashOf(pair, key);
    return (this.spans[bit >>> 5]! & (1 << (bit & 31))) !== 0;
  }

  /**
   * Whether no token spans position `at` (between `bytes[at - 1]` and `bytes[at]`) of the piece
   * `bytes[0, length)`; `0 < at < length`.
   */
  free(bytes: Uint8Array, at: number, length: number): boolean {
    const before = bytes[at - 1]!;
    const after = bytes[at]!;
    const hasTwoBefore = at >= 2;
    const hasTwoAfter = at + 2 <= length;
    const pair = (before << 8) | after;
    if (hasTwoBefore && hasTwoAfter) {
      if (this.has(pair, (bytes[at - 2]! << 24) | (before << 16) | (after << 8) | bytes[at + 1]!)) return false;
    }
    if ((this.pairs[pair >>> 5]! & (1 << (pair & 31))) !== 0) return false;
    if (hasTwoAfter && this.has(pair, (before << 16) | (after << 8) | bytes[at + 1]! | STARTS_BEFORE)) return false;
    if (hasTwoBefore && this.has(pair, (bytes[at - 2]! << 16) | (before << 8) | after | ENDS_AFTER)) return false;
    return true;
  }
}
