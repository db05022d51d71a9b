// The hand-written splitter must cut every text into the pieces o200k_base's own split pattern
// (gpt-tokenizer's O200K_TOKEN_SPLIT_REGEX) makes: checked against the pattern on every family of
// hostile text and on random texts of every plane, lone surrogates included, and of the characters
// where the pattern's alternatives and backtracking meet.
import { createRequire } from 'node:module';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { O200K_SPLIT_SOURCE, O200kSplitter } from '../../src/tokenizer/o200k-splitter.js';
import { ADVERSARIAL_FAMILIES } from '../fixtures/adversarial-texts.js';
import { MORE_HOSTILE_FAMILIES } from './more-hostile-texts.js';

const require = createRequire(import.meta.url);
const { O200K_TOKEN_SPLIT_REGEX } = require('gpt-tokenizer/encodingParams/constants') as {
  O200K_TOKEN_SPLIT_REGEX: RegExp;
};

/** The pieces the pattern makes, as `[start, end]` pairs. */
function patternPieces(text: string): [number, number][] {
  return [...text.matchAll(new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'gu'))].map((match) => [
    match.index,
    match.index + match[0].length,
  ]);
}

const splitter = new O200kSplitter();

/** The pieces the splitter makes. */
function splitterPieces(text: string): [number, number][] {
  const pieces: [number, number][] = [];
  for (let start = 0; start < text.length; ) {
    const end = splitter.end(text, start);
    pieces.push([start, end]);
    start = end;
  }
  return pieces;
}

function expectSamePieces(text: string): void {
  expect(splitterPieces(text)).toEqual(patternPieces(text));
}

/**
 * Characters where the alternatives meet: every letter category (Lu, Ll, Lt, Lm, Lo), marks alone
 * and after letters, numbers of other scripts, contractions in both cases, the apostrophe alone,
 * whitespace of every kind (U+FEFF and U+2028 are \s, U+0085 is not), line ends, slashes,
 * symbols, a lone surrogate of each half, and astral letters, marks, numbers and symbols.
 */
const MEETING_POINTS = [
  'a',
  'Z',
  'ǅ',
  'ʰ',
  'ー',
  '中',
  '\u0301',
  '\u093f',
  'क',
  '1',
  '²',
  '٣',
  'Ⅻ',
  "'",
  "'s",
  "'S",
  "'ll",
  "'LL",
  "'Ve",
  "'re",
  "'d",
  "'m",
  "'T",
  ' ',
  '  ',
  '\t',
  '\n',
  '\r',
  '\r\n',
  '\u00a0',
  '\u0085',
  '\u2028',
  '\u3000',
  '\ufeff',
  '\u000b',
  '/',
  '//',
  '!',
  '.',
  '😀',
  '<|endoftext|>',
  '\ud800',
  '\udc00',
  '𝐀',
  '𝐚',
  '𝟙',
  '𐨁',
  '𠀀',
];

describe('the o200k_base splitter cuts as the split pattern does', () => {
  it('follows the pattern gpt-tokenizer ships', () => {
    expect(O200K_TOKEN_SPLIT_REGEX.source).toBe(O200K_SPLIT_SOURCE);
  });

  it('on every family of hostile text', () => {
    for (const { make } of [...ADVERSARIAL_FAMILIES, ...MORE_HOSTILE_FAMILIES]) {
      for (const length of [1, 2, 97, 20_000]) expectSamePieces(make(length));
    }
  });

  it('on the empty text and texts of one character', () => {
    expect(splitterPieces('')).toEqual([]);
    for (const text of MEETING_POINTS) expectSamePieces(text);
  });

  test.prop([fc.array(fc.constantFrom(...MEETING_POINTS), { maxLength: 40 }).map((parts) => parts.join(''))], {
    numRuns: 2_000,
  })('on texts of the characters where its alternatives meet', expectSamePieces);
  test.prop([fc.string({ unit: 'binary', maxLength: 200 })], { numRuns: 500 })(
    'on texts of any code points, lone surrogates included',
    expectSamePieces,
  );
  test.prop([fc.string({ unit: 'grapheme', maxLength: 200 })], { numRuns: 300 })('on any graphemes', expectSamePieces);
  test.prop([fc.array(fc.integer({ min: 0, max: 0x10_ffff }), { maxLength: 60 })], { numRuns: 500 })(
    'on code points of every plane, unassigned ones too',
    (codes) => expectSamePieces(codes.map((code) => String.fromCodePoint(code)).join('')),
  );
});
