// The exact counters must give gpt-tokenizer's own count for every text, special-token text taken
// as plain text. The encoder itself is the reference: it is quadratic in a piece's length, so the
// texts here stay a few thousand characters long; the bench measures the long ones.
import { fc, test } from '@fast-check/vitest';
import { createTokenizerCounter } from 'ctxkit/tokenizer';
import { countTokens as cl100kCount } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as o200kCount } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { ADVERSARIAL_FAMILIES } from '../fixtures/adversarial-texts.js';
import { corpus } from '../fixtures/corpus.js';
import { MORE_HOSTILE_FAMILIES } from './more-hostile-texts.js';

const plainText = { disallowedSpecial: new Set<string>() };
const counters = [
  { name: 'o200k_base', counter: createTokenizerCounter(), reference: (text: string) => o200kCount(text, plainText) },
  {
    name: 'cl100k_base',
    counter: createTokenizerCounter({ encoding: 'cl100k_base' }),
    reference: (text: string) => cl100kCount(text, plainText),
  },
] as const;

/** Characters that make long pieces, split oddly or change under UTF-8. */
const RUN_CHARACTERS = [
  '\n',
  ' ',
  '\t',
  '\r',
  ' \n',
  'a',
  'A',
  'aA',
  'é',
  'e\u0301',
  '\u0301',
  '中',
  '中文',
  '😀',
  '!',
  '!?',
  '//',
  '1',
  '\uFEFF',
  '\uD800',
  '\uDC00',
  "'s",
  '<|endoftext|>',
  'İ',
  'ß',
  'ا',
  'ب',
  'ю',
  '한',
];

/** A text made of runs of those characters, a few thousand characters at most. */
const runs = fc
  .array(fc.tuple(fc.constantFrom(...RUN_CHARACTERS), fc.integer({ min: 1, max: 200 })), { maxLength: 12 })
  .map((parts) => parts.map(([text, times]) => text.repeat(times)).join(''));

/**
 * One piece of a few hundred to two thousand letters from a small alphabet: merges make tokens that
 * rank below their parts, and pairs of one rank arrive out of order, in the counter's long-piece path.
 */
const longPieces = fc
  .tuple(
    fc.constantFrom('ab', 'abc', 'etaoin', 'xyzq', 'ei', 'абв', 'の中'),
    fc.integer({ min: 0, max: 2 ** 31 - 2 }),
    fc.integer({ min: 100, max: 2_000 }),
  )
  .map(([alphabet, seed, length]) => {
    let state = seed + 1;
    let text = '';
    for (let index = 0; index < length; index++) {
      state = (state * 48_271) % 2_147_483_647;
      text += alphabet[state % alphabet.length];
    }
    return text;
  });

/** Letters of many scripts (each \p{L}, some with a combining mark), so a text of them is one long piece. */
const MIXED_LETTERS = [
  ...'abcdefghijklmnopqrstuvwxyz',
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  ...'éüßçñøåœ',
  ...'αβγδεζηθλμπσω',
  ...'абвгдежзийклмнопрстуфхцчшщыэюя',
  ...'ابتثجحخدذرزسشصضطظعغفقكلمنهوي',
  ...'कखगघचछजझटठडढणतथदधनपफबभमयरलवशसह',
  'कि',
  'की',
  ...'กขคงจฉชซญฎฏฐดตถทธนบปผพภมยรลวศษสหอฮ',
  ...'あいうえおかきくけこさしすせそたちつてとなにぬねのアイウエオカキクケコ',
  ...'한국어가나다라마바사아자차카타파하',
  ...'中文字的一是不了人我在有他这为之大来以个国',
  '𠀀',
  '𪚥',
];

/**
 * One long piece of letters from many scripts, in runs of one script or mixed, a few hundred to
 * fifteen hundred letters: the counter cuts such pieces where no token spans, so cuts between
 * scripts, inside runs and at repeated letters are all checked.
 */
const mixedPieces = fc
  .array(
    fc.oneof(
      fc.string({ unit: fc.constantFrom(...MIXED_LETTERS), minLength: 1, maxLength: 60 }),
      fc
        .tuple(fc.constantFrom(...MIXED_LETTERS), fc.integer({ min: 1, max: 80 }))
        .map(([letter, times]) => letter.repeat(times)),
    ),
    { minLength: 1, maxLength: 30 },
  )
  .map((runs) => runs.join(''))
  .filter((text) => text.length >= 100);

function expectExact(text: string): void {
  for (const { name, counter, reference } of counters) {
    expect({ name, tokens: counter.count(text) }).toEqual({ name, tokens: reference(text) });
  }
}

describe('exact counters give the encoding’s own count', () => {
  it('on the corpus', () => {
    expectExact(corpus.map(({ text }) => text).join('\n'));
  });

  it('on long runs of one character and of a few', () => {
    for (const text of ['\n', ' ', 'a', 'A', '中', '😀', '!', ' \n', '\uFEFF', 'ab', 'ب', 'ж', '한', 'é', '\uD800']) {
      expectExact(text.repeat(2_000));
      expectExact(`x${text.repeat(1_001)}y`);
    }
  });

  it('on byte order marks, which the encoder looks up oddly, and lone surrogates', () => {
    for (const text of [
      '\uFEFF',
      '\uFEFFusing',
      '\uFEFF#',
      '\uFEFF\n\n',
      'a\uFEFF//b',
      '\uFEFF\uFEFF',
      '\uD800',
      'x\uDC00y',
    ]) {
      expectExact(text);
      expectExact(`${text} ${text}\n${text}`);
    }
  });

  it('on every family of hostile text (short, since the encoder is quadratic)', () => {
    for (const { make } of ADVERSARIAL_FAMILIES) {
      for (const length of [97, 500, 3_000]) expectExact(make(length));
    }
  });

  it('on more hostile families: other scripts, alternating scripts, whitespace, special-token text', () => {
    for (const { make } of MORE_HOSTILE_FAMILIES) {
      for (const length of [97, 500, 3_000]) expectExact(make(length));
    }
  });

  test.prop([longPieces], { numRuns: 60 })('on long pieces of a few letters', expectExact);
  test.prop([mixedPieces], { numRuns: 80 })('on long pieces mixing letters of many scripts', expectExact);
  test.prop([fc.string({ unit: 'binary', minLength: 100, maxLength: 1_500 })], { numRuns: 40 })(
    'on long strings of any code points',
    expectExact,
  );
  test.prop([fc.string({ unit: 'binary', maxLength: 300 })], { numRuns: 300 })('on any string', expectExact);
  test.prop([fc.string({ unit: 'grapheme', maxLength: 300 })], { numRuns: 200 })('on any graphemes', expectExact);
  test.prop([runs], { numRuns: 150 })('on texts made of runs', expectExact);
});
