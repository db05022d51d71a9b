// Counts the tokens of a text for one encoding, as gpt-tokenizer 4.0.0's encoder counts them (with
// special-token text taken as plain text), in time that grows as n log n with the longest piece.
//
// The encoder merges byte pairs by scanning and splicing arrays, which costs the square of a piece's
// length: one piece is any run the split pattern keeps together (80,000 newlines, a paragraph of
// Chinese without punctuation, a long word of one letter), so a single 1 MB message once took
// seconds. This counter runs the same algorithm — split with the encoding's own pattern, a piece
// that is a token counts one, otherwise repeatedly merge the adjacent pair of lowest rank, the
// leftmost on a tie — over a linked list of parts with a heap of pairs, which gives the same merges
// in the same order (`npm run bench:hostile`).

/** A rank table as gpt-tokenizer ships it: a token's text, or its bytes when they are not UTF-8. */
export type Ranks = readonly (string | readonly number[])[];

/** The three bytes of a UTF-8 byte order mark, as a byte string. */
const BYTE_ORDER_MARK = '\xEF\xBB\xBF';

/** Pieces whose count is kept, and the longest piece kept. */
const CACHE_SIZE = 50_000;
const CACHED_PIECE_LENGTH = 64;

/** Slots of the table of pair ranks (a power of two). */
const PAIR_SLOTS = 2 ** 18;

const utf8 = new TextEncoder();
const nonAscii = /[\u0080-\uffff]/;
/** A UTF-16 code unit that is not part of a pair: the encoder cannot find such a piece whole. */
const loneSurrogate = /\p{Cs}/u;

/** Bytes as a string of one character per byte (code units 0–255), which a `Map` can key. */
function byteString(bytes: Uint8Array): string {
  let text = '';
  for (let start = 0; start < bytes.length; start += 8192) {
    text += String.fromCharCode(...bytes.subarray(start, start + 8192));
  }
  return text;
}

/** The UTF-8 bytes of `text` (lone surrogates become U+FFFD, as `TextEncoder` does) as a byte string. */
function utf8Bytes(text: string): string {
  return nonAscii.test(text) ? byteString(utf8.encode(text)) : text;
}

/** Whether a byte string is well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF). */
function isUtf8(bytes: string): boolean {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes.charCodeAt(index);
    const length = lead < 0x80 ? 1 : lead < 0xc2 ? 0 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : lead < 0xf5 ? 4 : 0;
    if (length === 0 || index + length > bytes.length) return false;
    let codePoint = length === 1 ? lead : lead & (0xff >> (length + 1));
    for (let offset = 1; offset < length; offset++) {
      const byte = bytes.charCodeAt(index + offset);
      if ((byte & 0xc0) !== 0x80) return false;
      codePoint = (codePoint << 6) | (byte & 0x3f);
    }
    if ((length === 3 && codePoint < 0x800) || (length === 4 && codePoint < 0x10000)) return false;
    if ((codePoint >= 0xd800 && codePoint <= 0xdfff) || codePoint > 0x10ffff) return false;
    index += length;
  }
  return true;
}

/**
 * The rank of a byte sequence, looked up as gpt-tokenizer 4.0.0 looks it up: bytes that are UTF-8
 * are decoded (a leading byte order mark dropped, as `TextDecoder` does) and found among the tokens
 * stored as text; other bytes among the tokens stored as bytes. So a token stored as bytes although
 * they are UTF-8 (the ones that start with a byte order mark) is never found, and "\uFEFFusing"
 * ranks as "using" does: the encoder's count, quirks included.
 */
function pairRanker(table: ReadonlyMap<string, number>): (bytes: string) => number | undefined {
  return (bytes) => {
    if (!bytes.startsWith(BYTE_ORDER_MARK) || !isUtf8(bytes)) return table.get(bytes);
    return bytes.length === BYTE_ORDER_MARK.length ? undefined : table.get(bytes.slice(BYTE_ORDER_MARK.length));
  };
}

