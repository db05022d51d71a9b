// Counts the tokens of a text for one encoding, as gpt-tokenizer 4.0.0's encoder counts them (with
// special-token text taken as plain text), in time that grows as n log n with the longest piece.
//
// The encoder merges byte pairs by scanning and splicing arrays, which costs the square of a piece's
// length: one piece is any run the split pattern keeps together (80,000 newlines, a paragraph of
// Chinese without punctuation, a long word of one letter, base64 without a slash), so a single 1 MB
// message once took seconds. This counter runs the same algorithm — split with the encoding's own
// pattern, a piece that is a token counts one, otherwise repeatedly merge the adjacent pair of lowest
// rank, the leftmost on a tie — and gives the same merges in the same order: a short piece by
// scanning its pairs, a long one over a linked list of parts with a heap of pairs. Ranks are found
// by the bytes themselves in a hash table of typed arrays, so no string is made per lookup. A long
// piece is cut where no token can span (./merge-boundaries.ts); a range of one character is counted
// once per code point, and a run of one character that no token spans two copies of counts as its
// copies. o200k_base's pieces are found by hand where they start outside ASCII (./o200k-splitter.ts).
// `npm run bench:hostile` measures the worst inputs of each kind (docs/hostile-inputs.md).

import { MergeBoundaries, type TokenSpans } from './merge-boundaries.js';
import { O200K_SPLIT_SOURCE, O200kSplitter } from './o200k-splitter.js';

/** A rank table as gpt-tokenizer ships it: a token's text, or its bytes when they are not UTF-8. */
export type Ranks = readonly (string | readonly number[])[];

/** Pieces whose count is kept, and the longest piece kept (UTF-16 units). */
const CACHE_SIZE = 50_000;
const CACHED_PIECE_LENGTH = 64;
/** Lookups after which the cache's hits are weighed. */
const CACHE_ROUND = 8192;

/**
 * Entries of the arrays a long piece grows that are always kept. Larger ones (~50 MB after a 1 MB
 * piece) are let go at the end of their text but held weakly ({@link Spare}): the next text with a
 * long piece takes them back unless the collector took them first.
 */
const KEPT_ENTRIES = 2 ** 18;

/**
 * Arrays let go but held weakly: a run of long texts reuses them (allocating them anew for each
 * 1 MB text costs a quarter more time on runs of spaces or newlines: the zeroing and first touch of
 * ~50 MB), and a host that counted one long text does not keep them alive after it.
 */
class Spare<T extends object> {
  private held: WeakRef<T> | undefined;

  /** Holds `value` weakly, in place of what was held. */
  put(value: T): void {
    this.held = new WeakRef(value);
  }

  /** What was put, unless the collector took it; held no more either way. */
  take(): T | undefined {
    const value = this.held?.deref();
    this.held = undefined;
    return value;
  }
}

/** Pieces of up to this many bytes merge by scanning their pairs; longer ones with queues by rank. */
const SCANNED_PIECE_BYTES = 96;
/**
 * Ranges of a piece cut at free positions: up to this many bytes merge by scanning, up to the
 * second number with one heap of pairs, longer ones (runs of one character) with queues by rank.
 */
const SCANNED_RANGE_BYTES = 24;
const HEAP_RANGE_BYTES = 1 << 14;

/** The bytes of a UTF-8 byte order mark. */
const BOM_FIRST = 0xef;
const BOM_SECOND = 0xbb;
const BOM_THIRD = 0xbf;

/** Whether `bytes[start, end)` is well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF). */
function isUtf8(bytes: ArrayLike<number>, start: number, end: number): boolean {
  let index = start;
  while (index < end) {
    const lead = bytes[index]!;
    const length = lead < 0x80 ? 1 : lead < 0xc2 ? 0 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : lead < 0xf5 ? 4 : 0;
    if (length === 0 || index + length > end) return false;
    let codePoint = length === 1 ? lead : lead & (0xff >> (length + 1));
    for (let offset = 1; offset < length; offset++) {
      const byte = bytes[index + offset]!;
      if ((byte & 0xc0) !== 0x80) return false;
      codePoint = (codePoint << 6) | (byte & 0x3f);
    }
    if ((length === 3 && codePoint < 0x800) || (length === 4 && codePoint < 0x10000)) return false;
    if ((codePoint >= 0xd800 && codePoint <= 0xdfff) || codePoint > 0x10ffff) return false;
    index += length;
  }
  return true;
}

/** The number of bytes of a UTF-8 character by its first byte (0 for a byte that starts none). */
function characterLength(lead: number): number {
  return lead < 0x80 ? 1 : lead < 0xc0 ? 0 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
}

/** The code point of the well-formed UTF-8 character of `length` bytes at `bytes[at]`. */
function codePointOf(bytes: Uint8Array, at: number, length: number): number {
  let code = bytes[at]! & (0xff >> (length + 1));
  for (let index = 1; index < length; index++) code = (code << 6) | (bytes[at + index]! & 0x3f);
  return code;
}

/** Whether `bytes[0, length)` is its first `width` bytes repeated. */
function isRun(bytes: Uint8Array, length: number, width: number): boolean {
  for (let index = width; index < length; index++) if (bytes[index] !== bytes[index - width]) return false;
  return true;
}

/** Flags {@link encodeUtf8} adds to the length it returns. */
const LONE_SURROGATE = 1;
const BYTE_ORDER_MARK = 2;

/**
 * Writes the UTF-8 bytes of `text.slice(start, end)` into `bytes` (which holds at least three per
 * UTF-16 unit) as `TextEncoder` encodes that string: a lone surrogate becomes U+FFFD. Returns the
 * number of bytes times four, plus {@link LONE_SURROGATE} when the range holds a lone surrogate and
 * {@link BYTE_ORDER_MARK} when it holds U+FEFF — one pass, no string made.
 */
