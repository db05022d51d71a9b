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
 * The keys of a list of anchors as the check compares them, indexed by their pieces of `GRAM` code
 * units, for finding the anchors another one states verbatim in that list or in any part of it:
 * built once for the facts of a summary, asked many times while their pinned section is fitted to
 * the budget (the keys are normalized once, not on every ask).
 *
 * @internal
 */
export class RestatedIndex {
  /** Each anchor's normalized keys. */
  private readonly keysOf = new Map<Anchor, string[]>();
  /** The anchors with a key holding each piece, in the order they were added. */
  private readonly grams = new Map<number, Anchor[]>();
  /**
   * Each anchor's list from {@link grams} to compare it with (null: every anchor). A list only grows
   * as anchors are added, so the one chosen stays a list of every anchor that can state it.
   */
  private readonly candidatesOf = new Map<Anchor, readonly Anchor[] | null>();

  /** @param anchors - The anchors to index (others are added when asked about). */
  constructor(anchors: readonly Anchor[]) {
    for (const anchor of anchors) this.add(anchor);
  }

  private add(anchor: Anchor): string[] {
    const known = this.keysOf.get(anchor);
    if (known !== undefined) return known;
    const keys = normalizedKeys(anchor);
    this.keysOf.set(anchor, keys);
    for (const key of keys) {
      for (let start = 0; start + GRAM <= key.length; start++) {
        const gram = gramAt(key, start);
        const list = this.grams.get(gram);
        if (list === undefined) this.grams.set(gram, [anchor]);
        else if (list[list.length - 1] !== anchor) list.push(anchor);
      }
    }
    return keys;
  }

  /**
   * The anchors with a key holding the rarest piece of any of `keys`, the keys of an added anchor
   * (every key of an anchor that states them holds each of their pieces), or undefined when no key is
   * as long as a piece.
   */
  private rarest(keys: readonly string[]): readonly Anchor[] | undefined {
    let rarest: readonly Anchor[] | undefined;
    for (const key of keys) {
      for (let start = 0; start + GRAM <= key.length; start++) {
        // Listed: the anchor holding `keys` was added, so each of their pieces has its list.
        const list = this.grams.get(gramAt(key, start))!;
        if (rarest === undefined || list.length < rarest.length) rarest = list;
      }
    }
    return rarest;
  }

  /**
   * The anchors another one in `order` states verbatim (`still failing: \`cargo test\`` beside the
   * `cargo test @ exit 101 …` command): their keys are all within its keys, so it keeps them. Of two
   * anchors with the same keys, the first stays. Required anchors always stay.
   *
   * Near-linear: an anchor is compared only with the anchors sharing the rarest piece of its keys
   * (every one when all its keys are shorter than a piece), not with every other one.
   *
   * @param order - Anchors, in the order they are pinned.
   * @returns The anchors to leave out.
   */
  restated(order: readonly Anchor[]): Set<Anchor> {
    const keys = order.map((anchor) => this.add(anchor));
    // An anchor listed twice is compared at its first place: where a later place states a fact, the
    // first does too (it is before it when the later is, and the keys are the same).
    const firstAt = new Map<Anchor, number>();
    order.forEach((anchor, at) => {
      if (!firstAt.has(anchor)) firstAt.set(anchor, at);
    });
    const states = (other: number, at: number, own: readonly string[]) => {
      const outer = keys[other]!;
      return other !== at && outer.length > 0 && covers(outer, own) && (other < at || !covers(own, outer));
    };
    const dropped = new Set<Anchor>();
    // The same keys listed before: that anchor states this one (a fact met again, often).
    const seen = new Set<string>();
    order.forEach((anchor, at) => {
      const own = keys[at]!;
      if (own.length === 0) return;
      const signature = own.join('\n');
      const repeated = seen.has(signature);
      seen.add(signature);
      if (anchor.required) return;
      if (repeated) {
        dropped.add(anchor);
        return;
      }
      let candidates = this.candidatesOf.get(anchor);
      if (candidates === undefined) {
        candidates = this.rarest(own) ?? null;
        this.candidatesOf.set(anchor, candidates);
      }
      const stated =
        candidates === null
          ? keys.some((_, other) => states(other, at, own))
          : candidates.some((candidate) => {
              const other = firstAt.get(candidate);
              return other !== undefined && states(other, at, own);
            });
      if (stated) dropped.add(anchor);
    });
    return dropped;
  }
}

/**
 * {@link RestatedIndex.restated} of one list, indexed for that one ask.
 *
 * @param order - The anchors, in the order they are pinned.
 * @returns The anchors to leave out.
 *
 * @internal
 */
export function restatedAnchors(order: readonly Anchor[]): Set<Anchor> {
  return new RestatedIndex(order).restated(order);
}