/**
 * The tokens by their bytes (as byte strings): those stored as text, and those stored as bytes that
 * are not UTF-8 — the encoder looks UTF-8 bytes up among the text tokens only.
 */
function tokenTable(ranks: Ranks): Map<string, number> {
  const table = new Map<string, number>();
  ranks.forEach((token, rank) => {
    if (typeof token === 'string') table.set(utf8Bytes(token), rank);
    else {
      const bytes = String.fromCharCode(...token);
      if (!isUtf8(bytes)) table.set(bytes, rank);
    }
  });
  return table;
}

/**
 * How a merge finds the rank of two adjacent parts (-1: not a token): by their bytes, or by their
 * tokens' ranks (`first`, `second`), which is the same where no part can start with a byte order mark.
 */
type PairRank = (start: number, end: number, first: number, second: number) => number;

/**
 * A min-heap of adjacent pairs ordered by rank, then by start offset, in two typed arrays (each
 * merge pushes at most two pairs, so `capacity` is known up front).
 */
class PairHeap {
  private readonly ranks: Int32Array;
  private readonly starts: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.ranks = new Int32Array(capacity);
    this.starts = new Int32Array(capacity);
  }

  /** The rank of the pair on top; read it before `pop`. */
  get topRank(): number {
    return this.ranks[0]!;
  }

  /** The start offset of the pair on top. */
  get topStart(): number {
    return this.starts[0]!;
  }

  push(rank: number, start: number): void {
    const { ranks, starts } = this;
    let index = this.size++;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const parentRank = ranks[parent]!;
      if (parentRank < rank || (parentRank === rank && starts[parent]! < start)) break;
      ranks[index] = parentRank;
      starts[index] = starts[parent]!;
      index = parent;
    }
    ranks[index] = rank;
    starts[index] = start;
  }

  pop(): void {
    const { ranks, starts } = this;
    const size = --this.size;
    const rank = ranks[size]!;
    const start = starts[size]!;
    let index = 0;
    for (;;) {
      let child = 2 * index + 1;
      if (child >= size) break;
      if (
        child + 1 < size &&
        (ranks[child + 1]! < ranks[child]! ||
          (ranks[child + 1] === ranks[child] && starts[child + 1]! < starts[child]!))
      ) {
        child++;
      }
      const childRank = ranks[child]!;
      if (childRank > rank || (childRank === rank && starts[child]! > start)) break;
      ranks[index] = childRank;
      starts[index] = starts[child]!;
      index = child;
    }
    ranks[index] = rank;
    starts[index] = start;
  }
}

/**
 * The number of tokens byte-pair merging leaves of a piece whose bytes are the tokens `tokens`
 * (overwritten). Parts are a linked list of start offsets; the pairs wait by rank and start (a
 * long piece's first pairs in a sorted array, the pairs merges make in a heap), so the lowest rank
 * and, among equal ranks, the leftmost pair comes first. A pair whose rank is no longer the one
 * recorded for its start is stale (its parts merged since) and skipped. Typed arrays and a
 * hand-kept heap: `npm run bench:hostile` (1 MB texts in one piece) misses its goal by far with
 * arrays and objects.
 */