function encodeUtf8(text: string, start: number, end: number, bytes: Uint8Array): number {
  let length = 0;
  let flags = 0;
  for (let index = start; index < end; index++) {
    let code = text.charCodeAt(index);
    if (code < 0x80) {
      bytes[length++] = code;
      continue;
    }
    if (code < 0x800) {
      bytes[length++] = 0xc0 | (code >> 6);
      bytes[length++] = 0x80 | (code & 0x3f);
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const low = index + 1 < end ? text.charCodeAt(index + 1) : 0;
      if (code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        index++;
        bytes[length++] = 0xf0 | (code >> 18);
        bytes[length++] = 0x80 | ((code >> 12) & 0x3f);
        bytes[length++] = 0x80 | ((code >> 6) & 0x3f);
        bytes[length++] = 0x80 | (code & 0x3f);
        continue;
      }
      flags |= LONE_SURROGATE;
      code = 0xfffd;
    } else if (code === 0xfeff) flags |= BYTE_ORDER_MARK;
    bytes[length++] = 0xe0 | (code >> 12);
    bytes[length++] = 0x80 | ((code >> 6) & 0x3f);
    bytes[length++] = 0x80 | (code & 0x3f);
  }
  return 4 * length + flags;
}

/** The bytes `bytes[start, end)` (up to eight) as two 32-bit words, big-endian, the second from the fifth byte on. */
function wordsOf(bytes: Uint8Array, start: number, end: number): [number, number] {
  let low = 0;
  let high = 0;
  const middle = Math.min(end, start + 4);
  for (let index = start; index < middle; index++) low = (low << 8) | bytes[index]!;
  for (let index = middle; index < end; index++) high = (high << 8) | bytes[index]!;
  return [low, high];
}

/** The FNV-1a hash of `bytes[start, end)`, mixed so that its low bits spread. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index++) hash = Math.imul(hash ^ bytes[index]!, 0x01000193);
  return hash ^ (hash >>> 15);
}

/** Bits of the filter of short tokens (2^22 bits, 512 kB). */
const FILTER_BITS = 22;

/** Tokens of up to this many bytes are kept in their slot itself, as two 32-bit words. */
const INLINE_BYTES = 8;

/** The slot hash of a short range: its bytes as two words, and its length. */
function hashWords(low: number, high: number, length: number): number {
  const hash = Math.imul(low ^ Math.imul(high + length, 0x85ebca6b), 0x9e3779b1);
  return hash ^ (hash >>> 16);
}

/**
 * The tokens by their bytes, in an open-addressed hash table of typed arrays: those stored as text
 * (by their UTF-8 bytes), and those stored as bytes that are not UTF-8 — the encoder looks UTF-8
 * bytes up among the text tokens only. A later token with the same bytes replaces an earlier one, as
 * a `Map` would. A rank is found from a range of a byte array without making a string: a `Map`
 * keyed by byte strings costs a slice and a string hash per lookup, which `npm run bench:hostile`
 * cannot afford on 1 MB pieces. A token of up to eight bytes (most of them) is held in its slot, so
 * a lookup reads one slot and nothing else: on long pieces of random text, lookups miss the
 * processor's caches, and each extra read is another miss.
 */
class TokenBytes implements TokenSpans {
  /** The longest token, in bytes: a longer range is no token, without a lookup. */
  readonly longest: number;
  /** The tokens' bytes, one after another. */
  readonly bytes: Uint8Array;
  /** Where each token is in {@link bytes} and how many bytes it has. */
  private readonly spans: Int32Array;
  private spanCount = 0;
  /**
   * Four entries per slot: a short token's first four bytes and next four (big-endian), or a long
   * token's hash and where its bytes are in {@link bytes}; the length; the rank + 1 (0: an empty slot).
   */
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** One bit per short token's hash: a clear bit means no token has those bytes. */
  private readonly filter = new Int32Array(2 ** (FILTER_BITS - 5));

  constructor(ranks: Ranks) {
    let capacity = 0;
    for (const token of ranks) capacity += typeof token === 'string' ? 3 * token.length : token.length;
    this.bytes = new Uint8Array(capacity);
    this.spans = new Int32Array(2 * ranks.length);
    let slotCount = 1024;
    while (slotCount < 2.5 * ranks.length) slotCount *= 2;
    this.slots = new Int32Array(4 * slotCount);
    this.mask = slotCount - 1;
    let used = 0;
    let longest = 0;
    ranks.forEach((token, rank) => {
      let length: number;
      if (typeof token === 'string') length = encodeUtf8(token, 0, token.length, this.bytes.subarray(used)) >> 2;
      else if (isUtf8(token, 0, token.length)) return;
      else {
        this.bytes.set(token, used);
        length = token.length;
      }
      this.insert(rank, used, length);
      used += length;
      longest = Math.max(longest, length);
    });
    this.longest = longest;
  }

  private insert(rank: number, offset: number, length: number): void {
    this.spans[this.spanCount++] = offset;
    this.spans[this.spanCount++] = length;
    const existing = this.find(this.bytes, offset, offset + length);
    const { slots } = this;
    if (existing >= 0) {
      slots[existing + 3] = rank + 1;
      return;
    }
    const slot = -1 - existing;
    if (length <= INLINE_BYTES) {
      const [low, high] = wordsOf(this.bytes, offset, offset + length);
      slots[slot] = low;
      slots[slot + 1] = high;
      const bit = hashWords(low, high, length) >>> (32 - FILTER_BITS);
      this.filter[bit >>> 5]! |= 1 << (bit & 31);
    } else {
      slots[slot] = hashBytes(this.bytes, offset, offset + length);
      slots[slot + 1] = offset;
    }
    slots[slot + 2] = length;
    slots[slot + 3] = rank + 1;
  }

  /**
   * Whether some token lies across a junction of the run `unit` repeated, where `unit` is
   * `run[0, width)`: whether its bytes are those of the run from some offset in the unit, and
   * reach past the unit's end.
   */
  spansRun(run: Uint8Array, width: number): boolean {
    const { bytes, spans } = this;
    for (let index = 0; index < this.spanCount; index += 2) {
      const offset = spans[index]!;
      const length = spans[index + 1]!;
      for (let shift = 0; shift < width; shift++) {
        if (shift + length <= width) continue;
        let matches = true;
        for (let at = 0; at < length && matches; at++) matches = bytes[offset + at] === run[(shift + at) % width];
        if (matches) return true;
      }
    }
    return false;
  }

