/** The anchoring step of a compaction: plan the budgets before the summarizer call, pin after. Internal. */
import { codePointLength } from '../../internal/clip-text.js';
import { summaryText } from '../../messages/summary-text.js';
import type { Message } from '../../types.js';
import type { Anchor } from './anchor.js';
import { extractAnchors } from './extract-anchors.js';
import { type PinAnchorsResult, pinAnchors } from './pin-anchors.js';
import { PINNED_HEADING, withoutPinnedSection } from './pinned-section.js';

/** Code points per token a summary budget is read as (the heuristic summarizer's rule). */
const CHARS_PER_TOKEN = 4;
/** The most of a summary budget the summarizer is asked to leave for the pinned section. */
const MAX_RESERVE = 0.3;
/**
 * The checkpoint never takes more than the pinned facts an earlier checkpoint carried and this share
 * of the rest of the tokens it replaces.
 */
const MAX_SHARE_OF_REPLACED = 0.9;

/** What a compaction anchors, and the budgets of its summary and of its pinned facts. @internal */
interface AnchorPlan {
  anchors: Anchor[];
  /** The budget of the whole checkpoint, pinned section included, in code points. */
  maxChars: number;
  /** Tokens to ask the summarizer for: the budget less a reserve for the pinned section. */
  requestTokens: number;
}

/** Code points of the pinned sections of the earlier checkpoints among `replaced`. */
function carriedPinnedChars(replaced: readonly Message[]): number {
  let chars = 0;
  for (const message of replaced) {
    const text = summaryText(message);
    if (text === undefined || !text.includes(PINNED_HEADING)) continue;
    chars += Math.max(0, codePointLength(text) - codePointLength(withoutPinnedSection(text)));
  }
  return chars;
}

/**
 * Reads the anchors of the messages a compaction replaces (the earlier summary's included) and sets
 * the budgets. The summary's prose may take `tokens`, but no more than half of the tokens it replaces
 * apart from the pinned facts an earlier checkpoint carried: prose halves from round to round. The
 * pinned facts may take `tokens` and `pinnedTokens` besides, whatever was replaced (facts outrank
 * prose, so they may take the prose's room too), so their room does not shrink with the rounds: a fact
 * leaves the pin when it is resolved (see `extractAnchors`), not because the context it sits in was
 * compacted again. The whole checkpoint stays under the pinned facts it carried and 90% of the rest
 * of what it replaces, so it is always smaller than what it replaces and pinning never makes a
 * compaction fail to shrink the context.
 *
 * @internal
 */
export function planAnchors(
  replaced: readonly Message[],
  budget: { tokens: number; pinnedTokens: number; minTokens: number; replacedTokens: number },
): AnchorPlan {
  const { tokens: budgetTokens, pinnedTokens, minTokens, replacedTokens } = budget;
  const anchors = extractAnchors(replaced);
  const carriedTokens = Math.ceil(carriedPinnedChars(replaced) / CHARS_PER_TOKEN);
  const proseTokens = Math.min(budgetTokens, Math.floor(Math.max(0, replacedTokens - carriedTokens) / 2));
  // What the pinned section takes with every fact in full, and with every fact by its keys.
  let full = PINNED_HEADING.length + 2;
  let keys = full;
  for (const anchor of anchors) {
    full += codePointLength(anchor.text) + anchor.category.length + 5;
    keys += codePointLength(anchor.keys.join(' ')) + 4;
  }
  const room = budgetTokens + pinnedTokens;
  const pinTokens = Math.min(room, Math.ceil(full / CHARS_PER_TOKEN));
  const shrunk = carriedTokens + Math.floor(Math.max(0, replacedTokens - carriedTokens) * MAX_SHARE_OF_REPLACED);
  const total = Math.min(room, proseTokens + pinTokens, shrunk);
  // The summarizer is asked to leave room for what the facts' keys take beyond their own budget (at
  // most 30% of its budget), so its text is seldom cut to make room for pins.
  const keysBeyond = Math.max(0, Math.ceil(keys / CHARS_PER_TOKEN) - pinnedTokens);
  return {
    anchors,
    maxChars: Math.max(proseTokens, total) * CHARS_PER_TOKEN,
    requestTokens: Math.max(
      Math.min(minTokens, budgetTokens),
      budgetTokens - Math.min(keysBeyond, Math.floor(budgetTokens * MAX_RESERVE)),
    ),
  };
}

/**
 * The checkpoint with what it lost pinned, within the budget, or within the summary's own length when
 * the summarizer wrote more than the budget (pinning never makes a summary longer than that, and cuts
 * the summarizer's text only to make room for facts). @internal
 */
export function anchorCheckpoint(summary: string, plan: AnchorPlan): PinAnchorsResult {
  return pinAnchors(summary, plan.anchors, { maxChars: Math.max(plan.maxChars, codePointLength(summary)) });
}