function mergedLength(tokens: Int32Array, rankOf: PairRank): number {
  const length = tokens.length;
  const next = new Int32Array(length);
  const previous = new Int32Array(length);
  const pairRanks = new Int32Array(length).fill(-1);
  for (let index = 0; index < length; index++) {
    next[index] = index + 1;
    previous[index] = index - 1;
  }
  for (let index = 0; index < length - 1; index++) {
    pairRanks[index] = rankOf(index, index + 2, tokens[index]!, tokens[index + 1]!);
  }
  // The first pairs in order (by rank, then start) without a heap; the heap holds the pairs merges
  // make. The lowest of the two heads is the lowest pair: the same order as one heap of all pairs.
  const heap = new PairHeap(3 * length);
  const sorted = length >= SORTED_PAIRS_LENGTH ? sortedPairs(pairRanks) : undefined;
  if (sorted === undefined) {
    for (let index = 0; index < length - 1; index++) if (pairRanks[index]! >= 0) heap.push(pairRanks[index]!, index);
  }
  const firstStarts = sorted?.starts ?? NO_PAIRS;
  const firstRanks = sorted?.ranks ?? NO_PAIRS;
  let head = 0;
  let parts = length;
  for (;;) {
    while (head < firstStarts.length && pairRanks[firstStarts[head]!] !== firstRanks[head]) head++;
    let rank: number;
    let start: number;
    const fromFirst =
      head < firstStarts.length &&
      (heap.size === 0 ||
        firstRanks[head]! < heap.topRank ||
        (firstRanks[head] === heap.topRank && firstStarts[head]! < heap.topStart));
    if (fromFirst) {
      rank = firstRanks[head]!;
      start = firstStarts[head++]!;
    } else if (heap.size > 0) {
      rank = heap.topRank;
      start = heap.topStart;
      heap.pop();
      if (pairRanks[start] !== rank) continue;
    } else break;
    const second = next[start]!;
    const after = next[second]!;
    next[start] = after;
    if (after < length) previous[after] = start;
    tokens[start] = rank;
    pairRanks[second] = -1;
    parts--;
    // The merged part and the part after it, then the part before it and the merged part.
    pairRanks[start] = after < length ? rankOf(start, next[after]!, rank, tokens[after]!) : -1;
    if (pairRanks[start]! >= 0) heap.push(pairRanks[start]!, start);
    const before = previous[start]!;
    if (before >= 0) {
      pairRanks[before] = rankOf(before, after, tokens[before]!, rank);
      if (pairRanks[before]! >= 0) heap.push(pairRanks[before]!, before);
    }
  }
  return parts;
}

/**
 * Pieces from this length on keep their first pairs sorted beside the heap (a long piece's pairs
 * then cost the heap nothing until merges make new ones); from the second length on they are
 * sorted by counting ranks, shorter ones by comparing.
 */
const SORTED_PAIRS_LENGTH = 256;
const COUNTING_SORT_LENGTH = 4096;
const NO_PAIRS = new Int32Array(0);

/** The pairs that are tokens (rank ≥ 0), ordered by rank and then by start. */
function sortedPairs(pairRanks: Int32Array): { starts: Int32Array; ranks: Int32Array } {
  let count = 0;
  let highest = -1;
  for (const rank of pairRanks) {
    if (rank < 0) continue;
    count++;
    if (rank > highest) highest = rank;
  }
  const starts = new Int32Array(count);
  const ranks = new Int32Array(count);
  if (pairRanks.length < COUNTING_SORT_LENGTH) {
    const keys = new Float64Array(count);
    let at = 0;
    for (let index = 0; index < pairRanks.length; index++) {
      if (pairRanks[index]! >= 0) keys[at++] = pairRanks[index]! * 2 ** 32 + index;
    }
    keys.sort();
    for (let at = 0; at < count; at++) {
      starts[at] = keys[at]! % 2 ** 32;
      ranks[at] = (keys[at]! - starts[at]!) / 2 ** 32;
    }
    return { starts, ranks };
  }
  // Where each rank's pairs begin, then each pair at its place (starts ascending within a rank).
  const offsets = new Int32Array(highest + 2);
  for (const rank of pairRanks) if (rank >= 0) offsets[rank + 1]!++;
  for (let rank = 1; rank < offsets.length; rank++) offsets[rank]! += offsets[rank - 1]!;
  for (let index = 0; index < pairRanks.length; index++) {
    const rank = pairRanks[index]!;
    if (rank < 0) continue;
    const at = offsets[rank]!++;
    starts[at] = index;
    ranks[at] = rank;
  }
  return { starts, ranks };
}

