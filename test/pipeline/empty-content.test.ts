import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { hasNonWhitespace } from '../../src/pipeline/empty-content.js';

// Every character `\s` matches, a few it does not (some near them), and a surrogate half.
const WHITESPACE = '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2005\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
const OTHERS = 'a.\u0008\u000e\u001f\u0085\u009f\u180e\u200b\u200c\u2027\u202a\u2060\u3001\ufefe\ud83d';
const text = fc.array(fc.constantFrom(...WHITESPACE, ...OTHERS), { maxLength: 8 }).map((units) => units.join(''));

test.prop([text], { numRuns: 500 })('hasNonWhitespace answers as /\\S/.test', (value) => {
  expect(hasNonWhitespace(value)).toBe(/\S/.test(value));
});

test('hasNonWhitespace: every unit /\\s/ matches, and none else, counts as whitespace', () => {
  for (let code = 0; code <= 0xffff; code++) {
    const unit = String.fromCharCode(code);
    expect(hasNonWhitespace(unit)).toBe(/\S/.test(unit));
  }
});
