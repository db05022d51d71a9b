import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { toConfig } from '../../src/config/index.js';
import {
  ConfigError,
  DEFAULT_CONFIG,
  resolveConfig,
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
  const full = { ...DEFAULT_CONFIG.toolOutput, ...limits };
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
    const tiny = truncateToolContent(numbered(100), { maxLines: 3 });
    expect(tiny.text).not.toContain('omitted');
    expect(tiny.text).toContain('showing the beginning.');
    expectWithin(tiny.text, { maxLines: 3 });
  });

  it('keeps the head/tail marker from a line limit of 4, notice included', () => {
    for (const maxLines of [4, 5, 6, 7]) {
      const result = truncateToolContent(numbered(20), { maxLines });
      expect(result.text).toMatch(/^line 1\n/);
      expect(result.text).toMatch(/\n\.\.\. \[\d+ lines omitted\] \.\.\.\n/);
      expect(result.text).toContain('line 20\n');
      expect(result.text).toContain('showing the beginning and the end.');
      expectWithin(result.text, { maxLines });
    }
    expect(truncateToolContent(numbered(20), { maxLines: 4 }).text).toBe(
      'line 1\n... [18 lines omitted] ...\nline 20\n' +
        '[Output truncated: the full output had 20 lines, 150 characters, 150 bytes; showing the beginning and the end.]',
    );
  });

  it('tells the model when it kept only the beginning', () => {
    const oneLine = truncateToolContent('0123456789'.repeat(30), { maxChars: 150 });
    expect(oneLine.text).toMatch(/^0123456789/);
    expect(oneLine.text).toContain('showing the beginning.');
    expect(oneLine.text).not.toContain('the end');
    const wide = truncateToolContent('abcdefghijklmnopqrstuvwxyz'.repeat(10), { maxChars: 200 });
    expect(wide.text).toContain(' … [middle omitted] … ');
    expect(wide.text).toContain('showing the beginning and the end.');
  });

  it('says the output was cut whenever a notice fits, down to "[output truncated]"', () => {
    const one = truncateToolContent(numbered(20), { maxLines: 1 });
    expect(one.text).toBe(
      'line 1 [Output truncated: the full output had 20 lines, 150 characters, 150 bytes; showing the beginning.]',
    );
    const two = truncateToolContent(numbered(20), { maxLines: 2 });
    expect(two.text).toMatch(/^line 1\n\[Output truncated: .*showing the beginning\.\]$/);
    for (const maxLines of [1, 2]) {
      const short = truncateToolContent('a\nb\nc\nd\ne', { maxLines, maxChars: 25 });
      expect(short.text).toContain('[output truncated]');
      expectWithin(short.text, { maxLines, maxChars: 25 });
    }
    expect(truncateToolContent('x'.repeat(100), { maxBytes: 19 }).text).toBe('[output truncated]');
    expect(truncateToolContent('x'.repeat(100), { maxBytes: 18 }).text).toBe('[output truncated]');
    expect(truncateToolContent('x'.repeat(100), { maxBytes: 21 }).text).toBe('x\n\n[output truncated]');
    expect(truncateToolContent('x'.repeat(100), { maxBytes: 17 }).text).toBe('x'.repeat(17));
  });

  it('takes the default for a limit set to undefined', () => {
    const limits = { maxLines: undefined, maxChars: 100 };
    expect(truncateToolContent('abc', limits)).toMatchObject({ text: 'abc', truncated: false });
    const long = truncateToolContent(numbered(2001), { maxLines: undefined, truncateMode: undefined });
    expect(long.stats.limitedBy).toEqual(['lines']);
    expect(long.text).toContain('omitted');
  });

  it("takes a resolved config's limits as checked, cutting as with a plain copy of them", () => {
    const config = resolveConfig({ toolOutput: { maxLines: 5, maxChars: 300 } });
    const text = 'a line of output\n'.repeat(50);
    expect(truncateToolContent(text, config.toolOutput)).toEqual(truncateToolContent(text, { ...config.toolOutput }));
    // The limits are not taken for a resolved config themselves.
    expect(() => toConfig(config.toolOutput as never, 'test')).toThrow(ConfigError);
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
    expect(() => truncateToolContent('x', { maxBytes: Number.NaN })).toThrow(
      /truncateToolContent: limits\.maxBytes must be a whole number ≥ 1 \(got NaN\)/,
    );
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

describe('truncateToolContent: line and byte limits together', () => {
  const lines = Array.from({ length: 400 }, (_, index) => `line ${String(index).padStart(3, '0')} ${'x'.repeat(60)}`);
  const text = lines.join('\n');

  it('keeps whole lines around the marker, and the marker keeps its omitted-line count', () => {
    const result = truncateToolContent(text, { maxLines: 100, maxBytes: 2_000 });
    const kept = result.text.split('\n');
    const marker = kept.find((line) => /^\.\.\. \[[\d,]+ lines omitted\] \.\.\.$/.test(line));
    expect(marker).toBeDefined();
    const omitted = Number(/\[([\d,]+) lines omitted\]/.exec(marker!)![1]!.replace(/,/g, ''));
    const body = kept.slice(0, kept.indexOf(marker!) + 1 + kept.slice(kept.indexOf(marker!) + 1).indexOf(''));
    const shown = body.filter((line) => line.startsWith('line '));
    // Every kept line is a whole line of the input, and the count adds up.
    for (const line of shown) expect(lines).toContain(line);
    expect(shown.length + omitted).toBe(400);
    expect(Buffer.byteLength(result.text)).toBeLessThanOrEqual(2_000);
    expect(truncateToolContent(result.text, { maxLines: 100, maxBytes: 2_000 }).text).toBe(result.text);
  });
});
