// Truncation under line, code-point and byte limits together, on output with CRLF line endings,
// family emoji (ZWJ sequences), flags and combining marks: the result is within every limit,
// idempotent, never splits a grapheme cluster, keeps its markers whole (with a true count of the
// lines they stand for), and keeps the output's line endings.
import { fc, test } from '@fast-check/vitest';
import { type ToolOutputLimits, truncateToolContent } from 'ctxkit';
import { checkWithinLimits } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';

const FAMILY = '👨‍👩‍👧‍👦';
const FLAG = '🇩🇪';
const COMBINING = 'e\u0301\u0302';
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const clusters = (text: string) => [...segmenter.segment(text)].map((entry) => entry.segment);

const piece = fc.constantFrom('a', 'b', 'é', FAMILY, FLAG, COMBINING, '語', ' ', 'x', 'line', 'ok');
const line = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));
/** Numbered lines (no `[`, so every `[` in a result is ctxkit's), joined by `\n` or `\r\n`. */
const output = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 60 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([lines, eol, final]) => lines.map((text, index) => `${index}:${text}`).join(eol) + (final ? eol : ''));
const limits: fc.Arbitrary<Partial<ToolOutputLimits>> = fc.record({
  maxLines: fc.integer({ min: 1, max: 40 }),
  maxChars: fc.integer({ min: 1, max: 400 }),
  maxBytes: fc.integer({ min: 1, max: 600 }),
  truncateMode: fc.constantFrom('head' as const, 'head_tail' as const),
});

const LINE_MARKER = /\.\.\. \[([\d,]+) lines? omitted\] \.\.\./;
const NOTICE = /(?:\r?\n\r?\n|\r?\n| )?\[(?:Output truncated|output truncated)[^\]]*\]$|^\[output truncated\]$/;

/** Checks one result against the properties; returns what is wrong. */
function problems(text: string, limit: Partial<ToolOutputLimits>): string[] {
  const found: string[] = [];
  const result = truncateToolContent(text, limit).text;
  found.push(...checkWithinLimits(result, limit).map((problem) => `limit: ${problem}`));
  if (truncateToolContent(result, limit).text !== result) found.push('not idempotent');
  if (result === text) return found;
  if (/\.\.\. \[(?![\d,]+ lines? omitted\] \.\.\.)/.test(result)) found.push('cut line marker');
  if (/ … \[(?!middle omitted\] … )/.test(result)) found.push('cut inline marker');
  if (/\r(?!\n)/.test(result)) found.push('stray \\r');
  if (text.includes('\r\n') && /(?<!\r)\n/.test(result)) found.push('mixed line endings');
  const body = result.replace(NOTICE, '');
  const known = new Set(clusters(text));
  const own = body.replace(new RegExp(LINE_MARKER.source, 'g'), '').replace(/ … \[middle omitted\] … /g, '');
  for (const cluster of clusters(own)) if (!known.has(cluster)) found.push(`split cluster ${JSON.stringify(cluster)}`);
  if (/beginning and the end/.test(result) && !LINE_MARKER.test(result) && !/middle omitted/.test(result))
    found.push('head and tail joined without a marker');
  const marker = LINE_MARKER.exec(body);
  if (marker) {
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const total = text.split(eol).length - (text.endsWith(eol) ? 1 : 0);
    const shown = (part: string) => part.split(eol).filter((entry) => entry !== '').length;
    const head = shown(body.slice(0, marker.index));
    const tail = shown(body.slice(marker.index + marker[0].length));
    const omitted = Number(marker[1]!.replace(/,/g, ''));
    // Blank lines shown cannot be told from the breaks around them; outputs without them add up exactly.
    if (!text.split(eol).slice(0, -1).includes('') && head + tail + omitted !== total)
      found.push(`marker says ${omitted} omitted, ${head} + ${tail} of ${total} shown`);
  }
  return found;
}

describe('truncateToolContent with CRLF, ZWJ sequences and combining marks', () => {
  test.prop([output, limits], { numRuns: 600 })('holds every property', (text, limit) => {
    expect(problems(text, limit)).toEqual([]);
  });

  // Cases the properties found before the fix, kept so a random seed never has to find them again.
  const e = COMBINING;
  it.each([
    [
      'a later limit cut into the line marker',
      `0:${e}bline  ax ${e}x\r\n1:${FAMILY}語${e}語 b\r\n2:aé${FAMILY}${FAMILY}${e}b\r\n3:${e}${e}é${FAMILY}b\r\n4:x${FAMILY}${e}${e}${e}a語\r\n5:line語語linelinex${e} \r\n6:éaa line語${FLAG}\r\n7:${FLAG} ${FLAG}${e}b${FAMILY}${FLAG} `,
      { maxLines: 7, maxChars: 71, maxBytes: 491, truncateMode: 'head_tail' as const },
    ],
    [
      'the count was off by one once the tail was cut',
      `0:linex${e}bline${FAMILY} line語\n1:${FAMILY}${e}${e}b${e}aba é\n2:${e}${FAMILY}語line${FAMILY}${e}a\n3:${FAMILY}lineline\n4:line語 x${FLAG}aé${FLAG}line\n5:${FAMILY}${FAMILY}a${FAMILY}\n6:${FAMILY}${FLAG}語\n7:`,
      { maxLines: 5, maxChars: 76, maxBytes: 96, truncateMode: 'head_tail' as const },
    ],
    [
      'a stray \\r before the notice',
      `0:ébx\r\n1:\r\n2:${FLAG}語 aa ${FAMILY}${e}line\r\n3:${e}line xa\r\n4:bline語語${e}lineb  \r\n5: line${e}${FAMILY}\r\n6:語${FAMILY}é\r\n7:語line語語${e}\r\n8:語\r\n9:bline ${e}aéline${FLAG}`,
      { maxLines: 6, maxChars: 203, maxBytes: 7, truncateMode: 'head_tail' as const },
    ],
    [
      'a combining mark cut off its letter',
      `0:éa${e}é line${FAMILY}\r\n1:éé語x\r\n2:\r\n3:\r\n4:${e}\r\n5: ${e}${FAMILY}語a`,
      { maxLines: 26, maxChars: 225, maxBytes: 9, truncateMode: 'head' as const },
    ],
    [
      'a \\n notice separator in CRLF output',
      `0:bline${FAMILY}語bline\r\n1:\r\n2:aa語x x\r\n3:xéé${e}${FAMILY}語é ${e}b${e}`,
      { maxLines: 28, maxChars: 41, maxBytes: 594, truncateMode: 'head_tail' as const },
    ],
  ])('%s', (_, text, limit) => {
    expect(problems(text, limit)).toEqual([]);
  });

  it('keeps a family emoji whole at a byte cut', () => {
    const text = `${'a'.repeat(10)}${FAMILY.repeat(20)}`;
    for (let maxBytes = 18; maxBytes < 120; maxBytes++) {
      const result = truncateToolContent(text, { maxBytes, truncateMode: 'head' }).text.replace(NOTICE, '');
      for (const cluster of clusters(result)) expect(['a', FAMILY]).toContain(cluster);
    }
  });
});