  /** Calls `visit` with where each token's bytes are in {@link bytes} and how many. */
  forEach(visit: (offset: number, length: number) => void): void {
    for (let index = 0; index < this.spanCount; index += 2) visit(this.spans[index]!, this.spans[index + 1]!);
  }

  /**
   * Where the slot of the token `bytes[start, end)` begins in {@link slots}, or, when no token has
   * those bytes, -1 minus where the empty slot it would take begins.
   */
  private find(bytes: Uint8Array, start: number, end: number): number {
    const length = end - start;
    const { slots, mask } = this;
    if (length <= INLINE_BYTES) {
      let low = 0;
      let high = 0;
      const middle = Math.min(end, start + 4);
      for (let index = start; index < middle; index++) low = (low << 8) | bytes[index]!;
      for (let index = middle; index < end; index++) high = (high << 8) | bytes[index]!;
      for (let slot = hashWords(low, high, length) & mask; ; slot = (slot + 1) & mask) {
        const at = 4 * slot;
        if (slots[at + 3] === 0) return -1 - at;
        if (slots[at] === low && slots[at + 1] === high && slots[at + 2] === length) return at;
      }
    }
    const hash = hashBytes(bytes, start, end);
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const at = 4 * slot;
      if (slots[at + 3] === 0) return -1 - at;
      if (slots[at] === hash && slots[at + 2] === length && this.holds(slots[at + 1]!, bytes, start, length)) return at;
    }
  }

  /** Whether the token whose bytes begin at `offset` in {@link bytes} is `bytes[start, start + length)`. */
  private holds(offset: number, bytes: Uint8Array, start: number, length: number): boolean {
    for (let index = 0; index < length; index++) if (this.bytes[offset + index] !== bytes[start + index]) return false;
    return true;
  }

  /** The rank of the token whose bytes are `bytes[start, end)`, or -1. */
  rank(bytes: Uint8Array, start: number, end: number): number {
    const length = end - start;
    if (length <= INLINE_BYTES) {
      // Most short ranges a merge looks up are no token: the filter says so from a table small
      // enough to stay in the processor's cache, without reading the slots.
      let low = 0;
      let high = 0;
      const middle = Math.min(end, start + 4);
      for (let index = start; index < middle; index++) low = (low << 8) | bytes[index]!;
      for (let index = middle; index < end; index++) high = (high << 8) | bytes[index]!;
      const hash = hashWords(low, high, length);
      const bit = hash >>> (32 - FILTER_BITS);
      if ((this.filter[bit >>> 5]! & (1 << (bit & 31))) === 0) return -1;
      const { slots, mask } = this;
      for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
        const at = 4 * slot;
        if (slots[at + 3] === 0) return -1;
        if (slots[at] === low && slots[at + 1] === high && slots[at + 2] === length) return slots[at + 3]! - 1;
      }
    }
    if (length > this.longest) return -1;
    const at = this.find(bytes, start, end);
    return at < 0 ? -1 : this.slots[at + 3]! - 1;
  }

  /**
   * The rank of `bytes[start, end)` as gpt-tokenizer 4.0.0 looks a merged pair up: bytes that are
   * UTF-8 are decoded (a leading byte order mark dropped, as `TextDecoder` does) and found among the
   * tokens stored as text. So a token stored as bytes although they are UTF-8 (the ones that start
   * with a byte order mark) is never found, and "\uFEFFusing" ranks as "using" does: the encoder's
   * count, quirks included. Only pieces holding a byte order mark need this over {@link rank}.
   */
  decodedRank(bytes: Uint8Array, start: number, end: number): number {
    const startsWithMark =
      end - start >= 3 &&
      bytes[start] === BOM_FIRST &&
      bytes[start + 1] === BOM_SECOND &&
      bytes[start + 2] === BOM_THIRD;
    if (!startsWithMark || !isUtf8(bytes, start, end)) return this.rank(bytes, start, end);
    return end - start === 3 ? -1 : this.rank(bytes, start + 3, end);
  }
}

/** How a merge finds the rank of the bytes `bytes[start, end)`: -1 when they are no token. */
type RankOf = (bytes: Uint8Array, start: number, end: number) => number;

/** The arrays a scanning merge works in, kept between calls: each holds `length + 1` entries or more. */
interface ScanArrays {
  /** Where each part starts. */
  starts: Int32Array;
  /** The rank of each part and the next together, -1 for none. */
  ranks: Int32Array;
  /** The rank of each part's token (with a pair cache). */
  tokens: Int32Array;
}

/**
 * The number of tokens byte-pair merging leaves of a short piece, `bytes[offset, offset + length)`:
 * scan the pairs for the lowest rank (the leftmost on a tie), merge it, repeat — the encoder's own
 * loop, on typed arrays kept between calls. With `pairs`, a merged pair is looked up by its two
 * tokens first.
 */
function scannedLength(
  bytes: Uint8Array,
  offset: number,
  length: number,
  rankOf: RankOf,
  pairs: PairCache | undefined,
  { starts, ranks, tokens }: ScanArrays,
): number {
  for (let index = 0; index <= length; index++) starts[index] = offset + index;
  for (let index = 0; index < length - 1; index++) ranks[index] = rankOf(bytes, offset + index, offset + index + 2);
  if (pairs !== undefined)
    for (let index = 0; index < length; index++) tokens[index] = pairs.ofByte[bytes[offset + index]!]!;
  let parts = length;
  for (;;) {
    let best = -1;
    let bestRank = 0x7fffffff;
    for (let index = 0; index < parts - 1; index++) {
      const rank = ranks[index]!;
      if (rank >= 0 && rank < bestRank) {
        best = index;
        bestRank = rank;
      }
    }
    if (best < 0) return parts;
    // Part best + 1 joins part best: the parts and pairs after it move one place left.
    for (let index = best + 1; index < parts; index++) starts[index] = starts[index + 1]!;
    for (let index = best + 1; index < parts - 2; index++) ranks[index] = ranks[index + 1]!;
    parts--;
    if (pairs === undefined) {
      ranks[best] = best + 1 < parts ? rankOf(bytes, starts[best]!, starts[best + 2]!) : -1;
      if (best > 0) ranks[best - 1] = rankOf(bytes, starts[best - 1]!, starts[best + 1]!);
      continue;
    }
    for (let index = best + 1; index < parts; index++) tokens[index] = tokens[index + 1]!;
    tokens[best] = bestRank;
    ranks[best] =
      best + 1 < parts ? pairs.rank(bestRank, tokens[best + 1]!, bytes, starts[best]!, starts[best + 2]!) : -1;
    if (best > 0)
      ranks[best - 1] = pairs.rank(tokens[best - 1]!, bestRank, bytes, starts[best - 1]!, starts[best + 1]!);
  }
}

