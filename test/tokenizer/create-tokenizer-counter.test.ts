import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { ConfigError, estimateMessageTokens } from '../../src/index.js';
import { type CreateTokenizerCounterOptions, createTokenizerCounter } from '../../src/tokenizer/index.js';
import { corpus } from '../fixtures/corpus.js';

const o200k = createTokenizerCounter();
const cl100k = createTokenizerCounter({ encoding: 'cl100k_base' });
const sample = (name: string) => corpus.find((entry) => entry.name === name)?.text ?? '';

describe('createTokenizerCounter', () => {
  it('counts known strings exactly', () => {
    expect(o200k.count('')).toBe(0);
    expect(o200k.count('hello world')).toBe(2);
    expect(o200k.count('Hello, world!')).toBe(4);
    expect(o200k.count('The quick brown fox jumps over the lazy dog.')).toBe(10);
    expect(cl100k.count('hello world')).toBe(2);
  });

  it('counts special-token text as plain text and never throws on it', () => {
    expect(o200k.count('<|endoftext|>')).toBe(7);
    expect(cl100k.count('<|endoftext|>')).toBe(7);
    expect(o200k.count('<|im_start|>user\nhi<|im_end|>')).toBe(15);
    expect(o200k.count('say <|endoftext|> twice: <|endoftext|>')).toBeGreaterThan(14);
    for (const special of ['<|fim_prefix|>', '<|fim_middle|>', '<|fim_suffix|>', '<|endofprompt|>', '<|im_sep|>']) {
      expect(o200k.count(special)).toBeGreaterThan(1);
      expect(cl100k.count(special)).toBeGreaterThan(1);
    }
  });

  it('uses o200k_base by default, which is far cheaper than cl100k_base outside English', () => {
    expect(o200k.name).toBe('o200k_base');
    expect(cl100k.name).toBe('cl100k_base');
    expect(o200k.count('你好，世界')).toBe(3);
    expect(cl100k.count('你好，世界')).toBe(6);
    for (const name of ['chinese', 'japanese', 'korean', 'russian', 'arabic']) {
      expect(o200k.count(sample(name))).toBeLessThan(cl100k.count(sample(name)) * 0.85);
    }
    expect(o200k.count(sample('english-prose'))).toBeCloseTo(cl100k.count(sample('english-prose')), -1);
  });

  it('is exact, with the reference image cost and an overridable overhead', () => {
    expect(o200k).toMatchObject({ exact: true, imageTokens: 1200, messageOverhead: 0 });
    const chat = createTokenizerCounter({ imageTokens: 765, messageOverhead: 4 });
    expect(chat).toMatchObject({ name: 'o200k_base', exact: true, imageTokens: 765, messageOverhead: 4 });
  });

  it('works with estimateMessageTokens from the root entry', () => {
    const counter = createTokenizerCounter({ messageOverhead: 3 });
    const message = {
      role: 'user' as const,
      content: [
        { type: 'text' as const, text: 'hello world' },
        { type: 'image' as const, data: 'https://example.com/cat.png', mimeType: 'image/png' },
      ],
    };
    expect(estimateMessageTokens(message, counter)).toBe(2 + 1200 + 3);
  });

  it('shares one encoder per encoding between counters', () => {
    const again = createTokenizerCounter({ encoding: 'o200k_base', messageOverhead: 4 });
    expect(again).not.toBe(o200k);
    for (const { text } of corpus) expect(again.count(text)).toBe(o200k.count(text));
  });

  it('rejects invalid options with a ConfigError naming the field', () => {
    const invalid = [
      [{ encoding: 'p50k_base' }, 'encoding'],
      [{ imageTokens: -1 }, 'imageTokens'],
      [{ messageOverhead: Number.NaN }, 'messageOverhead'],
      [{ encodign: 'o200k_base' }, 'options'],
    ] as const;
    for (const [options, field] of invalid) {
      try {
        createTokenizerCounter(options as unknown as CreateTokenizerCounterOptions);
        expect.unreachable();
      } catch (caught) {
        expect(ConfigError.isInstance(caught)).toBe(true);
        expect((caught as ConfigError).field).toBe(field);
      }
    }
  });
});

describe('createTokenizerCounter properties', () => {
  test.prop([fc.string({ unit: 'binary' })], { numRuns: 200 })(
    'never throws and counts non-negative integers',
    (text) => {
      const tokens = o200k.count(text);
      expect(Number.isInteger(tokens)).toBe(true);
      expect(tokens >= 1).toBe(text.length > 0);
      expect(cl100k.count(text) >= 0).toBe(true);
    },
  );

  test.prop([fc.constantFrom('<|endoftext|>', '<|im_start|>', '<|im_end|>', '<|fim_prefix|>'), fc.string()], {
    numRuns: 100,
  })('counts special tokens inside any text', (special, text) => {
    expect(o200k.count(text + special + text)).toBeGreaterThan(1);
  });
});