/**
 * The ranks of pairs of tokens met so far, in an open-addressed table of typed arrays (emptied
 * when three quarters full): a `Map` keyed by `first × 2¹⁸ + second` hashes a double per lookup,
 * which `npm run bench:hostile` cannot afford.
 */
class PairRanks {
  private readonly firsts = new Int32Array(PAIR_SLOTS).fill(-1);
  private readonly seconds = new Int32Array(PAIR_SLOTS);
  private readonly ranks = new Int32Array(PAIR_SLOTS);
  private used = 0;

  constructor(private readonly rankOf: (first: number, second: number) => number) {}

  get(first: number, second: number): number {
    const mask = PAIR_SLOTS - 1;
    let slot = (Math.imul(first, 0x9e3779b1) ^ Math.imul(second, 0x85ebca6b)) & mask;
    for (;;) {
      const stored = this.firsts[slot]!;
      if (stored === -1) break;
      if (stored === first && this.seconds[slot] === second) return this.ranks[slot]!;
      slot = (slot + 1) & mask;
    }
    const rank = this.rankOf(first, second);
    if (this.used >= (PAIR_SLOTS >> 2) * 3) {
      this.firsts.fill(-1);
      this.used = 0;
      return rank;
    }
    this.firsts[slot] = first;
    this.seconds[slot] = second;
    this.ranks[slot] = rank;
    this.used++;
    return rank;
  }
}

/**
 * A function counting the tokens of a text for one encoding, exactly as gpt-tokenizer 4.0.0's
 * `countTokens(text, { disallowedSpecial: new Set() })` does, in n log n time. @internal
 *
 * @param ranks - The encoding's rank table.
 * @param splitPattern - The encoding's pre-tokenizer pattern (global, unicode).
 * @returns The counting function; it keeps a bounded cache of short pieces' counts.
 */
export function createBytePairCounter(ranks: Ranks, splitPattern: RegExp): (text: string) => number {
  const table = tokenTable(ranks);
  const rankOf = pairRanker(table);
  const bytesOf: string[] = [];
  for (const [bytes, rank] of table) bytesOf[rank] = bytes;
  const byteRanks = Int32Array.from({ length: 256 }, (_, byte) => table.get(String.fromCharCode(byte)) ?? -1);
  if (byteRanks.includes(-1)) throw new Error('The rank table does not hold every byte as a token');
  const cache = new Map<string, number>();
  const pairs = new PairRanks((first, second) => table.get(bytesOf[first]! + bytesOf[second]!) ?? -1);
  const byTokens: PairRank = (_start, _end, first, second) => pairs.get(first, second);
  const merge = (bytes: string): number => {
    const tokens = new Int32Array(bytes.length);
    for (let index = 0; index < bytes.length; index++) tokens[index] = byteRanks[bytes.charCodeAt(index)]!;
    // A byte order mark makes two byte sequences share a rank: look pairs up by their bytes then.
    const byBytes: PairRank = (start, end) => rankOf(bytes.slice(start, end)) ?? -1;
    return mergedLength(tokens, bytes.includes(BYTE_ORDER_MARK) ? byBytes : byTokens);
  };
  const countPiece = (piece: string): number => {
    const cached = cache.get(piece);
    if (cached !== undefined) return cached;
    const bytes = utf8Bytes(piece);
    // The encoder looks a piece up whole by its text; with a lone surrogate it is not a token's
    // text, whatever its U+FFFD bytes are.
    const whole = bytes === piece || !loneSurrogate.test(piece) ? table.get(bytes) : undefined;
    const tokens = whole !== undefined ? 1 : merge(bytes);
    if (piece.length <= CACHED_PIECE_LENGTH) {
      if (cache.size >= CACHE_SIZE) cache.clear();
      cache.set(piece, tokens);
    }
    return tokens;
  };
  return (text) => {
    let tokens = 0;
    for (const [piece] of text.matchAll(splitPattern)) tokens += countPiece(piece);
    return tokens;
  };
}
