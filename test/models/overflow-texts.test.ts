// isContextOverflow against real error texts: at least 97% of the overflows recognised and not one
// look-alike taken for an overflow. The texts and where they come from are in the fixture.
import { describe, expect, it } from 'vitest';
import { isContextOverflow } from '../../src/index.js';
import { type ErrorText, lookAlikes, overflows } from '../fixtures/overflow-texts.js';

/** As an SDK throws it: the text as the message, the HTTP status beside it. */
const thrown = (entry: ErrorText) =>
  Object.assign(new Error(entry.text), entry.status === undefined ? {} : { status: entry.status });

describe('isContextOverflow on providers’ own texts', () => {
  it('has at least 100 overflow texts and 60 look-alikes', () => {
    expect(overflows.length).toBeGreaterThanOrEqual(100);
    expect(lookAlikes.length).toBeGreaterThanOrEqual(60);
  });

  it('recognises at least 97% of the overflows, thrown with their status and as bare text', () => {
    // A bare "413 …" text carries its status in the text; the 413s without one are judged thrown only.
    const missed = overflows.filter((entry) => !isContextOverflow(thrown(entry)));
    const missedBare = overflows.filter((entry) => !isContextOverflow(entry.text));
    const describe = (list: readonly ErrorText[]) => list.map((entry) => `${entry.provider}: ${entry.text}`).join('\n');
    expect(1 - missed.length / overflows.length, describe(missed)).toBeGreaterThanOrEqual(0.97);
    expect(1 - missedBare.length / overflows.length, describe(missedBare)).toBeGreaterThanOrEqual(0.97);
  });

  it('takes no look-alike for an overflow, thrown with its status or as bare text', () => {
    const wrong = lookAlikes.filter((entry) => isContextOverflow(thrown(entry)) || isContextOverflow(entry.text));
    expect(wrong.map((entry) => `${entry.provider}: ${entry.text}`)).toEqual([]);
  });

  it('keeps 413 and a bodiless 400 apart', () => {
    expect(isContextOverflow(Object.assign(new Error('413 status code (no body)'), { status: 413 }))).toBe(true);
    expect(isContextOverflow({ status: 413 })).toBe(true);
    expect(isContextOverflow(Object.assign(new Error('400 status code (no body)'), { status: 400 }))).toBe(false);
    expect(isContextOverflow({ status: 400 })).toBe(false);
  });
});
