import { clipText, codePointLength } from '../../internal/clip-text.js';
import * as v from '../../validation/light-schema.js';
import { option, parseOptions } from '../../validation/parse-options.js';
import { checkpointCut, cutCheckpoint, leastCut } from '../checkpoint-cut.js';
import { checkedAnchors, checkedText } from '../fidelity-arguments.js';
import { type Anchor, type AnchorCategory, anchorPriority } from './anchor.js';
import { checkAnchors } from './check-anchors.js';
import { PINNED_HEADING, pinnedLine, withoutPinnedSection } from './pinned-section.js';
import { RestatedIndex } from './restated-anchors.js';

/**
 * Options of {@link pinAnchors}.
 *
 * @example
 * ```ts
 * const options: PinAnchorsOptions = { maxChars: 8_000 };
 * ```
 */
export interface PinAnchorsOptions {
  /** Code points the summary, pinned section included, may take. */
  maxChars: number;
}

/**
 * What {@link pinAnchors} wrote.
 *
 * @example
 * ```ts
 * const { text, pinned, lost } = pinAnchors(summary, anchors, { maxChars: 8_000 });
 * ```
 */
export interface PinAnchorsResult {
  /** The summary with a pinned section of the facts it had lost, at most `maxChars` code points. */
  text: string;
  /** Anchors the summary kept by itself. */
  kept: Anchor[];
  /** Anchors added in the pinned section. */
  pinned: Anchor[];
  /** Anchors still lost: what did not fit, lowest priority first to go. */
  lost: Anchor[];
}

function section(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${PINNED_HEADING}\n${lines.join('\n')}`;
}

function join(body: string, pinned: string): string {
  if (!pinned) return body;
  return body ? `${body}\n\n${pinned}` : pinned;
}

/** The shortest pinned form of an anchor: its keys. */
function compactText(anchor: Anchor): string {
  const keys = anchor.keys.filter((key) => key.trim());
  return keys.length > 0 ? keys.join(' ') : anchor.text;
}

/**
 * Code points a fact's text may exceed its keys by and still be pinned whole when facts are
 * shortened: cutting a sentence a few words before its end saves little and loses its point.
 */
const NEAR_KEYS_CHARS = 40;
/** Facts in the user's or the agent's words, keyed by their first words (a tool's facts are keyed by their parts). */
const PROSE = new Set<AnchorCategory>(['goal', 'constraint', 'decision', 'open-item']);

/**
 * The pinned lines: anchors at full length one per line; shortened ones of a category together on
 * one line, those sharing a first key (an error code) as `code @ place, place`, by their keys unless
 * their text is hardly longer. An anchor another one states verbatim is left out.
 */
function pinnedLines(order: readonly Anchor[], short: readonly boolean[], index: RestatedIndex): string[] {
  const lines: string[] = [];
  const groups = new Map<string, Map<string, string[]>>();
  const dropped = index.restated(order);
  order.forEach((anchor, index) => {
    if (dropped.has(anchor)) return;
    if (!short[index]) {
      lines.push(pinnedLine(anchor));
      return;
    }
    const byFirst = groups.get(anchor.category) ?? new Map<string, string[]>();
    groups.set(anchor.category, byFirst);
    const keys = anchor.keys.filter((key) => key.trim());
    const whole =
      PROSE.has(anchor.category) && codePointLength(anchor.text) <= codePointLength(keys.join(' ')) + NEAR_KEYS_CHARS;
    const [first = anchor.text, ...rest] = keys.length === 1 && whole ? [anchor.text] : keys;
    const list = byFirst.get(first) ?? [];
    byFirst.set(first, list);
    if (rest.length > 0) list.push(rest.join(' '));
  });
  for (const [category, byFirst] of groups) {
    const parts = [...byFirst].map(([first, rest]) => (rest.length > 0 ? `${first} @ ${rest.join(', ')}` : first));
    const required = order.every((anchor, index) => anchor.category !== category || !short[index] || anchor.required);
    lines.push(`- ${category}${required ? '!' : ''}: ${parts.join(' · ')}`);
  }
  return lines;
}

/** The pinned lines of the lost anchors: required ones in full, others in full while `full` says so. */
function pinsFor(lost: readonly Anchor[], full: boolean, index: RestatedIndex): string[] {
  return pinnedLines(
    lost,
    lost.map((anchor) => !full && !anchor.required),
    index,
  );
}

/** Anchors by priority (required first), in the order given within a priority. */
function byPriority(anchors: readonly Anchor[]): Anchor[] {
  return anchors
    .map((anchor, index) => ({ anchor, index }))
    .sort((left, right) => anchorPriority(left.anchor) - anchorPriority(right.anchor) || left.index - right.index)
    .map((entry) => entry.anchor);
}

/**
 * Anchors in the order they are kept when not all fit: by priority, the newest first within a
 * priority (so the oldest of the lowest priority goes first).
 */
function byKeepOrder(anchors: readonly Anchor[]): Anchor[] {
  return anchors
    .map((anchor, index) => ({ anchor, index }))
    .sort((left, right) => anchorPriority(left.anchor) - anchorPriority(right.anchor) || right.index - left.index)
    .map((entry) => entry.anchor);
}

const pinAnchorsOptionsSchema = /* @__PURE__ */ (() =>
  v.object({ maxChars: option.tokens() }, { error: 'must be an object: { maxChars }' }))();

/**
 * Carries the facts a summary lost into a pinned section at its end (`## Pinned Facts`, one
 * `- category: fact` line each), within `maxChars` code points. Facts outrank the summary's prose:
 * when the lost facts do not fit beside the whole summary, they are shortened to their keys (grouped
 * by category) and the summary is cut to make room (facts it kept in the cut part are pinned too):
 * whole lines, or a line back to a sentence's end, of what a resumer needs least first (done items,
 * progress, files and commands, the oldest first), then decisions, constraints and the goal, and the
 * next steps, the critical context and the latest request last. Only when the facts alone do not fit are the lowest-priority ones dropped
 * (file reads and commands first, the oldest of a kind before the newer); the first goal and the
 * user's constraints are never dropped. Pure.
 *
 * @param summary - The summary (an earlier pinned section in it is replaced).
 * @param anchors - The facts it must keep, from {@link extractAnchors}.
 * @param options - The budget.
 * @returns The pinned summary and which anchors were kept, pinned or still lost.
 *
 * @example
 * ```ts
 * const anchors = extractAnchors(messages);
 * const { text } = pinAnchors(await mySummarizer(messages), anchors, { maxChars: 8_000 });
 * ```
 */