/** An `Int32Array` with room for `length` entries: `array` itself, or a copy twice as long. */
function withRoom(array: Int32Array, length: number): Int32Array {
  if (length <= array.length) return array;
  const grown = new Int32Array(Math.max(length, 2 * array.length));
  grown.set(array);
  return grown;
}

/**
 * The pairs waiting to merge, by rank, and a min-heap of the ranks that have any. A piece's first
 * pairs are sorted by rank and start once (a counting sort), so each rank's first pairs lie side by
 * side; a pair a merge makes joins its rank's queue (a linked list in one typed array) in O(1).
 * Taking a rank yields its pairs in order of start (merges go left to right, so a queue is mostly in
 * order already; it is sorted when it is not). This replaces one heap of all pairs, whose every pop
 * walks its whole height. The tables by rank are kept between pieces, each left empty.
 */
class RankQueues {
  /** Each rank's first pairs: where they begin and end in `seeds`. */
  private readonly seedBegins: Int32Array;
  private readonly seedEnds: Int32Array;
  private seeds: Int32Array = new Int32Array(1024);
  /** Each rank's queue of pairs merges made: its first and last node, or -1. */
  private readonly heads: Int32Array;
  private readonly tails: Int32Array;
  /** The start last queued for each rank, and whether a queue is out of order. */
  private readonly lastStarts: Int32Array;
  private readonly unsorted: Uint8Array;
  /** Nodes as (start, next node) pairs. */
  private nodes: Int32Array = new Int32Array(2048);
  private nodeCount = 0;
  private active: Int32Array = new Int32Array(1024);
  private activeCount = 0;
  /** The starts of the rank {@link take} returned, in order; `batchLength` of them. */
  batch: Int32Array = new Int32Array(1024);
  batchLength = 0;
  private readonly spare = new Spare<{ nodes: Int32Array; seeds: Int32Array; batch: Int32Array }>();

  constructor(rankCount: number) {
    this.seedBegins = new Int32Array(rankCount + 1);
    this.seedEnds = new Int32Array(rankCount);
    this.heads = new Int32Array(rankCount).fill(-1);
    this.tails = new Int32Array(rankCount);
    this.lastStarts = new Int32Array(rankCount);
    this.unsorted = new Uint8Array(rankCount);
  }

  /** The lowest rank with a pair waiting, or `Infinity`. */
  get lowest(): number {
    return this.activeCount === 0 ? Number.POSITIVE_INFINITY : this.active[0]!;
  }

  /** Queues a piece's first pairs: `pairRanks[start]` for each start, -1 for no pair. */
  seed(pairRanks: Int32Array): void {
    const { seedBegins, seedEnds } = this;
    let count = 0;
    for (const rank of pairRanks) {
      if (rank < 0) continue;
      if (seedEnds[rank] === 0) this.activate(rank);
      seedEnds[rank]!++;
      count++;
    }
    this.seeds = withRoom(this.seeds, count);
    // Each rank's place: the counts of the active ranks before it, in order of rank.
    const ranks = this.active.slice(0, this.activeCount).sort();
    let offset = 0;
    for (const rank of ranks) {
      seedBegins[rank] = offset;
      offset += seedEnds[rank]!;
      seedEnds[rank] = seedBegins[rank]!;
    }
    for (let start = 0; start < pairRanks.length; start++) {
      const rank = pairRanks[start]!;
      if (rank >= 0) this.seeds[seedEnds[rank]!++] = start;
    }
  }

  /** Queues the pair at `start`, of `rank`, which a merge made. */
  push(rank: number, start: number): void {
    if (2 * this.nodeCount === this.nodes.length) this.nodes = withRoom(this.nodes, 2 * this.nodeCount + 2);
    const node = this.nodeCount++;
    this.nodes[2 * node] = start;
    this.nodes[2 * node + 1] = -1;
    if (this.heads[rank] === -1) {
      this.heads[rank] = node;
      this.unsorted[rank] = 0;
      if (this.seedEnds[rank] === 0) this.activate(rank);
    } else {
      this.nodes[2 * this.tails[rank]! + 1] = node;
      if (start < this.lastStarts[rank]!) this.unsorted[rank] = 1;
    }
    this.tails[rank] = node;
    this.lastStarts[rank] = start;
  }

  /** Empties the lowest rank's pairs into {@link batch}, in order of start, and returns the rank. */
  take(): number {
    const rank = this.active[0]!;
    this.deactivateLowest();
    const begin = this.seedBegins[rank]!;
    const end = this.seedEnds[rank]!;
    this.seedEnds[rank] = 0;
    const seeded = end > begin ? end - begin : 0;
    let length = seeded;
    this.batch = withRoom(this.batch, seeded);
    if (seeded > 0) this.batch.set(this.seeds.subarray(begin, end));
    const { nodes } = this;
    for (let node = this.heads[rank]!; node !== -1; node = nodes[2 * node + 1]!) {
      if (length === this.batch.length) this.batch = withRoom(this.batch, length + 1);
      this.batch[length++] = nodes[2 * node]!;
    }
    const queued = this.heads[rank] !== -1;
    this.heads[rank] = -1;
    if (queued && (this.unsorted[rank] === 1 || (seeded > 0 && this.batch[seeded - 1]! > this.batch[seeded]!))) {
      this.batch.subarray(0, length).sort();
    }
    this.batchLength = length;
    return rank;
  }

