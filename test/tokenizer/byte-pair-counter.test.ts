// The byte-pair counter against the byte-pair algorithm written plainly (merge the lowest-ranked
// adjacent pair, the leftmost on a tie, until no pair is a token), on made-up rank tables. The real
// encodings rarely rank a token below the tokens it is made of, or queue one rank's pairs out of
// order; made-up tables do both often, so the counter's paths for them are checked here.
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { createBytePairCounter, type Ranks } from '../../src/tokenizer/byte-pair-counter.js';

/** The byte tokens every table starts with: ASCII as text, the other bytes as bytes. */
const BYTES: Ranks = Array.from({ length: 256 }, (_, byte) => (byte < 0x80 ? String.fromCharCode(byte) : [byte]));

/** The whole text is one piece. */
const ONE_PIECE = /[\s\S]+/gu;

/** The number of tokens plain byte-pair merging leaves of an ASCII text. */
function referenceCount(ranks: Ranks, text: string): number {
  const rankOf = new Map<string, number>();
  ranks.forEach((token, rank) => {
    if (typeof token === 'string') rankOf.set(token, rank);
  });
  if (rankOf.has(text)) return 1;
  const parts = [...text];
  for (;;) {
    let best = -1;
    let bestRank = Number.POSITIVE_INFINITY;
    for (let index = 0; index < parts.length - 1; index++) {
      const rank = rankOf.get(parts[index]! + parts[index + 1]!);
      if (rank !== undefined && rank < bestRank) {
        best = index;
        bestRank = rank;
      }
    }
    if (best < 0) return parts.length;
    parts.splice(best, 2, parts[best]! + parts[best + 1]!);
  }
}

/** The number of tokens plain byte-pair merging leaves of the piece `bytes` (1 if it is a token), tokens looked up by their bytes. */
function referenceByteCount(ranks: Ranks, bytes: Uint8Array): number {
  const rankOf = new Map<string, number>();
  ranks.forEach((token, rank) => {
    const key =
      typeof token === 'string' ? Buffer.from(token, 'utf8').toString('latin1') : String.fromCharCode(...token);
    rankOf.set(key, rank);
  });
  // The encoder looks the whole piece up first.
  if (rankOf.has(Buffer.from(bytes).toString('latin1'))) return 1;
  const parts = [...Buffer.from(bytes).toString('latin1')];
  for (;;) {
    let best = -1;
    let bestRank = Number.POSITIVE_INFINITY;
    for (let index = 0; index < parts.length - 1; index++) {
      const rank = rankOf.get(parts[index]! + parts[index + 1]!);
      if (rank !== undefined && rank < bestRank) {
        best = index;
        bestRank = rank;
      }
    }
    if (best < 0) return parts.length;
    parts.splice(best, 2, parts[best]! + parts[best + 1]!);
  }
}

/** A table: the bytes, then tokens over a small alphabet in a random order of rank. */
const tables = fc
  .uniqueArray(fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 2, maxLength: 6 }), {
    minLength: 1,
    maxLength: 40,
  })
  .map((tokens): Ranks => [...BYTES, ...tokens]);

/** Texts for the scanning path (up to 96 bytes) and for the long-piece path. */
const texts = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 1, maxLength: 96 }),
  fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 97, maxLength: 600, size: 'max' }),
);

describe('the byte-pair counter merges as plain byte-pair merging does', () => {
  test.prop([tables, fc.array(texts, { minLength: 1, maxLength: 5 })], { numRuns: 300 })(
    'on made-up tables, short pieces and long',
    (ranks, pieces) => {
      const count = createBytePairCounter(ranks, ONE_PIECE);
      for (const piece of pieces) expect(count(piece)).toBe(referenceCount(ranks, piece));
    },
  );

  it('when a token ranks below the tokens it is made of', () => {
    // "abab" ranks below "ab": each merge of "ab" makes a pair that goes before the next "ab".
    const ranks: Ranks = [...BYTES, 'abab', 'ab', 'ba', 'bab', 'abababab'];
    const count = createBytePairCounter(ranks, ONE_PIECE);
    for (const text of ['ab'.repeat(300), `b${'ab'.repeat(300)}`, `${'ab'.repeat(150)}a${'ab'.repeat(150)}`]) {
      expect(count(text)).toBe(referenceCount(ranks, text));
    }
  });

  // Runs of one character of several bytes, on tables whose tokens are cut from runs of it at any
  // byte: a token across two copies makes every junction of the run spanned, none makes them free
  // (then the run counts as its copies).
  const runTables = fc
    .tuple(
      fc.constantFrom('é', 'ж', '中', '😀'),
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 2, max: 9 })), { maxLength: 6 }),
    )
    .map(([character, cuts]) => {
      const run = Buffer.from(character.repeat(4), 'utf8');
      const tokens = cuts.map(([from, length]) => {
        const start = from % run.length;
        return [...run.subarray(start, Math.min(run.length, start + length))];
      });
      // As gpt-tokenizer ships a table: a token as its text when its bytes are UTF-8, else as bytes.
      const unique = [...new Map(tokens.map((token) => [token.join(','), token])).values()].map((token) => {
        try {
          return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(token));
        } catch {
          return token;
        }
      });
      return { character, ranks: [...BYTES, ...unique] as Ranks };
    });

  // Up to 100 copies: past the scanned length (96 bytes) for every character, into the long-piece
  // path, while the plain reference (quadratic in the run's bytes) stays cheap.
  test.prop([runTables, fc.integer({ min: 1, max: 100 })], { numRuns: 300 })(
    'on runs of one character of several bytes',
    ({ character, ranks }, copies) => {
      const count = createBytePairCounter(ranks, ONE_PIECE);
      const text = character.repeat(copies);
      expect(count(text)).toBe(referenceByteCount(ranks, Buffer.from(text, 'utf8')));
    },
  );

  it('refuses a table without every byte', () => {
    expect(() => createBytePairCounter(BYTES.slice(1), ONE_PIECE)).toThrow(/every byte/);
  });
});
