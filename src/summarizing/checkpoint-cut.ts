// Shortening a checkpoint to a budget by what a resumer needs least: old progress and done items
// go first, the goal, the latest request, the next steps and the critical context last; lines go
// whole, and a line is shortened only back to a sentence's end. Internal.

import { codePointLength, codePoints, wordBoundary } from '../internal/clip-text.js';

/**
 * How late a section's lines are cut, by title (lower-cased, without `#`): the higher, the later.
 * A line naming the latest request outranks them all; titles not listed rank with `OTHER`.
 */
const RANKS: readonly (readonly [RegExp, number])[] = [
  [/^(done|progress|completed|files?\b|commands?\b|what was tried|relevant files|tools?\b)/, 0],
  [/^(in progress|key decisions|decisions|what was learned|why it was left)/, 1],
  [/^(constraints|preferences|blocked|user'?s? constraints)/, 2],
  [/^(goal|task|objective)/, 3],
  [/^(next steps?|critical context|latest request|current request)/, 5],
];
const OTHER = 1;
/** The first line of the goal: cut after the goal's other lines and before the next steps. */
const FIRST_GOAL_RANK = 4;
/** A line that names the latest request, in any section: cut last of all. */
const LATEST_REQUEST_RANK = 6;
const LATEST_REQUEST = /latest request|current request/i;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
const SENTENCE_END = /[.!?…](?=["')\]]*(\s|$))|[。！？]/g;

/** A line the cut may remove or shorten. */
interface Cuttable {
  /** Index among the text's lines. */
  line: number;
  rank: number;
  /** Document order within the rank: cut in ascending order. */
  order: number;
  /** Code points of the line, its line break included. */
  length: number;
  /** Before any heading (an unstructured summary): a line without a sentence end is cut between words. */
  loose: boolean;
}

/** A checkpoint's text, and the way to cut it by a number of code points. @internal */
export interface CheckpointCut {
  /** Code points the cut can remove: every line but the headings, then the headings from the end. */
  readonly removable: number;
  /** The text with `removed` code points (at least) taken away, in the cut's order. */
  at(removed: number): string;
}

function rankOf(title: string | undefined): number {
  if (title === undefined) return OTHER;
  const normalized = title.toLowerCase().replace(/^[\d.\s]+/, '');
  return RANKS.find(([pattern]) => pattern.test(normalized))?.[1] ?? OTHER;
}

/**
 * The head of a line that ends a sentence and takes at most `max` code points, or `''`; when `loose`,
 * else the head that ends between words (see `wordBoundary`).
 */
function sentenceHead(line: string, max: number, loose: boolean): string {
  const head = codePoints(line).slice(0, max).join('');
  if (loose) return head.slice(0, wordBoundary(head)).trimEnd();
  let end = -1;
  for (const match of head.matchAll(SENTENCE_END)) end = match.index + match[0].length;
  return end > 0 && head.slice(0, end).trim() && !/^\s*([-*]|\d+\.)\s*$/.test(head.slice(0, end))
    ? head.slice(0, end)
    : '';
}

/**
 * Plans the cut of a checkpoint. Lines are cut in this order: done items, progress, files and
 * commands (the oldest first), then decisions and work in progress, then constraints, then the
 * goal's later lines and its first, and last the next steps and critical context, a line naming the
 * latest request after everything else. Lines before the first heading go from the end (an
 * unstructured summary keeps its beginning, cut between words as a last resort). A line under a
 * heading is removed whole, or shortened to the sentences that fit when at least one does. Headings and blank lines are kept until every other line is gone;
 * only then is the rest cut from its end.
 *
 * @internal
 */
export function checkpointCut(text: string): CheckpointCut {
  const lines = text.split('\n');
  const cuttable: Cuttable[] = [];
  let title: string | undefined;
  let preamble = 0;
  lines.forEach((line, index) => {
    const heading = HEADING.exec(line);
    if (heading) {
      title = heading[1] ?? '';
      return;
    }
    if (!line.trim()) return;
    let rank = rankOf(title);
    if (LATEST_REQUEST.test(line)) rank = LATEST_REQUEST_RANK;
    else if (title !== undefined && rank === 3 && !cuttable.some((entry) => entry.rank === FIRST_GOAL_RANK))
      rank = FIRST_GOAL_RANK;
    // Before any heading, the last line goes first.
    const order = title === undefined ? -++preamble : index;
    cuttable.push({ line: index, rank, order, length: codePointLength(line) + 1, loose: title === undefined });
  });
  cuttable.sort((left, right) => left.rank - right.rank || left.order - right.order);
  const contentLength = cuttable.reduce((sum, entry) => sum + entry.length, 0);
  const removeAt = (removed: number): string[] => {
    const out: (string | undefined)[] = [...lines];
    let left = removed;
    for (const entry of cuttable) {
      if (left <= 0) break;
      if (entry.length <= left) {
        out[entry.line] = undefined;
        left -= entry.length;
        continue;
      }
      // Shortened to the sentences that fit, or removed when none does.
      const head = sentenceHead(lines[entry.line]!, entry.length - 1 - left, entry.loose);
      out[entry.line] = head || undefined;
      break;
    }
    return out.filter((line): line is string => line !== undefined);
  };
  const skeleton = removeAt(contentLength).join('\n');
  const skeletonPoints = codePoints(skeleton);
  return {
    removable: contentLength + skeletonPoints.length,
    at(removed) {
      if (removed <= 0) return text;
      // Blank lines left at either end by the cut go too.
      if (removed < contentLength) return removeAt(removed).join('\n').replace(/^\n+/, '').trimEnd();
      return skeletonPoints
        .slice(0, Math.max(0, skeletonPoints.length - (removed - contentLength)))
        .join('')
        .trimEnd();
    },
  };
}

/**
 * The smallest cut of `cut` for which `fits` holds (the whole text removed when nothing else
 * does); `fits` should hold more often the more is removed.
 *
 * @internal
 */
export function leastCut<T>(cut: CheckpointCut, render: (text: string) => T, fits: (value: T) => boolean): T {
  let low = 0;
  let high = cut.removable;
  const first = render(cut.at(0));
  if (fits(first)) return first;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (fits(render(cut.at(middle)))) high = middle;
    else low = middle + 1;
  }
  return render(cut.at(low));
}

/**
 * A checkpoint within `maxChars` code points, cut as {@link checkpointCut} says.
 *
 * @internal
 */
export function cutCheckpoint(text: string, maxChars: number): string {
  if (codePointLength(text) <= maxChars) return text;
  return leastCut(
    checkpointCut(text),
    (cut) => cut,
    (cut) => codePointLength(cut) <= maxChars,
  );
}