export function pinAnchors(summary: string, anchors: readonly Anchor[], options: PinAnchorsOptions): PinAnchorsResult {
  checkedAnchors('pinAnchors', anchors);
  const maxChars = Math.floor(parseOptions('pinAnchors', pinAnchorsOptionsSchema, options).maxChars);
  const body = withoutPinnedSection(checkedText('pinAnchors', summary, 'summary')).trimEnd();
  const order = byPriority(anchors);
  // The keys normalized and indexed once: the budget is fitted by pinning many parts of `order`.
  const restated = new RestatedIndex(order);
  // 1. The whole summary with the facts it lost, in full, then shortened.
  const lost = checkAnchors(body, order).lost;
  for (const full of [true, false]) {
    const text = join(body, section(pinsFor(lost, full, restated)));
    if (codePointLength(text) <= maxChars) return outcome(text, anchors, lost);
  }
  // 2. The most facts that fit on their own, by priority and the newest first (all required ones at
  //    least), pinned in their own order.
  const keep = byKeepOrder(anchors);
  let count = keep.length;
  const chosen = (n: number) => {
    const set = new Set(keep.slice(0, n));
    return order.filter((anchor) => set.has(anchor));
  };
  const fitsAlone = (n: number) => codePointLength(section(pinsFor(chosen(n), false, restated))) <= maxChars;
  if (!fitsAlone(keep.filter((anchor) => anchor.required).length)) return makeRoomForRequired(body, anchors, maxChars);
  if (!fitsAlone(count)) {
    let low = keep.filter((anchor) => anchor.required).length;
    let high = count;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (fitsAlone(middle)) low = middle;
      else high = middle - 1;
    }
    count = low;
  }
  const wanted = chosen(count);
  // 3. The least cut of the summary beside which those facts, pinned where it lost them, fit: what a
  //    resumer needs least goes first (old progress, done items), the goal, the next steps and the
  //    critical context last, whole lines or whole sentences.
  const render = (head: string) => {
    const missing = checkAnchors(head, wanted).lost;
    return { text: join(head, section(pinsFor(missing, false, restated))), missing };
  };
  const { text, missing } = leastCut(checkpointCut(body), render, (cut) => codePointLength(cut.text) <= maxChars);
  return outcome(text, anchors, missing);
}

/** Kept, pinned and lost anchors of a final text. */
function outcome(text: string, anchors: readonly Anchor[], pinnedCandidates: readonly Anchor[]): PinAnchorsResult {
  const check = checkAnchors(text, anchors);
  const candidates = new Set(pinnedCandidates);
  return {
    text,
    kept: check.kept.filter((anchor) => !candidates.has(anchor)),
    pinned: check.kept.filter((anchor) => candidates.has(anchor)),
    lost: check.lost,
  };
}

/**
 * The required anchors alone do not fit beside an empty summary in full: pin them by their keys, and
 * keep what of the summary still fits.
 */
function makeRoomForRequired(body: string, anchors: readonly Anchor[], maxChars: number): PinAnchorsResult {
  const required = anchors.filter((anchor) => anchor.required);
  const pinnedText = section(required.map((anchor) => pinnedLine(anchor, compactText(anchor))));
  const room = maxChars - codePointLength(pinnedText) - 2;
  const cut = room > 0 ? cutCheckpoint(body, room) : '';
  return outcome(clipText(join(cut, pinnedText), maxChars, 'head'), anchors, required);
}
