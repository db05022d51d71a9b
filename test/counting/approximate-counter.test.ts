import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  approximateCounter,
  ConfigError,
  createApproximateCounter,
  estimateMessageTokens,
  referenceCounter,
} from '../../src/index.js';
import { createTokenizerCounter } from '../../src/tokenizer/index.js';
import { corpus } from '../fixtures/corpus.js';

const exact = createTokenizerCounter({ encoding: 'o200k_base' });

/** Each sample's exact o200k_base count and the two estimators' counts as ratios of it. */
const rows = corpus.map((sample) => {
  const tokens = exact.count(sample.text);
  return {
    sample: sample.name,
    category: sample.category,
    chars: sample.text.length,
    o200k: tokens,
    approximate: Number((approximateCounter.count(sample.text) / tokens).toFixed(3)),
    reference: Number((referenceCounter.count(sample.text) / tokens).toFixed(3)),
  };
});

/** A deterministic nested object, pretty-printed below with spaces and with tabs. */
const nested = (depth: number): unknown =>
  depth === 0 ? { leaf: 'value', n: 1 } : { a: nested(depth - 1), b: [nested(depth - 1)] };

/**
 * Whitespace-heavy text: indentation, blank lines, padding, and long runs of one whitespace
 * character, which o200k_base merges into one token per so many characters (about 120 spaces,
 * 16 newlines or tabs, 8 no-break spaces), not one token per run.
 */
const whitespaceSamples = [
  {
    name: 'indented-python',
    text: Array.from(
      { length: 80 },
      (_, index) => `${' '.repeat(4 * (index % 6))}value_${index} = compute(value_${index - 1}, depth=${index % 6})`,
    ).join('\n'),
  },
  {
    name: 'blank-line-log',
    text: Array.from(
      { length: 200 },
      (_, index) => `[${String(index).padStart(4, '0')}] step ${index} finished${'\n'.repeat(1 + (index % 4))}`,
    ).join(''),
  },
  { name: 'json-pretty-4', text: JSON.stringify(nested(6), null, 4) },
  { name: 'json-tabs', text: JSON.stringify(nested(6), null, '\t') },
  {
    name: 'padded-table',
    text: Array.from(
      { length: 40 },
      (_, index) => `${String(index).padEnd(8)}${`name${index}`.padEnd(30)}${String(index * 1234).padStart(12)}    ok`,
    ).join('\n'),
  },
  {
    name: 'mixed-indent',
    text: Array.from(
      { length: 100 },
      (_, index) => `${'\t'.repeat(index % 5)}${'  '.repeat(index % 3)}call(${index});`,
    ).join('\n'),
  },
  { name: 'markdown-blank-lines', text: '## Heading\n\nSome text about it.\n\n- a\n- b\n\n'.repeat(60) },
  {
    name: 'long-blank-runs',
    text: Array.from({ length: 30 }, (_, index) => `section ${index}${'\n'.repeat(40)}`).join(''),
  },
  { name: 'whitespace-only-lines', text: `${`\n${' '.repeat(8)}`.repeat(500)}\nend` },
  { name: 'spaces-10k', text: ' '.repeat(10_000) },
  { name: 'spaces-in-a-line', text: `start${' '.repeat(3_000)}word` },
  { name: 'newlines-5k', text: '\n'.repeat(5_000) },
  { name: 'tabs-5k', text: '\t'.repeat(5_000) },
  { name: 'crlf-blank-lines', text: '\r\n'.repeat(2_000) },
  { name: 'no-break-spaces-3k', text: '\u00a0'.repeat(3_000) },
  { name: 'ideographic-spaces-2k', text: '\u3000'.repeat(2_000) },
];

const whitespaceRows = whitespaceSamples.map((sample) => ({
  sample: sample.name,
  o200k: exact.count(sample.text),
  approximate: Number((approximateCounter.count(sample.text) / exact.count(sample.text)).toFixed(3)),
}));

/** How far a ratio is from 1, the same for over- and under-counting by a factor. */
const error = (ratio: number) => Math.abs(Math.log(ratio));

describe('approximateCounter against o200k_base', () => {
  it('prints the ratios of both estimators on the corpus', () => {
    console.table(rows);
    expect(rows).toHaveLength(corpus.length);
  });

  it.each(rows)('stays within -10% / +15% of o200k_base on $sample', ({ approximate }) => {
    expect(approximate).toBeGreaterThanOrEqual(0.9);
    expect(approximate).toBeLessThanOrEqual(1.15);
  });

  it.each(rows.filter((row) => row.category === 'cjk' || row.category === 'json'))(
    'beats chars/4 on $sample',
    ({ approximate, reference }) => {
      expect(error(approximate)).toBeLessThan(error(reference));
    },
  );

  it('fixes what chars/4 gets wrong: CJK 2–3× and JSON about 20% under', () => {
    for (const row of rows.filter((row) => row.category === 'cjk')) expect(row.reference).toBeLessThan(0.5);
    for (const row of rows.filter((row) => row.category === 'json')) expect(row.reference).toBeLessThan(0.9);
  });

  it.each(whitespaceRows)('stays within -10% / +25% of o200k_base on whitespace-heavy $sample', ({ approximate }) => {
    expect(approximate).toBeGreaterThanOrEqual(0.9);
    expect(approximate).toBeLessThanOrEqual(1.25);
  });

  it('charges long whitespace runs by their length, not one token a run', () => {
    console.table(whitespaceRows);
    expect(approximateCounter.count('\n'.repeat(5_000))).toBeGreaterThan(250);
    expect(approximateCounter.count(' '.repeat(10_000))).toBeGreaterThan(60);
    expect(approximateCounter.count('\u00a0'.repeat(3_000))).toBeGreaterThan(300);
    expect(approximateCounter.count('\t'.repeat(5_000))).toBeGreaterThan(250);
    // Short runs keep their prices (here equal to o200k_base's): a blank line and indentation, `;\n`.
    for (const text of ['x\n\n    word', 'x;\n', 'a  \n  b']) {
      expect(approximateCounter.count(text)).toBe(exact.count(text));
    }
  });

  it('is closer than chars/4 over the whole corpus', () => {
    const mean = (key: 'approximate' | 'reference') =>
      rows.reduce((sum, row) => sum + error(row[key]), 0) / rows.length;
    expect(mean('approximate')).toBeLessThan(mean('reference') / 3);
  });
});

