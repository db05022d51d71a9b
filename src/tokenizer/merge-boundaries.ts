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
//
// Two bytes are too little between two characters of three bytes (Devanagari, CJK, kana): the two
// after the position are the first two of the next character, shared by 64 characters, and the two
// before are the ends of characters shared too, so across a script nearly every position looks
// spanned. There the test looks at both whole characters: a token that spans the position either
// holds the whole character before it (then its bytes from that character to the position's third
// byte after, or to its own end, are looked up in a block of bits chosen by that character, so the
// few blocks of one script stay in the caches), or starts inside that character (one or two of its
// bytes, then the next character's bytes: two small exact sets, as tokens that start with a byte
// inside a character are few).

/** Bits of the hashed set (2^23 bits, 1 MB). */
const HASH_BITS = 23;
const HASH_SHIFT = 32 - HASH_BITS;

/** The three hashed cases, told apart in the key's high bits. */
const STARTS_BEFORE = 0x0100_0000;
const ENDS_AFTER = 0x0200_0000;

/** Bits of a block of the hashed set: the keys of one junction's two bytes share a block (two cache lines). */
const BLOCK_BITS = 10;

/** Bits of the set by whole characters (2^20 bits, 128 kB) and of one of its blocks (the keys of one character before). */
const CHARACTER_BITS = 20;
const CHARACTER_BLOCK_BITS = 10;

/** Whether a byte starts a character of three bytes, or continues a character. */
const startsThree = (byte: number): boolean => (byte & 0xf0) === 0xe0;
const continues = (byte: number): boolean => (byte & 0xc0) === 0x80;

/**
 * The bit, in the set by whole characters, of the key `key` (how many bytes of the next character
 * follow, and those bytes) after the character of three bytes `character`.
 */
const characterHashOf = (character: number, key: number): number =>
  ((Math.imul(character, 0x9e37_79b1) >>> (32 - CHARACTER_BITS)) & ~((1 << CHARACTER_BLOCK_BITS) - 1)) |
  (Math.imul(key, 0x85eb_ca6b) >>> (32 - CHARACTER_BLOCK_BITS));

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
  /**
   * Between two characters of three bytes: tokens by the character before one of their inner
   * positions and up to three bytes after it (hashed); tokens that start with the last byte of a
   * character, by that byte's low six bits, the next character's first byte's low four and its second
   * byte's low six (2^16 bits, exact); and tokens that start with the last two bytes of one, by their
   * low six bits each and the next character's first byte's low four (2^16 bits, exact).
   */
  private readonly characterSpans = new Int32Array(2 ** (CHARACTER_BITS - 5));
  private readonly startsOneInside = new Int32Array(2 ** 11);
  private readonly startsTwoInside = new Int32Array(2 ** 11);

  constructor(tokens: TokenSpans) {
    const { bytes } = tokens;
    tokens.forEach((offset, length) => {
      if (length < 2) return;
      this.addCharacterSpans(bytes, offset, offset + length);
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

  /**
   * The token `bytes[offset, end)` in the sets by whole characters, at each
   * inner position that can lie between two characters of three bytes: one that starts such a
   * character, after one or two bytes that continue a character or after a whole such character.
   */
  private addCharacterSpans(bytes: Uint8Array, offset: number, end: number): void {
    for (let inner = offset + 1; inner < end; inner++) {
      if (!startsThree(bytes[inner]!)) continue;
      // The next character's bytes the token holds: up to three, all of them its own.
      const after = Math.min(3, end - inner);
      if (after >= 2 && !continues(bytes[inner + 1]!)) continue;
      if (after === 3 && !continues(bytes[inner + 2]!)) continue;
      const low = bytes[inner]! & 0x0f;
      const before = inner - offset;
      if (before === 1 && continues(bytes[offset]!)) {
        const key = ((bytes[offset]! & 0x3f) << 10) | (low << 6);
        // Without the next character's second byte, every second byte.
        if (after === 1) for (let second = 0; second < 64; second++) setBit(this.startsOneInside, key | second);
        else setBit(this.startsOneInside, key | (bytes[inner + 1]! & 0x3f));
      } else if (before === 2 && continues(bytes[offset]!) && continues(bytes[offset + 1]!)) {
        setBit(this.startsTwoInside, ((bytes[offset]! & 0x3f) << 10) | ((bytes[offset + 1]! & 0x3f) << 4) | low);
      } else if (before >= 3 && startsThree(bytes[inner - 3]!)) {
        if (!continues(bytes[inner - 2]!) || !continues(bytes[inner - 1]!)) continue;
        const character = (bytes[inner - 3]! << 16) | (bytes[inner - 2]! << 8) | bytes[inner - 1]!;
        let key = after << 24;
        for (let index = 0; index < after; index++) key |= bytes[inner + index]! << (16 - 8 * index);
        setBit(this.characterSpans, characterHashOf(character, key));
      }
    }
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
    return startsThree(bytes[at]!) &&
      at >= 3 &&
      at + 3 <= length &&
      startsThree(bytes[at - 3]!) &&
      continues(bytes[at - 2]!) &&
      continues(bytes[at - 1]!) &&
      continues(bytes[at + 1]!) &&
      continues(bytes[at + 2]!)
      ? this.freeBetweenCharacters(bytes, at)
      : this.freeByBytes(bytes, at, length);
  }

  /** {@link free} by the two bytes on each side of the position. */
  private freeByBytes(bytes: Uint8Array, at: number, length: number): boolean {
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

  /** {@link free} for a position between two whole characters of three bytes each. */
  private freeBetweenCharacters(bytes: Uint8Array, at: number): boolean {
    const first = bytes[at]!;
    const second = bytes[at + 1]!;
    const third = bytes[at + 2]!;
    const character = (bytes[at - 3]! << 16) | (bytes[at - 2]! << 8) | bytes[at - 1]!;
    const { characterSpans } = this;
    // The commonest case first: a token holding both whole characters.
    if (hasBit(characterSpans, characterHashOf(character, 0x0300_0000 | (first << 16) | (second << 8) | third))) {
      return false;
    }
    if (hasBit(characterSpans, characterHashOf(character, 0x0200_0000 | (first << 16) | (second << 8)))) return false;
    if (hasBit(characterSpans, characterHashOf(character, 0x0100_0000 | (first << 16)))) return false;
    const last = bytes[at - 1]! & 0x3f;
    if (hasBit(this.startsOneInside, (last << 10) | ((first & 0x0f) << 6) | (second & 0x3f))) return false;
    return !hasBit(this.startsTwoInside, ((bytes[at - 2]! & 0x3f) << 10) | (last << 4) | (first & 0x0f));
  }
}

/** Sets bit `bit` of `set`. */
function setBit(set: Int32Array, bit: number): void {
  set[bit >>> 5]! |= 1 << (bit & 31);
}

/** Whether bit `bit` of `set` is set. */
function hasBit(set: Int32Array, bit: number): boolean {
  return (set[bit >>> 5]! & (1 << (bit & 31))) !== 0;
}
