/**
 * More texts made to be hard for the exact counter, beside test/fixtures/adversarial-texts.ts: long
 * runs of one character of other scripts, random text of scripts whose characters take two to four
 * bytes, scripts alternating inside one piece, letters with combining marks, whitespace of every
 * kind, special-token text (counted as plain text), and a few letters repeated. Each is made from a
 * fixed seed, so every run sees the same text. Used by the exact-count tests (short) and
 * `npm run bench:hostile` (1 MB).
 */
import type { AdversarialFamily } from '../fixtures/adversarial-texts.js';

/** A seeded generator of integers in [0, bound) (Park–Miller). */
function seeded(seed: number): (bound: number) => number {
  let state = seed;
  return (bound) => {
    state = (state * 48_271) % 2_147_483_647;
    return state % bound;
  };
}

/** Strings drawn by `pick` until the text holds `length` UTF-16 units, cut there. */
function drawn(length: number, seed: number, pick: (random: (bound: number) => number) => string): string {
  const random = seeded(seed);
  const parts: string[] = [];
  let units = 0;
  while (units < length) {
    const part = pick(random);
    parts.push(part);
    units += part.length;
  }
  return parts.join('').slice(0, length);
}

/** A code point from `first` to `last`, as a string. */
const between = (random: (bound: number) => number, first: number, last: number) =>
  String.fromCodePoint(first + random(last - first + 1));

/** `unit` repeated to `length` UTF-16 units. */
const repeated = (unit: string) => (length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

/** Letter ranges of several scripts: Latin, Greek, Cyrillic, Arabic, Devanagari, Thai, kana, Hangul, CJK. */
const SCRIPTS: readonly [number, number][] = [
  [0x61, 0x7a],
  [0x3b1, 0x3c9],
  [0x430, 0x44f],
  [0x627, 0x64a],
  [0x915, 0x939],
  [0xe01, 0xe2e],
  [0x3041, 0x3096],
  [0xac00, 0xd7a3],
  [0x4e00, 0x9fff],
];

/** Whitespace the split pattern treats in different ways. */
const WHITESPACE = [' ', '\t', '\n', '\r', '\r\n', '\u00a0', '\u2003', '\u3000', '\u000b', '\f'];

/** Special-token text and pieces of it. */
const SPECIAL = ['<|endoftext|>', '<|im_start|>', '<|im_end|>', '<|im_sep|>', '<|endofprompt|>', '<|', '|>', 'user'];

/** The families. */
export const MORE_HOSTILE_FAMILIES: readonly AdversarialFamily[] = [
  { name: 'one Hangul syllable', make: repeated('한') },
  { name: 'one Cyrillic letter', make: repeated('ж') },
  { name: 'one Arabic letter', make: repeated('ب') },
  { name: '"ab" repeated', make: repeated('ab') },
  { name: '"中文" repeated', make: repeated('中文') },
  { name: '" \\t" repeated', make: repeated(' \t') },
  { name: 'random Hangul', make: (length) => drawn(length, 43, (random) => between(random, 0xac00, 0xd7a3)) },
  { name: 'random kana', make: (length) => drawn(length, 47, (random) => between(random, 0x3041, 0x30fa)) },
  { name: 'random Arabic letters', make: (length) => drawn(length, 53, (random) => between(random, 0x627, 0x64a)) },
  {
    name: 'Devanagari with combining marks',
    make: (length) =>
      drawn(length, 59, (random) => between(random, 0x915, 0x939) + (random(2) ? between(random, 0x93e, 0x94c) : '')),
  },
  {
    name: 'random accented Latin letters',
    make: (length) =>
      drawn(length, 61, (random) => (random(3) ? between(random, 0x61, 0x7a) : between(random, 0xe0, 0xff))),
  },
  {
    name: 'alternating scripts',
    make: (length) =>
      drawn(length, 67, (random) => {
        const [first, last] = SCRIPTS[random(SCRIPTS.length)]!;
        let run = '';
        for (let count = 1 + random(6); count > 0; count--) run += between(random, first, last);
        return run;
      }),
  },
  {
    name: 'random code points, all planes',
    make: (length) =>
      drawn(length, 71, (random) => {
        const code = random(0x10fffe);
        return String.fromCodePoint(code >= 0xd800 && code <= 0xdfff ? code + 0x800 : code);
      }),
  },
  {
    name: 'random letters and digits',
    make: (length) =>
      drawn(length, 73, (random) => '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'[random(62)]!),
  },
  { name: 'whitespace mix', make: (length) => drawn(length, 79, (random) => WHITESPACE[random(WHITESPACE.length)]!) },
  {
    name: 'special-token text',
    make: (length) => drawn(length, 83, (random) => (random(4) === 0 ? ' ' : '') + SPECIAL[random(SPECIAL.length)]!),
  },
];
