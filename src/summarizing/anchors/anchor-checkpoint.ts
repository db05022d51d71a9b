/** The anchoring step of a compaction: plan the reserve before the summarizer call, pin after. Internal. */
import { codePointLength } from '../../internal/clip-text.js';
import type { Message } from '../../types.js';
import type { Anchor } from './anchor.js';
import { extractAnchors } from './extract-anchors.js';
import { type PinAnchorsResult, pinAnchors } from './pin-anchors.js';

/** Code points per token a summary budget is read as (the heuristic summarizer's rule). */
const CHARS_PER_TOKEN = 4;
/** The most of a summary budget held back from the summarizer for the pinned section. */
const MAX_RESERVE = 0.3;

/** What a compaction anchors, and how much of the summary budget it keeps for pins. @internal */
export interface AnchorPlan {
  anchors: Anchor[];
  /** The budget of the whole checkpoint, pinned section included, in code points. */
  maxChars: number;
  /** Tokens to ask the summarizer for: the budget less a reserve for the pinned section. */
  requestTokens: number;
}

/**
 * Reads the anchors of the messages a compaction replaces (the earlier summary's included) and sizes
 * the reserve for their pinned section: what their keys take, at most 30% of the budget. The
 * checkpoint may take the budget, but no more than half the tokens it replaces, so pinning never
 * makes a compaction fail to shrink the context.
 *
 * @internal
 */
export function planAnchors(
  replaced: readonly Message[],
  budget: { tokens: number; minTokens: number; replacedTokens: number },
): AnchorPlan {
  const { tokens: budgetTokens, minTokens, replacedTokens } = budget;
  const anchors = extractAnchors(replaced);
  const maxChars = Math.min(budgetTokens, Math.floor(replacedTokens / 2)) * CHARS_PER_TOKEN;
  let keys = 0;
  for (const anchor of anchors) keys += codePointLength(anchor.keys.join(' ')) + 4;
  const reserve = Math.min(Math.ceil(keys / CHARS_PER_TOKEN), Math.floor(budgetTokens * MAX_RESERVE));
  return { anchors, maxChars, requestTokens: Math.max(Math.min(minTokens, budgetTokens), budgetTokens - reserve) };
}

/**
 * The checkpoint with what it lost pinned, within the budget, or within the summary's own length when
 * the summarizer wrote more than the budget (pinning never makes a summary longer than that, and cuts
 * the summarizer's text only to make room for facts). @internal
 */
export function anchorCheckpoint(summary: string, plan: AnchorPlan): PinAnchorsResult {
  return pinAnchors(summary, plan.anchors, { maxChars: Math.max(plan.maxChars, codePointLength(summary)) });
}