  /** Forgets the nodes of the queues taken so far; call when no queue holds any. */
  clear(): void {
    this.nodeCount = 0;
  }

  /** Lets go of arrays a long piece grew past {@link KEPT_ENTRIES}, holding them weakly. */
  release(): void {
    const { nodes, seeds, batch } = this;
    if (nodes.length <= KEPT_ENTRIES && seeds.length <= KEPT_ENTRIES && batch.length <= KEPT_ENTRIES) return;
    this.spare.put({ nodes, seeds, batch });
    if (nodes.length > KEPT_ENTRIES) this.nodes = new Int32Array(2048);
    if (seeds.length > KEPT_ENTRIES) this.seeds = new Int32Array(1024);
    if (batch.length > KEPT_ENTRIES) this.batch = new Int32Array(1024);
  }

  /** Takes back the arrays {@link release} let go, if the collector left them. */
  reclaim(): void {
    const spare = this.spare.take();
    if (spare === undefined) return;
    if (spare.nodes.length > this.nodes.length) this.nodes = spare.nodes;
    if (spare.seeds.length > this.seeds.length) this.seeds = spare.seeds;
    if (spare.batch.length > this.batch.length) this.batch = spare.batch;
  }

  private activate(rank: number): void {
    if (this.activeCount === this.active.length) this.active = withRoom(this.active, this.activeCount + 1);
    const { active } = this;
    let index = this.activeCount++;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (active[parent]! <= rank) break;
      active[index] = active[parent]!;
      index = parent;
    }
    active[index] = rank;
  }

  private deactivateLowest(): void {
    const { active } = this;
    const size = --this.activeCount;
    const rank = active[size]!;
    let index = 0;
    for (;;) {
      let child = 2 * index + 1;
      if (child >= size) break;
      if (child + 1 < size && active[child + 1]! < active[child]!) child++;
      if (active[child]! >= rank) break;
      active[index] = active[child]!;
      index = child;
    }
    active[index] = rank;
  }
}

/** A pair's key in a {@link PairHeap}: its rank times this, plus its start (exact in a double). */
const RANK_SCALE = 2 ** 32;

/**
 * A min-heap of adjacent pairs ordered by rank, then by start offset: each pair one number (rank
 * times 2^32 plus start), so a step of the heap compares numbers once; in a typed array that grows
 * as needed.
 */
class PairHeap {
  private keys: Float64Array = new Float64Array(256);
  size = 0;

  /** The rank of the pair on top; read it before `pop`. */
  get topRank(): number {
    return Math.floor(this.keys[0]! / RANK_SCALE);
  }

  /** The start offset of the pair on top. */
  get topStart(): number {
    return this.keys[0]! % RANK_SCALE;
  }

  push(rank: number, start: number): void {
    if (this.size === this.keys.length) {
      const grown = new Float64Array(2 * this.keys.length);
      grown.set(this.keys);
      this.keys = grown;
    }
    const { keys } = this;
    const key = rank * RANK_SCALE + start;
    let index = this.size++;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const parentKey = keys[parent]!;
      if (parentKey < key) break;
      keys[index] = parentKey;
      index = parent;
    }
    keys[index] = key;
  }

  pop(): void {
    const { keys } = this;
    const size = --this.size;
    const key = keys[size]!;
    let index = 0;
    for (;;) {
      let child = 2 * index + 1;
      if (child >= size) break;
      if (child + 1 < size && keys[child + 1]! < keys[child]!) child++;
      const childKey = keys[child]!;
      if (childKey > key) break;
      keys[index] = childKey;
      index = child;
    }
    keys[index] = key;
  }
}

/**
 * The ranks of pairs of tokens met lately, by the pair's two ranks, in a direct-mapped table of
 * typed arrays (a pair overwrites the one in its slot): a long piece meets the same few pairs over
 * and over (a run of one character, or of a few), which then cost no hashing of their bytes.
 */
class PairCache {
  /** Three entries per slot: the first token, the second (-1 in an empty slot), the pair's rank. */
  private readonly slots = new Int32Array(3 * PAIR_CACHE_SLOTS).fill(-1);
  /** The rank of each byte's token. */
  readonly ofByte: Int32Array;
  /** The rank of each pair of bytes, -1 for none: where every merge starts. */
  readonly ofBytePair = new Int32Array(65_536);

  constructor(private readonly tokens: TokenBytes) {
    const two = new Uint8Array(2);
    for (let pair = 0; pair < 65_536; pair++) {
      two[0] = pair >> 8;
      two[1] = pair & 0xff;
      this.ofBytePair[pair] = tokens.rank(two, 0, 2);
    }
    const one = new Uint8Array(1);
    this.ofByte = Int32Array.from({ length: 256 }, (_, byte) => {
      one[0] = byte;
      return tokens.rank(one, 0, 1);
    });
    if (this.ofByte.includes(-1)) throw new Error('The rank table does not hold every byte as a token');
  }

  /** The rank of the pair of tokens `first` and `second`, whose bytes are `bytes[start, end)`. */
  rank(first: number, second: number, bytes: Uint8Array, start: number, end: number): number {
    const at = 3 * ((Math.imul(first, 0x9e3779b1) ^ Math.imul(second, 0x85ebca6b)) >>> (32 - PAIR_CACHE_BITS));
    const { slots } = this;
    if (slots[at] === first && slots[at + 1] === second) return slots[at + 2]!;
    const rank = this.tokens.rank(bytes, start, end);
    slots[at] = first;
    slots[at + 1] = second;
    slots[at + 2] = rank;
    return rank;
  }
}

/** Slots of the pair cache (a power of two). */
const PAIR_CACHE_BITS = 16;
const PAIR_CACHE_SLOTS = 2 ** PAIR_CACHE_BITS;

