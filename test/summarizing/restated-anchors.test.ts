// The restated anchors (a fact another pinned fact states verbatim) found through a key index give
// exactly what comparing every fact with every other gave: the old quadratic algorithm is kept here
// as the oracle and run against the new one on generated lists and on the facts of real sessions.

import { fc, test } from '@fast-check/vitest';
import { ANCHOR_CATEGORIES, type Anchor, extractAnchors, pinAnchors } from 'ctxkit/summarizing';
import { describe, expect, it } from 'vitest';
import { normalizeForCheck } from '../../src/summarizing/anchors/normalize.js';
import { RestatedIndex, restatedAnchors } from '../../src/summarizing/anchors/restated-anchors.js';
import { fidelitySessions } from '../fixtures/fidelity-sessions.js';
import { batchMessages } from '../fixtures/real-batch/batch.js';

/** The algorithm before the index, verbatim: every anchor compared with every other. */
function oracle(order: readonly Anchor[]): Set<Anchor> {
  const normalizedKeys = (anchor: Anchor) => anchor.keys.map(normalizeForCheck).filter((key) => key.length > 0);
  const covers = (outer: readonly string[], inner: readonly string[]) =>
    inner.every((key) => outer.some((other) => other.includes(key)));
  const keys = order.map(normalizedKeys);
  const dropped = new Set<Anchor>();
  order.forEach((anchor, index) => {
    const own = keys[index]!;
    if (anchor.required || own.length === 0) return;
    const stated = keys.some(
      (outer, at) => at !== index && outer.length > 0 && covers(outer, own) && (at < index || !covers(own, outer)),
    );
    if (stated) dropped.add(anchor);
  });
  return dropped;
}

/** The positions of the dropped anchors, to compare two results. */
function positions(order: readonly Anchor[], dropped: Set<Anchor>): number[] {
  return order.flatMap((anchor, at) => (dropped.has(anchor) ? [at] : []));
}

/**
 * Keys from a few pieces (short ones, spacing, quotes, underscores, case, composed and decomposed
 * accents, a character outside the BMP), so that keys within keys, equal keys after normalizing and
 * keys shorter than the index's pieces are all common.
 */
const piece = fc.constantFrom(
  'a',
  'ab',
  'abc',
  'cargo test',
  'test',
  'TS2345',
  'src/a.ts:12',
  'src/a.ts',
  '_',
  '`',
  ' ',
  '  ',
  'É',
  'E\u0301',
  'e',
  '😀',
  'exit 101',
  'x',
);
const key = fc.array(piece, { minLength: 0, maxLength: 4 }).map((parts) => parts.join(''));
const anchor = fc.record({
  category: fc.constantFrom(...ANCHOR_CATEGORIES),
  text: fc.string({ maxLength: 8 }),
  keys: fc.array(key, { maxLength: 4 }),
  required: fc.option(fc.boolean(), { nil: undefined }),
}) as fc.Arbitrary<Anchor>;

/** Facts of real sessions: the scripted fidelity sessions and the batch recorded by running real tools. */
function realLists(): Anchor[][] {
  const lists = fidelitySessions().map((session) => extractAnchors(session.rounds.flatMap((round) => round.messages)));
  lists.push(extractAnchors(batchMessages()));
  return lists;
}

describe('restated anchors through the key index', () => {
  test.prop([fc.array(anchor, { maxLength: 40 })], { numRuns: 500 })(
    'drops exactly the anchors the pairwise comparison drops',
    (order) => {
      expect(positions(order, restatedAnchors(order))).toEqual(positions(order, oracle(order)));
    },
  );

  test.prop(
    [
      fc.array(anchor, { maxLength: 30 }),
      fc.array(fc.array(fc.nat(), { maxLength: 30 }), { maxLength: 6 }),
      fc.array(anchor, { maxLength: 3 }),
    ],
    { numRuns: 300 },
  )(
    'one index asked about parts of its list, in any order, with repeats and strangers, answers as the pairwise comparison',
    (anchors, picks, strangers) => {
      const index = new RestatedIndex(anchors);
      for (const pick of picks) {
        const pool = [...anchors, ...strangers];
        const order = pool.length === 0 ? [] : pick.map((at) => pool[at % pool.length]!);
        expect(positions(order, index.restated(order))).toEqual(positions(order, oracle(order)));
      }
    },
  );

  it('drops exactly what the pairwise comparison drops on the facts of real sessions, some of them', () => {
    const lists = realLists();
    expect(lists.every((list) => list.length > 0)).toBe(true);
    let dropped = 0;
    for (const list of lists) {
      for (const order of [list, [...list].reverse(), [...list, ...list.map((fact) => ({ ...fact }))]]) {
        const expected = positions(order, oracle(order));
        expect(positions(order, restatedAnchors(order))).toEqual(expected);
        const index = new RestatedIndex(list);
        const half = order.filter((_, at) => at % 2 === 0);
        expect(positions(half, index.restated(half))).toEqual(positions(half, oracle(half)));
        dropped += expected.length;
      }
    }
    expect(dropped).toBeGreaterThan(0);
  });

  it('leaves a fact out of the pinned section when another lost fact states it', () => {
    const anchors: Anchor[] = [
      { category: 'command', text: 'cargo test @ exit 101', keys: ['cargo test', 'exit 101'] },
      { category: 'open-item', text: 'still failing: `cargo test`', keys: ['`cargo test`'] },
    ];
    const { text } = pinAnchors('', anchors, { maxChars: 8_000 });
    expect(text).toContain('cargo test');
    expect(text).not.toContain('still failing');
  });
});
