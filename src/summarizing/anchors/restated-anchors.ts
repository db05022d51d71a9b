import type { Anchor } from './anchor.js';
import { normalizeForCheck } from './normalize.js';

/** The keys of an anchor as the check compares them. */
function normalizedKeys(anchor: Anchor): string[] {
  return anchor.keys.map(normalizeForCheck).filter((key) => key.length > 0);
}

/** Whether every key of `inner` is within a key of `outer`: pinning `outer` keeps `inner` too. */
function covers(outer: readonly string[], inner: readonly string[]): boolean {
  return inner.every((key) => outer.some((other) => other.includes(key)));
}

/** Code units of the pieces keys are indexed by: a key within another shares each of its pieces. */
const GRAM = 3;

/** The piece of `GRAM` code units of `key` at `start`, as one number (three 16-bit code units). */
function gramAt(key: string, start: number): number {
  return (key.charCodeAt(start) * 0x10000 + key.charCodeAt(start + 1)) * 0x10000 + key.charCodeAt(start + 2);
}

/**
 * Which anchors (by position, ascending) have a key holding each piece of `GRAM` code units: the
 * anchors whose keys can hold a given key are among those listed under any one of its pieces.
 */
function gramIndex(keys: readonly (readonly string[])[]): Map<number, number[]> {
  const index = new Map<number, number[]>();
  keys.forEach((own, at) => {
    for (const key of own) {
      for (let start = 0; start + GRAM <= key.length; start++) {
        const gram = gramAt(key, start);
        const list = index.get(gram);
        if (list === undefined) index.set(gram, [at]);
        else if (list[list.length - 1] !== at) list.push(at);
      }
    }
  });
  return index;
}

/**
 * The anchors that may cover keys `own`: those with a key holding the rarest piece of its longest key
 * (every anchor when that key is shorter than a piece). Any anchor that covers `own` is among them.
 */
function candidates(own: readonly string[], index: Map<number, number[]>, all: readonly number[]): readonly number[] {
  const longest = own.reduce((best, key) => (key.length > best.length ? key : best), '');
  if (longest.length < GRAM) return all;
  let rarest: readonly number[] | undefined;
  for (let start = 0; start + GRAM <= longest.length; start++) {
    const list = index.get(gramAt(longest, start)) ?? [];
    if (rarest === undefined || list.length < rarest.length) rarest = list;
    if (rarest.length === 0) break;
  }
  return rarest ?? all;
}

/**
 * The anchors another one in the list states verbatim (`still failing: \`cargo test\`` beside the
 * `cargo test @ exit 101 …` command): their keys are all within its keys, so it keeps them. Of two
 * anchors with the same keys, the first stays. Required anchors always stay.
 *
 * Near-linear: keys are indexed by their pieces of three characters, so an anchor is compared only
 * with the anchors sharing the rarest piece of its longest key (all of them for a key shorter than
 * that), not with every other one.
 *
 * @param order - The anchors, in the order they are pinned.
 * @returns The anchors to leave out.
 *
 * @internal
 */
export function restatedAnchors(order: readonly Anchor[]): Set<Anchor> {
  const keys = order.map(normalizedKeys);
  const index = gramIndex(keys);
  const all = order.map((_, at) => at);
  const dropped = new Set<Anchor>();
  order.forEach((anchor, at) => {
    const own = keys[at]!;
    if (anchor.required || own.length === 0) return;
    const stated = candidates(own, index, all).some((other) => {
      const outer = keys[other]!;
      return other !== at && outer.length > 0 && covers(outer, own) && (other < at || !covers(own, outer));
    });
    if (stated) dropped.add(anchor);
  });
  return dropped;
}