/** The arrays a heap merge works in, kept between calls and grown as needed. */
class HeapArrays {
  next = new Int32Array(256);
  previous = new Int32Array(256);
  pairRanks = new Int32Array(256);
  tokens = new Int32Array(256);
  readonly heap = new PairHeap();

  /** Makes room for a range of `length` bytes. */
  reserve(length: number): void {
    if (this.next.length > length) return;
    const size = Math.max(length + 1, 2 * this.next.length);
    this.next = new Int32Array(size);
    this.previous = new Int32Array(size);
    this.pairRanks = new Int32Array(size);
    this.tokens = new Int32Array(size);
  }
}

/**
 * The number of tokens byte-pair merging leaves of a range of middling length, `bytes[offset,
 * offset + length)` (tens to thousands of bytes): parts in a linked list, pairs in one heap by rank
 * then start, so a merge costs a heap step and not a scan of every pair. A pair whose rank is no
 * longer the one recorded for its start is stale (its parts merged since) and skipped: two pairs
 * at one start with one rank would be the same bytes, so a recorded rank names its pair. The order
 * of merges is the encoder's: the lowest rank, the leftmost on a tie.
 */
function heapLength(bytes: Uint8Array, offset: number, length: number, pairs: PairCache, arrays: HeapArrays): number {
  arrays.reserve(length);
  const { next, previous, pairRanks, tokens, heap } = arrays;
  for (let index = 0; index < length; index++) {
    next[index] = index + 1;
    previous[index] = index - 1;
    tokens[index] = pairs.ofByte[bytes[offset + index]!]!;
  }
  const { ofBytePair } = pairs;
  for (let index = 0; index < length - 1; index++) {
    const rank = ofBytePair[(bytes[offset + index]! << 8) | bytes[offset + index + 1]!]!;
    pairRanks[index] = rank;
    if (rank >= 0) heap.push(rank, index);
  }
  pairRanks[length - 1] = -1;
  let parts = length;
  while (heap.size > 0) {
    const rank = heap.topRank;
    const start = heap.topStart;
    heap.pop();
    if (pairRanks[start] !== rank) continue;
    const second = next[start]!;
    const after = next[second]!;
    next[start] = after;
    if (after < length) previous[after] = start;
    pairRanks[second] = -1;
    tokens[start] = rank;
    parts--;
    const before = previous[start]!;
    if (before >= 0) {
      const beforeRank = pairs.rank(tokens[before]!, rank, bytes, offset + before, offset + after);
      pairRanks[before] = beforeRank;
      if (beforeRank >= 0) heap.push(beforeRank, before);
    }
    const afterRank =
      after < length ? pairs.rank(rank, tokens[after]!, bytes, offset + start, offset + next[after]!) : -1;
    pairRanks[start] = afterRank;
    if (afterRank >= 0) heap.push(afterRank, start);
  }
  return parts;
}

/**
 * The number of tokens byte-pair merging leaves of a long piece, `bytes[0, length)`. Parts are a
 * linked list of start offsets; the pairs wait in `queues` by rank, and the lowest rank's pairs
 * merge leftmost first. A pair whose rank is no longer the one recorded for its start is stale (its
 * parts merged since) and skipped. When a merge makes a pair of a rank as low or lower, the rest of
 * the rank waits again, so the order is exactly the encoder's: lowest rank, then leftmost. Typed
 * arrays and hand-kept queues: `npm run bench:hostile` (1 MB texts in one piece) misses its goal
 * by far with arrays and objects.
 */
function mergedLength(
  bytes: Uint8Array,
  length: number,
  rankOf: RankOf,
  pairs: PairCache | undefined,
  queues: RankQueues,
  early: PairHeap,
  arrays: LongPieceArrays,
): number {
  arrays.reserve(length);
  // The rank of each part's token, for looking a pair up by its two tokens.
  const { tokens, next, previous } = arrays;
  const pairRanks = arrays.pairRanks.subarray(0, length);
  if (pairs !== undefined) for (let index = 0; index < length; index++) tokens[index] = pairs.ofByte[bytes[index]!]!;
  const rankOfPair = (start: number, middle: number, end: number): number =>
    pairs === undefined ? rankOf(bytes, start, end) : pairs.rank(tokens[start]!, tokens[middle]!, bytes, start, end);
  for (let index = 0; index < length; index++) {
    next[index] = index + 1;
    previous[index] = index - 1;
  }
  next[length] = length;
  pairRanks[length - 1] = -1;
  for (let index = 0; index < length - 1; index++) pairRanks[index] = rankOf(bytes, index, index + 2);
  queues.seed(pairRanks);
  let parts = length;
  // Pairs of the rank being merged or lower, which merges make now and then (a longer token can
  // rank below the ones it is made of): they wait in a heap and go before the rest of the rank.
  let floor = -1;
  const merge = (start: number, rank: number): void => {
    const second = next[start]!;
    const after = next[second]!;
    next[start] = after;
    if (after < length) previous[after] = start;
    pairRanks[second] = -1;
    tokens[start] = rank;
    parts--;
    // The part before and the merged part, then the merged part and the part after it.
    const before = previous[start]!;
    if (before >= 0) {
      const beforeRank = rankOfPair(before, start, after);
      pairRanks[before] = beforeRank;
      if (beforeRank > floor) queues.push(beforeRank, before);
      else if (beforeRank >= 0) early.push(beforeRank, before);
    }
    const afterRank = after < length ? rankOfPair(start, after, next[after]!) : -1;
    pairRanks[start] = afterRank;
    if (afterRank > floor) queues.push(afterRank, start);
    else if (afterRank >= 0) early.push(afterRank, start);
  };
  /** Merges the early pairs that come before `rank` at `start`. */
  const mergeEarly = (rank: number, start: number): void => {
    while (early.size > 0 && (early.topRank < rank || (early.topRank === rank && early.topStart < start))) {
      const earlyRank = early.topRank;
      const earlyStart = early.topStart;
      early.pop();
      if (pairRanks[earlyStart] === earlyRank) merge(earlyStart, earlyRank);
    }
  };
  while (queues.lowest !== Number.POSITIVE_INFINITY) {
    floor = queues.take();
    const { batch, batchLength } = queues;
    for (let at = 0; at < batchLength; at++) {
      const start = batch[at]!;
      mergeEarly(floor, start);
      if (pairRanks[start] === floor) merge(start, floor);
    }
    mergeEarly(Number.POSITIVE_INFINITY, 0);
  }
  queues.clear();
  return parts;
}