describe('approximateCounter', () => {
  it('counts short known strings', () => {
    expect(approximateCounter.count('')).toBe(0);
    expect(approximateCounter.count('hello world')).toBe(2);
    expect(approximateCounter.count('The quick brown fox jumps over the lazy dog.')).toBe(10);
    expect(approximateCounter.count('{"id": 1, "ok": true}')).toBe(11);
    expect(approximateCounter.count('1234567')).toBe(3);
  });

  it('counts CJK at more than half a token per character', () => {
    const chinese = corpus.find((sample) => sample.name === 'chinese')?.text ?? '';
    expect(approximateCounter.count(chinese)).toBeGreaterThan(chinese.length * 0.6);
  });

  it('counts text that looks like special tokens as text, without throwing', () => {
    expect(approximateCounter.count('<|endoftext|><|im_start|>')).toBeGreaterThan(2);
  });

  it('is a plain estimate with the reference image cost and no overhead', () => {
    expect(approximateCounter.name).toBe('approximate');
    expect(approximateCounter.exact).toBeUndefined();
    expect(approximateCounter.imageTokens).toBe(1200);
    expect(approximateCounter.messageOverhead).toBe(0);
  });

  it('prices images and per-message overhead through estimateMessageTokens', () => {
    const counter = createApproximateCounter({ imageTokens: 800, messageOverhead: 4 });
    const message = {
      role: 'user' as const,
      content: [
        { type: 'text' as const, text: 'hello world' },
        { type: 'image' as const, data: 'aGVsbG8=', mimeType: 'image/png' },
      ],
    };
    expect(estimateMessageTokens(message, counter)).toBe(2 + 800 + 4);
  });

  it('scales every estimate up and names the scaled counter', () => {
    const scaled = createApproximateCounter({ scale: 1.1 });
    expect(scaled.name).toBe('approximate×1.1');
    expect(scaled.count('hello world')).toBe(3);
    for (const { text } of corpus) {
      expect(scaled.count(text)).toBeGreaterThanOrEqual(approximateCounter.count(text));
      expect(scaled.count(text)).toBeLessThanOrEqual(Math.ceil(approximateCounter.count(text) * 1.1));
    }
  });

  it('rejects invalid options with a ConfigError naming the field', () => {
    expect(() => createApproximateCounter({ scale: 0 })).toThrow(ConfigError);
    try {
      createApproximateCounter({ imageTokens: -1 });
      expect.unreachable();
    } catch (caught) {
      expect(ConfigError.isInstance(caught) && caught.field).toBe('imageTokens');
    }
  });
});

/** Strings built from pieces that exercise every branch: scripts, camel case, digits, emoji, spaces. */
const pieces = fc
  .array(
    fc.constantFrom(
      'a',
      'Q',
      'qxz',
      'HTTP',
      'Server',
      'é',
      'ł',
      'слово',
      'كلمة',
      '中文',
      'の',
      '한국',
      'ไทย',
      ' ',
      '  ',
      '\t',
      '\n',
      '\r\n',
      '\n'.repeat(40),
      ' '.repeat(130),
      '\t'.repeat(20),
      '\u00a0'.repeat(10),
      '7',
      '123',
      '.',
      '---',
      '"',
      '→',
      '━',
      '✅',
      '\u200d',
      '\ufe0f',
      '😀',
      '🇩🇪',
      '\ud83d',
      '\u3000',
      '，',
    ),
    { maxLength: 16 },
  )
  .map((parts) => parts.join(''));

describe('approximateCounter properties', () => {
  test.prop([fc.string({ unit: 'binary' })])('counts are non-negative integers, zero only for ""', (text) => {
    const tokens = approximateCounter.count(text);
    expect(Number.isInteger(tokens)).toBe(true);
    expect(tokens >= 1).toBe(text.length > 0);
    expect(approximateCounter.count(text)).toBe(tokens);
  });

  test.prop([fc.string(), fc.string()])('is nearly additive on ASCII text', (first, second) => {
    const joined = approximateCounter.count(first + second);
    expect(joined).toBeLessThanOrEqual(approximateCounter.count(first) + approximateCounter.count(second) + 1);
  });

  test.prop([pieces, pieces])('is nearly additive on mixed scripts, emoji and whitespace', (first, second) => {
    const joined = approximateCounter.count(first + second);
    expect(joined).toBeLessThanOrEqual(approximateCounter.count(first) + approximateCounter.count(second) + 1);
  });

  test.prop([fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' })])(
    'is nearly additive on any Unicode, lone surrogates included',
    (first, second) => {
      const joined = approximateCounter.count(first + second);
      expect(joined).toBeLessThanOrEqual(approximateCounter.count(first) + approximateCounter.count(second) + 1);
    },
  );
});
