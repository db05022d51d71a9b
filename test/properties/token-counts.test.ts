import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { TokenCounts } from '../../src/manager/internal/token-counts.js';

/** Counts as counters give them: mostly small integers, some past 16 and 32 bits, some fractional. */
const arbitraryCount = fc.oneof(
  { weight: 6, arbitrary: fc.nat({ max: 70_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 2 ** 33 }) },
  { weight: 1, arbitrary: fc.double({ min: 0, max: 1e6, noNaN: true }) },
);

test.prop([fc.array(fc.tuple(fc.nat({ max: 300 }), arbitraryCount), { maxLength: 200 })])(
  'token counts read back exactly as set, whatever width they needed and wherever they were set',
  (writes) => {
    const counts = new TokenCounts();
    const expected = new Map<number, number>();
    for (const [index, tokens] of writes) {
      counts.set(index, tokens);
      expected.set(index, tokens);
      for (const [at, value] of expected) expect(counts.at(at)).toBe(value);
    }
    expect(counts.at(301)).toBe(0);
  },
);