/** The arrays a long piece's merge works in, kept between pieces (see {@link KEPT_ENTRIES}). */
class LongPieceArrays {
  /** The rank of each part's token. */
  tokens = new Int32Array(0);
  /** Each part's next part (one entry more), and its previous part. */
  next = new Int32Array(0);
  previous = new Int32Array(0);
  /** The rank of each part and the next together, -1 for none. */
  pairRanks = new Int32Array(0);

  /** Makes room for a piece of `length` bytes. */
  reserve(length: number): void {
    if (this.tokens.length >= length) return;
    this.tokens = new Int32Array(length);
    this.next = new Int32Array(length + 1);
    this.previous = new Int32Array(length);
    this.pairRanks = new Int32Array(length);
  }

  private readonly spare = new Spare<Pick<LongPieceArrays, 'tokens' | 'next' | 'previous' | 'pairRanks'>>();

  /** Lets go of arrays past {@link KEPT_ENTRIES}, holding them weakly. */
  release(): void {
    if (this.tokens.length <= KEPT_ENTRIES) return;
    const { tokens, next, previous, pairRanks } = this;
    this.spare.put({ tokens, next, previous, pairRanks });
    this.tokens = new Int32Array(0);
    this.next = new Int32Array(0);
    this.previous = new Int32Array(0);
    this.pairRanks = new Int32Array(0);
  }

  /** Takes back the arrays {@link release} let go, if the collector left them. */
  reclaim(): void {
    const spare = this.spare.take();
    if (spare === undefined || spare.tokens.length <= this.tokens.length) return;
    ({ tokens: this.tokens, next: this.next, previous: this.previous, pairRanks: this.pairRanks } = spare);
  }
}

/** The longest range whose count {@link RangeCounts} keeps, in bytes. */
const SMALL_RANGE_BYTES = 8;
/** Slots of the range counts (a power of two). */
const RANGE_COUNT_BITS = 18;

/**
 * The counts of short byte ranges (up to {@link SMALL_RANGE_BYTES}) met lately, in a direct-mapped
 * table keyed by the bytes themselves (a range overwrites the one in its slot): the ranges a long
 * piece falls into at its free positions (a character of Chinese, a few of Cyrillic) repeat often,
 * and a lookup here costs no string and no merge.
 */
class RangeCounts {
  /** Four entries per slot: the first four bytes, the next four, the length (0: empty), the count. */
  private readonly slots = new Int32Array(4 * 2 ** RANGE_COUNT_BITS);

