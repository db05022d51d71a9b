import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_TOOL_OUTPUT_LIMITS,
  type ToolOutputLimits,
  truncateToolContent,
} from '../../src/index.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text).length;
const chars = (text: string) => Array.from(text).length;
const lines = (text: string) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
const numbered = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n');

function expectWithin(text: string, limits: Partial<ToolOutputLimits>) {
  const full = { ...DEFAULT_TOOL_OUTPUT_LIMITS, ...limits };
  expect(lines(text)).toBeLessThanOrEqual(full.maxLines);
  expect(chars(text)).toBeLessThanOrEqual(full.maxChars);
  expect(bytes(text)).toBeLessThanOrEqual(full.maxBytes);
}

describe('truncateToolContent', () => {
  it('returns output within the limits unchanged', () => {
    const text = numbered(2000);
    const result = truncateToolContent(text);
    expect(result).toMatchObject({ text, truncated: false, needsSpill: false });
    expect(result.stats.limitedBy).toEqual([]);
  });

  it('cuts lines first, keeping the first and last lines around a marker (reference defaults)', () => {
    const text = numbered(2001);
    const result = truncateToolContent(text);
    expect(result.truncated).toBe(true);
    expect(result.stats.limitedBy).toEqual(['lines']);
    expect(result.text.startsWith('line 1\nline 2\n')).toBe(true);
    expect(result.text).toContain('line 2001\n\n[Output truncated: the full output had 2,001 lines');
    expect(result.text).toMatch(/\.\.\. \[\d+ lines omitted\] \.\.\./);
    expectWithin(result.text, {});
  });

  it('keeps only the head in head mode and below four lines', () => {
    const head = truncateToolContent(numbered(100), { maxLines: 10, truncateMode: 'head' });
    expect(head.text.startsWith('line 1\n')).toBe(true);
    expect(head.text).not.toContain('line 100');
    expect(head.text).toContain('showing the beginning.');
    const tiny = truncateToolContent(numbered(100), { maxLines: 5 });
    expect(tiny.text).not.toContain('omitted');
    expectWithin(tiny.text, { maxLines: 5 });
  });

  it('then cuts by code points, then by UTF-8 bytes', () => {
    const wide = '界'.repeat(30_000); // 90,000 bytes, one line
    const result = truncateToolContent(wide);
    expect(result.stats.limitedBy).toEqual(['bytes']);
    expectWithin(result.text, {});
    expect(bytes(result.text)).toBeGreaterThan(50 * 1024 - 400);
    const long = 'x'.repeat(300);
    const byChars = truncateToolContent(long, { maxChars: 200, maxBytes: 10_000 });
    expect(byChars.stats.limitedBy).toEqual(['chars']);
    expectWithin(byChars.text, { maxChars: 200 });
  });

  it('never splits a surrogate pair or a UTF-8 sequence', () => {
    const emoji = '😀'.repeat(500);
    for (const maxBytes of [101, 102, 103, 150, 333]) {
      const result = truncateToolContent(emoji, { maxBytes });
      expect(result.text).not.toMatch(LONE_SURROGATE);
      expectWithin(result.text, { maxBytes });
    }
  });

  it('asks for a spill above the large-output threshold', () => {
    const result = truncateToolContent('a'.repeat(300), { largeOutputThreshold: 200 });
    expect(result.needsSpill).toBe(true);
    expect(result.truncated).toBe(false);
    expect(truncateToolContent('a'.repeat(200), { largeOutputThreshold: 200 }).needsSpill).toBe(false);
  });

  it('stays within limits too small for its notice', () => {
    const result = truncateToolContent(numbered(50), { maxChars: 12, maxBytes: 12 });
    expectWithin(result.text, { maxChars: 12, maxBytes: 12 });
    expect(result.text.length).toBeGreaterThan(0);
  });

  it('rejects limits that are not positive whole numbers', () => {
    expect(() => truncateToolContent('x', { maxLines: 0 })).toThrow(ConfigError);
    expect(() => truncateToolContent('x', { maxBytes: Number.NaN })).toThrow(/toolOutput\.maxBytes/);
  });

  const limitsArbitrary = fc.record({
    maxLines: fc.integer({ min: 1, max: 60 }),
    maxChars: fc.integer({ min: 1, max: 400 }),
    maxBytes: fc.integer({ min: 1, max: 600 }),
    truncateMode: fc.constantFrom('head' as const, 'head_tail' as const),
  });
  const textArbitrary = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 600 }),
    fc.array(fc.string({ unit: 'binary', maxLength: 40 }), { maxLength: 120 }).map((parts) => parts.join('\n')),
  );

  test.prop([textArbitrary, limitsArbitrary])(
    'keeps the result, notice included, within every limit',
    (text, limits) => {
      expectWithin(truncateToolContent(text, limits).text, limits);
    },
  );

  test.prop([textArbitrary, limitsArbitrary])('is idempotent', (text, limits) => {
    const once = truncateToolContent(text, limits);
    const twice = truncateToolContent(once.text, limits);
    expect(twice.text).toBe(once.text);
    expect(twice.truncated).toBe(false);
  });

  test.prop([fc.string({ unit: 'grapheme', maxLength: 400 }), limitsArbitrary])(
    'leaves well-formed text well-formed',
    (text, limits) => {
      expect(truncateToolContent(text, limits).text).not.toMatch(LONE_SURROGATE);
    },
  );
});
