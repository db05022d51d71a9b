import { test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { truncateToolContent } from '../../src/index.js';
import {
  arbitraryToolOutput,
  arbitraryToolOutputLimits,
  checkWellFormedText,
  checkWithinLimits,
} from '../../src/testing/index.js';

const outputs = arbitraryToolOutput();
const limits = arbitraryToolOutputLimits();

test.prop([outputs, limits])(
  'truncateToolContent: the result, notice included, is within every limit',
  (text, limit) => {
    expect(checkWithinLimits(truncateToolContent(text, limit).text, limit)).toEqual([]);
  },
);

test.prop([outputs, limits])('truncateToolContent: truncating the result again returns it unchanged', (text, limit) => {
  const once = truncateToolContent(text, limit);
  const twice = truncateToolContent(once.text, limit);
  expect(twice.text).toBe(once.text);
  expect(twice.truncated).toBe(false);
});

test.prop([outputs, limits])('truncateToolContent: never leaves a lone surrogate', (text, limit) => {
  expect(checkWellFormedText(text)).toEqual([]);
  expect(checkWellFormedText(truncateToolContent(text, limit).text)).toEqual([]);
});

test.prop([outputs, limits])(
  'truncateToolContent: an output that is not truncated comes back unchanged',
  (text, limit) => {
    const result = truncateToolContent(text, limit);
    if (!result.truncated) expect(result.text).toBe(text);
    if (checkWithinLimits(text, limit).length === 0) {
      expect(result.truncated).toBe(false);
      expect(result.text).toBe(text);
    } else {
      expect(result.truncated).toBe(true);
    }
  },
);

test.prop([outputs, limits])('truncateToolContent: the stats describe the input and the result', (text, limit) => {
  const result = truncateToolContent(text, limit);
  expect(result.stats.original.chars).toBe(Array.from(text).length);
  expect(result.stats.result.chars).toBe(Array.from(result.text).length);
  expect(result.stats.result.bytes).toBe(new TextEncoder().encode(result.text).length);
  expect(result.needsSpill).toBe(Array.from(text).length > limit.largeOutputThreshold);
});