  /** The count of `bytes[start, end)` (2 to 8 bytes), from the table or from `count`, which is then kept. */
  countOf(bytes: Uint8Array, start: number, end: number, count: (start: number, end: number) => number): number {
    let low = 0;
    let high = 0;
    const middle = Math.min(end, start + 4);
    for (let index = start; index < middle; index++) low = (low << 8) | bytes[index]!;
    for (let index = middle; index < end; index++) high = (high << 8) | bytes[index]!;
    const length = end - start;
    const slot = 4 * ((Math.imul(low, 0x9e3779b1) ^ Math.imul(high + length, 0x85ebca6b)) >>> (32 - RANGE_COUNT_BITS));
    const { slots } = this;
    if (slots[slot] === low && slots[slot + 1] === high && slots[slot + 2] === length) return slots[slot + 3]!;
    const counted = count(start, end);
    slots[slot] = low;
    slots[slot + 1] = high;
    slots[slot + 2] = length;
    slots[slot + 3] = counted;
    return counted;
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
  const tokens = new TokenBytes(ranks);
  const pairs = new PairCache(tokens);
  const pairOfBytes = pairs.ofBytePair;
  const rankOf: RankOf = (bytes, start, end) =>
    end - start === 2 ? pairOfBytes[(bytes[start]! << 8) | bytes[start + 1]!]! : tokens.rank(bytes, start, end);
  const decodedRankOf: RankOf = (bytes, start, end) => tokens.decodedRank(bytes, start, end);
  // Kept between pieces: the piece's bytes and the scanning merge's parts and pairs.
  let bytes = new Uint8Array(1024);
  const scan: ScanArrays = {
    starts: new Int32Array(SCANNED_PIECE_BYTES + 1),
    ranks: new Int32Array(SCANNED_PIECE_BYTES + 1),
    tokens: new Int32Array(SCANNED_PIECE_BYTES + 1),
  };
  let queues: RankQueues | undefined;
  const early = new PairHeap();
  const longArrays = new LongPieceArrays();
  const spareBytes = new Spare<typeof bytes>();
  /** Takes back the arrays past {@link KEPT_ENTRIES} let go after the last text, if `text` may need them. */
  const reclaimFor = (text: string): void => {
    if (3 * text.length <= KEPT_ENTRIES) return;
    const spare = spareBytes.take();
    if (spare !== undefined && spare.length > bytes.length) bytes = spare;
    queues?.reclaim();
    longArrays.reclaim();
  };
  /** Lets go of the arrays past {@link KEPT_ENTRIES}, holding them weakly. */
  const release = (): void => {
    if (bytes.length > KEPT_ENTRIES) {
      spareBytes.put(bytes);
      bytes = new Uint8Array(1024);
    }
    queues?.release();
    longArrays.release();
  };
  // Counts of pieces that are not one token, as merging found them. The cache pays where pieces
  // repeat (prose, code) and costs more than it saves where they do not (base64, random bytes):
  // when fewer than a quarter of a round of lookups hit, pieces skip it for a while.
  const cache = new Map<string, number>();
  let lookups = 0;
  let hits = 0;
  let skipped = 0;
  /** The count of the piece `text.slice(start, end)`. */
  const countPiece = (text: string, start: number, end: number): number => {
    const units = end - start;
    if (bytes.length < 3 * units) bytes = new Uint8Array(3 * units);
    const encoded = encodeUtf8(text, start, end, bytes);
    const length = encoded >> 2;
    // The encoder looks a piece up whole by its text; with a lone surrogate it is not a token's
    // text, whatever its U+FFFD bytes are.
    if ((encoded & LONE_SURROGATE) === 0 && tokens.rank(bytes, 0, length) >= 0) return 1;
    // A byte order mark makes two byte sequences share a rank: look pairs up as the encoder decodes them.
    if ((encoded & BYTE_ORDER_MARK) !== 0) {
      if (length <= SCANNED_PIECE_BYTES) return scannedLength(bytes, 0, length, decodedRankOf, undefined, scan);
      queues ??= new RankQueues(ranks.length);
      return mergedLength(bytes, length, decodedRankOf, undefined, queues, early, longArrays);
    }
    if (length <= SMALL_RANGE_BYTES) return countRange(0, length);
    if (units > CACHED_PIECE_LENGTH || skipped > 0) {
      if (skipped > 0) skipped--;
      return countLongPiece(length);
    }
    const piece = text.slice(start, end);
    const cached = cache.get(piece);
    if (++lookups === CACHE_ROUND) {
      if (hits < CACHE_ROUND / 4) skipped = 8 * CACHE_ROUND;
      lookups = 0;
      hits = 0;
    }
    if (cached !== undefined) {
      hits++;
      return cached;
    }
    const count = countLongPiece(length);
    if (cache.size >= CACHE_SIZE) cache.clear();
    cache.set(piece, count);
    return count;
  };
  // Long pieces (without a byte order mark) are cut where no token spans, and each range counted.
  let boundaries: MergeBoundaries | undefined;
  const rangeCounts = new RangeCounts();
  const heapArrays = new HeapArrays();
  const mergeRange = (start: number, end: number): number => {
    const length = end - start;
    if (length <= SCANNED_RANGE_BYTES) return scannedLength(bytes, start, length, rankOf, pairs, scan);
    if (length <= HEAP_RANGE_BYTES) return heapLength(bytes, start, length, pairs, heapArrays);
    queues ??= new RankQueues(ranks.length);
    return mergedLength(bytes.subarray(start, end), length, rankOf, pairs, queues, early, longArrays);
  };
  // The count of each character alone, by its code point (0: not counted yet): text that falls
  // apart into single characters (random Chinese, kana, UTF-16 units) looks each up here, in a table
  // small enough for the processor's caches where the text keeps to a script.
  const characterCounts = new Uint8Array(0x11_0000);
  const countRange = (start: number, end: number): number => {
    const length = end - start;
    if (length === 1) return 1;
    if (length <= 4 && characterLength(bytes[start]!) === length) {
      const code = codePointOf(bytes, start, length);
      const known = characterCounts[code]!;
      if (known !== 0) return known;
      const counted = mergeRange(start, end);
      characterCounts[code] = counted;
      return counted;
    }
    return length <= SMALL_RANGE_BYTES ? rangeCounts.countOf(bytes, start, end, mergeRange) : mergeRange(start, end);
  };
  // Whether a run of one character, by its code point, has every junction free: no token lies
  // across two copies of it (asked once per character, of every token).
  const freeRuns = new Map<number, boolean>();
  const isFreeRun = (code: number, width: number): boolean => {
    let free = freeRuns.get(code);
    if (free === undefined) {
      free = !tokens.spansRun(bytes, width);
      freeRuns.set(code, free);
    }
    return free;
  };
  const countLongPiece = (length: number): number => {
    // A run of one character that no token spans two copies of (one Arabic letter, repeated)
    // counts as its copies, each alone.
    const width = characterLength(bytes[0]!);
    if (width > 1 && length % width === 0 && isRun(bytes, length, width)) {
      if (isFreeRun(codePointOf(bytes, 0, width), width)) return (length / width) * countRange(0, width);
    }
    boundaries ??= new MergeBoundaries(tokens);
    let total = 0;
    let start = 0;
    for (let at = 1; at < length; at++) {
      // Only between characters: inside one, a position is seldom free.
      if ((bytes[at]! & 0xc0) === 0x80 || !boundaries.free(bytes, at, length)) continue;
      total += countRange(start, at);
      start = at;
    }
    return total + countRange(start, length);
  };
  // The pieces are found with the split pattern made sticky: each match starts where the last one
  // ended, and `test` makes no string of it. Where the pattern matches nothing (no such place
  // in the encodings' patterns), the text up to the next match is skipped, as `matchAll` skips it.
  // o200k_base's pattern is also followed by hand (./o200k-splitter.ts), which gives the same
  // pieces: the engine is quicker where a piece starts with two ASCII characters, the hand
  // elsewhere (the pattern's Unicode classes cost the engine far more than a table does).
  const flags = splitPattern.flags.replace(/[gy]/g, '');
  const sticky = new RegExp(splitPattern.source, `${flags}y`);
  const global = new RegExp(splitPattern.source, `${flags}g`);
  const splitter =
    splitPattern.source === O200K_SPLIT_SOURCE && splitPattern.flags.includes('u') && !splitPattern.flags.includes('i')
      ? new O200kSplitter()
      : undefined;
  return (text) => {
    reclaimFor(text);
    let total = 0;
    let start = 0;
    while (start < text.length) {
      if (splitter !== undefined && (text.charCodeAt(start) >= 0x80 || text.charCodeAt(start + 1) >= 0x80)) {
        const end = splitter.end(text, start);
        total += countPiece(text, start, end);
        start = end;
        continue;
      }
      sticky.lastIndex = start;
      if (sticky.test(text)) {
        const end = sticky.lastIndex;
        // An empty match counts nothing; the next search starts a character further.
        if (end > start) total += countPiece(text, start, end);
        start = end > start ? end : start + (text.codePointAt(start)! > 0xffff ? 2 : 1);
        continue;
      }
      global.lastIndex = start;
      const next = global.exec(text);
      if (next === null) break;
      start = next.index;
    }
    release();
    return total;
  };
}
