// The positions the counter cuts long pieces at must be ones no token spans: checked against every
// token of both encodings on every family of hostile text, and on made-up token sets where most
// positions are free, by looking for a token at every range around each position.
import { createRequire } from 'node:module';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { MergeBoundaries, type TokenSpans } from '../../src/tokenizer/merge-boundaries.js';
import { ADVERSARIAL_FAMILIES } from '../fixtures/adversarial-texts.js';
import { MORE_HOSTILE_FAMILIES } from './more-hostile-texts.js';

/** The token spans of a list of byte strings. */
function spansOf(tokens: readonly Uint8Array[]): TokenSpans {
  const offsets: number[] = [];
  let used = 0;
  for (const token of tokens) {
    offsets.push(used);
    used += token.length;
  }
  const bytes = new Uint8Array(used);
  tokens.forEach((token, index) => {
    bytes.set(token, offsets[index]);
  });
  const forEach = (visit: (offset: number, length: number) => void) => {
    tokens.forEach((token, index) => {
      visit(offsets[index]!, token.length);
    });
  };
  return { bytes, forEach };
}

/** The positions of `bytes` (1 to length - 1) that some token spans, found by looking every range up. */
function spannedPositions(tokens: ReadonlySet<string>, longest: number, bytes: Uint8Array): boolean[] {
  const text = Buffer.from(bytes).toString('latin1');
  const spanned = new Array<boolean>(bytes.length + 1).fill(false);
  for (let start = 0; start < bytes.length; start++) {
    for (let end = start + 2; end <= Math.min(bytes.length, start + longest); end++) {
      if (!tokens.has(text.slice(start, end))) continue;
      for (let at = start + 1; at < end; at++) spanned[at] = true;
    }
  }
  return spanned;
}

/**
 * Every position between characters that `free` calls free, that no token spans; and how many it
 * called free (the counter asks about no other position: merges never cut a piece inside a character).
 */
function expectSound(boundaries: MergeBoundaries, tokens: ReadonlySet<string>, longest: number, bytes: Uint8Array) {
  const spanned = spannedPositions(tokens, longest, bytes);
  let free = 0;
  for (let at = 1; at < bytes.length; at++) {
    if ((bytes[at]! & 0xc0) === 0x80 || !boundaries.free(bytes, at, bytes.length)) continue;
    free++;
    expect({ at, spanned: spanned[at] }).toEqual({ at, spanned: false });
  }
  return free;
}

const require = createRequire(import.meta.url);

describe('merge boundaries: no token spans a free position', () => {
  for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
    it(`for every token of ${encoding}, on every family of hostile text`, () => {
      const module = require(`gpt-tokenizer/bpeRanks/${encoding}`) as { default?: unknown };
      const ranks = (module.default ?? module) as (string | number[])[];
      const tokens = ranks.map((token) =>
        typeof token === 'string' ? new Uint8Array(Buffer.from(token, 'utf8')) : Uint8Array.from(token),
      );
      const boundaries = new MergeBoundaries(spansOf(tokens));
      const set = new Set(tokens.map((token) => Buffer.from(token).toString('latin1')));
      const longest = tokens.reduce((most, token) => Math.max(most, token.length), 0);
      let free = 0;
      for (const { make } of [...ADVERSARIAL_FAMILIES, ...MORE_HOSTILE_FAMILIES]) {
        free += expectSound(boundaries, set, longest, new Uint8Array(Buffer.from(make(200), 'utf8')));
      }
      // The test is worth having only if it finds free positions.
      expect(free).toBeGreaterThan(1_000);
    });
  }

  test.prop(
    [
      fc.uniqueArray(fc.uint8Array({ minLength: 2, maxLength: 6, min: 0, max: 3 }), { minLength: 1, maxLength: 30 }),
      fc.uint8Array({ minLength: 2, maxLength: 200, min: 0, max: 3 }),
    ],
    { numRuns: 300 },
  )('for made-up tokens over four bytes', (tokens, bytes) => {
    const boundaries = new MergeBoundaries(spansOf(tokens));
    const set = new Set(tokens.map((token) => Buffer.from(token).toString('latin1')));
    expectSound(boundaries, set, 6, bytes);
  });

  // Characters of one to four bytes whose bytes overlap (é and ü share their first byte, 中 and 文
  // theirs), and tokens cut from texts of them at any byte: tokens that start or end inside a
  // character, as real encodings have (" \xe0\xa4"), beside tokens of whole characters.
  const characters = ['a', 'b', 'é', 'ü', '中', '文', '😀', '😁'];
  const text = fc.string({ unit: fc.constantFrom(...characters), minLength: 1, maxLength: 12 });
  const cutTokens = fc
    .array(
      fc.tuple(text, fc.nat(), fc.integer({ min: 2, max: 8 })).map(([source, from, length]) => {
        const bytes = Buffer.from(source, 'utf8');
        const start = from % bytes.length;
        return new Uint8Array(bytes.subarray(start, Math.min(bytes.length, start + length)));
      }),
      { minLength: 1, maxLength: 40 },
    )
    .map((tokens) => [...new Map(tokens.map((token) => [Buffer.from(token).toString('hex'), token])).values()]);

  test.prop([cutTokens, fc.string({ unit: fc.constantFrom(...characters), minLength: 1, maxLength: 80 })], {
    numRuns: 400,
  })('for made-up tokens of whole and cut characters of one to four bytes', (tokens, piece) => {
    const boundaries = new MergeBoundaries(spansOf(tokens));
    const set = new Set(tokens.map((token) => Buffer.from(token).toString('latin1')));
    expectSound(boundaries, set, 8, new Uint8Array(Buffer.from(piece, 'utf8')));
  });
  // Between two characters of three bytes the test looks at both whole characters. Characters that
  // share bytes in every place: क ख ा (E0 A4 ..) share their first two, ी and ॕ (E0 A5 ..) their
  // first, ॕ ends as क does (95), ᤕ (E1 A4 95) differs from क in its first byte's low bits only, and
  // 中 shares none of theirs; tokens cut from texts of them at any byte, up to nine bytes long.
  const threeByteCharacters = ['क', 'ख', 'ा', 'ी', '\u0955', '\u1915', '中', 'a'];
  const threeByteText = fc.string({ unit: fc.constantFrom(...threeByteCharacters), minLength: 1, maxLength: 12 });
  const cutThreeByteTokens = fc
    .array(
      fc.tuple(threeByteText, fc.nat(), fc.integer({ min: 2, max: 9 })).map(([source, from, length]) => {
        const bytes = Buffer.from(source, 'utf8');
        const start = from % bytes.length;
        return new Uint8Array(bytes.subarray(start, Math.min(bytes.length, start + length)));
      }),
      { minLength: 1, maxLength: 40 },
    )
    .map((tokens) => [...new Map(tokens.map((token) => [Buffer.from(token).toString('hex'), token])).values()]);

  test.prop(
    [cutThreeByteTokens, fc.string({ unit: fc.constantFrom(...threeByteCharacters), minLength: 1, maxLength: 80 })],
    { numRuns: 400 },
  )('for made-up tokens of whole and cut characters of three bytes that share bytes', (tokens, piece) => {
    const boundaries = new MergeBoundaries(spansOf(tokens));
    const set = new Set(tokens.map((token) => Buffer.from(token).toString('latin1')));
    expectSound(boundaries, set, 9, new Uint8Array(Buffer.from(piece, 'utf8')));
  });
});

