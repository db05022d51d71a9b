import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { clipText } from '../../src/internal/clip-text.js';

/** The clipping as it was first written: the text split into code points, head and tail joined back. */
function clipByCodePoints(text: string, max: number, mode: 'head' | 'head_tail'): string {
  if (text.length <= max) return text;
  const points = Array.from(text);
  if (points.length <= max) return text;
  const marker = '\n[…]\n';
  if (mode === 'head' || max < marker.length + 2) return points.slice(0, max).join('');
  const room = max - marker.length;
  const head = Math.ceil(room / 2);
  const tail = room - head;
  return points.slice(0, head).join('') + marker + (tail > 0 ? points.slice(points.length - tail).join('') : '');
}

// Text of ASCII, astral characters and lone surrogates of either half, where a split would show.
const unit = fc.constantFrom('a', 'b', ' ', '\n', 'é', '😀', '𝒜', '\ud83d', '\ude00', '\udbff');
const text = fc.array(unit, { maxLength: 60 }).map((units) => units.join(''));
const max = fc.oneof(fc.integer({ min: 0, max: 70 }), fc.double({ min: 0, max: 70, noNaN: true }));

test.prop([text, max, fc.constantFrom('head' as const, 'head_tail' as const)], { numRuns: 600 })(
  'clipText cuts by index exactly where splitting into code points cut',
  (value, limit, mode) => {
    expect(clipText(value, limit, mode)).toBe(clipByCodePoints(value, limit, mode));
  },
);
