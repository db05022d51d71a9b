import { checkedAnchors, checkedText } from '../fidelity-arguments.js';
import type { Anchor } from './anchor.js';
import { normalizeForCheck } from './normalize.js';

/**
 * What {@link checkAnchors} found.
 *
 * @example
 * ```ts
 * const { kept, lost }: AnchorCheck = checkAnchors(summary, anchors);
 * ```
 */
export interface AnchorCheck {
  /** Anchors every key of which the summary contains. */
  kept: Anchor[];
  /** Anchors the summary lost (a key missing), in the order given. */
  lost: Anchor[];
}

/**
 * Checks which anchored facts a summary kept: an anchor is kept when the summary contains each of
 * its keys, compared without case, quotes, backticks or differences in spacing. Pure; use it on your
 * own summaries (a model's checkpoint, a hand-written note) as well as on ctxkit's.
 *
 * @param summary - The summary text.
 * @param anchors - The facts it must keep, from {@link extractAnchors}.
 * @returns The kept and the lost anchors, each in the order given.
 *
 * @example
 * ```ts
 * const anchors = extractAnchors(messages);
 * const { lost } = checkAnchors(summary, anchors);
 * if (lost.length > 0) console.warn(`The summary lost ${lost.map((anchor) => anchor.text).join('; ')}`);
 * ```
 */
export function checkAnchors(summary: string, anchors: readonly Anchor[]): AnchorCheck {
  checkedAnchors('checkAnchors', anchors);
  const haystack = normalizeForCheck(checkedText('checkAnchors', summary, 'summary'));
  const kept: Anchor[] = [];
  const lost: Anchor[] = [];
  for (const anchor of anchors) {
    const found = anchor.keys.every((key) => {
      const needle = normalizeForCheck(key);
      return needle.length === 0 || haystack.includes(needle);
    });
    (found ? kept : lost).push(anchor);
  }
  return { kept, lost };
}