describe('merge boundaries between two characters of three bytes', () => {
  /** Whether `free` calls each position between characters of `piece` free, with `tokens` (byte arrays or text). */
  const freeBetween = (tokens: readonly (string | number[])[], piece: string): boolean[] => {
    const boundaries = new MergeBoundaries(spansOf(tokens.map((token) => new Uint8Array(Buffer.from(token as never)))));
    const bytes = new Uint8Array(Buffer.from(piece, 'utf8'));
    const free: boolean[] = [];
    for (let at = 1; at < bytes.length; at++) {
      if ((bytes[at]! & 0xc0) !== 0x80) free.push(boundaries.free(bytes, at, bytes.length));
    }
    return free;
  };

  it('tells a pair of whole characters that a token holds from the same characters the other way round', () => {
    expect(freeBetween(['कख'], 'खकखक')).toEqual([true, false, true]);
  });

  it('calls a position spanned by a token that ends after one or two bytes of the next character', () => {
    expect(freeBetween([[0xe0, 0xa4, 0x95, 0xe0]], 'कखक中')).toEqual([false, true, true]);
    expect(freeBetween([[0xe0, 0xa4, 0x95, 0xe0, 0xa4]], 'कख中क中')).toEqual([false, true, true, true]);
  });

  it('calls a position spanned by a token that starts at the last byte or two of the character before', () => {
    // 95 ends क and ॕ, not ख; a token of two bytes too.
    expect(freeBetween([[0x95, 0xe0, 0xa4]], 'कखॕखख')).toEqual([false, true, false, true]);
    expect(freeBetween([[0x95, 0xe0]], 'कख中खक')).toEqual([false, true, true, true]);
    // A4 95 ends क and ᤕ alike; E0 starts the next character of the first junction only.
    expect(freeBetween([[0xa4, 0x95, 0xe0]], 'कखᤕ中')).toEqual([false, true, true]);
  });

  it('finds most positions of Devanagari with combining marks free with o200k_base', () => {
    const module = require('gpt-tokenizer/bpeRanks/o200k_base') as { default?: unknown };
    const ranks = (module.default ?? module) as (string | number[])[];
    const devanagari = MORE_HOSTILE_FAMILIES.find(({ name }) => name === 'Devanagari with combining marks')!;
    const free = freeBetween(ranks, devanagari.make(20_000));
    // A token spans about a third of them; the test on two bytes each side called nearly all spanned.
    expect(free.filter(Boolean).length).toBeGreaterThan(free.length / 2);
  });
});
