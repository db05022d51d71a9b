/** Anchored facts: what a checkpoint must keep, as data. */
import * as v from '../../validation/light-schema.js';

/**
 * The kinds of fact a checkpoint must keep, in the order they are pinned (and the reverse of the
 * order they are dropped in when the summary budget is tight).
 *
 * @example
 * ```ts
 * const category: AnchorCategory = 'failing-test';
 * ```
 */
export type AnchorCategory =
  | 'goal'
  | 'constraint'
  | 'error'
  | 'failing-test'
  | 'file-changed'
  | 'identifier'
  | 'decision'
  | 'open-item'
  | 'command'
  | 'match'
  | 'file-read'
  | 'recall';

/**
 * Every {@link AnchorCategory}, highest priority first.
 *
 * @example
 * ```ts
 * for (const category of ANCHOR_CATEGORIES) console.log(category);
 * ```
 */
export const ANCHOR_CATEGORIES: readonly AnchorCategory[] = [
  'goal',
  'constraint',
  'error',
  'failing-test',
  'file-changed',
  'identifier',
  'decision',
  'open-item',
  'command',
  'match',
  'file-read',
  'recall',
];

/**
 * One fact a checkpoint must keep.
 *
 * @example
 * ```ts
 * const anchor: Anchor = {
 *   category: 'error',
 *   text: "src/a.ts:12:5 TS2345: Argument of type 'string' is not assignable…",
 *   keys: ['TS2345', 'src/a.ts:12:5'],
 * };
 * ```
 */
export interface Anchor {
  /** What kind of fact it is. */
  category: AnchorCategory;
  /** The fact as a pinned line writes it; it contains every key. */
  text: string;
  /**
   * What a summary must contain for the fact to count as kept: every key, compared without case,
   * quotes, backticks or differences in spacing.
   */
  keys: string[];
  /** Never dropped from a pinned section, whatever the budget: the first goal and the user's constraints. */
  required?: boolean;
  /**
   * The runs that reported the fact (an error, a failing test, a grep match, a file git reports
   * changed): a shell command as its `command` anchor's key, or a tool that runs none as its name and
   * the files or address it names (`typecheck`, `read src/a.ts`). The next run of one of them states
   * its facts afresh: a fact it no longer reports is no longer its; the fact leaves once none of them
   * reports it.
   */
  sources?: string[];
}

/**
 * Validates an {@link Anchor} (anchors carried on a summary message come back from storage untyped).
 *
 * @example
 * ```ts
 * anchorSchema.safeParse({ category: 'goal', text: 'Ship the parser', keys: ['ship the parser'] }).success; // true
 * ```
 *
 * @internal
 */
export const anchorSchema: v.Schema<Anchor> =
  // Built by a pure call: a bundle that reads only ANCHOR_CATEGORIES (the zod schemas) drops it.
  /* @__PURE__ */ (() =>
    v.object({
      category: v.enumOf(ANCHOR_CATEGORIES as [AnchorCategory, ...AnchorCategory[]]),
      text: v.string(),
      keys: v.array(v.string()),
      required: v.boolean().optional(),
      sources: v.array(v.string()).optional(),
    }))();

/**
 * The pin order of an anchor: lower is pinned first and dropped last. Required anchors come first;
 * a later request of the user's (a goal that is not required) ranks after errors and failing tests.
 * @internal
 */
export function anchorPriority(anchor: Anchor): number {
  if (anchor.required) return -1;
  if (anchor.category === 'goal') return ANCHOR_CATEGORIES.indexOf('failing-test') + 0.5;
  return ANCHOR_CATEGORIES.indexOf(anchor.category);
}

/** One identity per fact: its category and keys. @internal */
export function anchorIdentity(anchor: Anchor): string {
  return `${anchor.category}\u0000${anchor.keys.join('\u0000').toLowerCase()}`;
}
