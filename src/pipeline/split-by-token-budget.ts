import { estimateMessageTokens } from '../counting/estimate-message-tokens.js';
import { isAgentVisible } from '../counting/is-agent-visible.js';
import { referenceCounter, type TokenCounter } from '../counting/token-counter.js';
import { validCutPoints } from '../internal/tool-pairing.js';
import type { Message } from '../types.js';
import { assertMessages } from '../validation/assert-messages.js';
import * as v from '../validation/light-schema.js';
import { option, parseOptions } from '../validation/parse-options.js';

/**
 * A conversation cut in two: `old ++ recent` is the input, in order.
 *
 * @example
 * ```ts
 * const { old, recent, cutIndex } = splitByTokenBudget(messages, { budget: 20_000 });
 * ```
 */
export interface SplitResult {
  /** The older messages, to be summarized. */
  old: Message[];
  /** The newest messages, kept verbatim. Never empty when the input is not. */
  recent: Message[];
  /** Tokens of the visible messages in `recent`. */
  recentTokens: number;
  /** Index of the first message of `recent` in the input (`old.length`). */
  cutIndex: number;
}

/**
 * Options of {@link splitByTokenBudget}.
 *
 * @example
 * ```ts
 * const options: SplitByTokenBudgetOptions = { budget: 20_000, counter: approximateCounter };
 * ```
 */
export interface SplitByTokenBudgetOptions {
  /** Tokens the recent part may take. */
  budget: number;
  /** The counter. @default referenceCounter */
  counter?: TokenCounter;
}

const splitByTokenBudgetSchema = /* @__PURE__ */ (() =>
  v.object({ budget: option.tokens(), counter: option.counter().optional() }))();

/**
 * Cuts `messages` at index `cut` and counts the visible tokens of the tail (shared with `splitByCount`).
 *
 * @internal
 */
export function sliceAt(messages: readonly Message[], cut: number, counter: TokenCounter): SplitResult {
  const recent = messages.slice(cut);
  let recentTokens = 0;
  for (const message of recent) if (isAgentVisible(message)) recentTokens += estimateMessageTokens(message, counter);
  return { old: messages.slice(0, cut), recent, recentTokens, cutIndex: cut };
}

/**
 * Keeps as many of the newest messages as fit in `budget` tokens, then moves the cut to the
 * nearest boundary that keeps every tool call with its results: forward (a smaller tail, within
 * budget) when that leaves something, else back to the smallest valid tail, which may exceed the
 * budget — `recent` is never empty when the input is not. Hidden messages count zero.
 *
 * @param messages - The conversation.
 * @param options - The budget and the counter.
 * @returns The two parts, the tail's tokens and the cut index.
 *
 * @example
 * ```ts
 * const { old, recent } = splitByTokenBudget(messages, { budget: 20_000, counter: approximateCounter });
 * ```
 */
export function splitByTokenBudget(messages: readonly Message[], options: SplitByTokenBudgetOptions): SplitResult {
  assertMessages(messages, 'splitByTokenBudget');
  const { budget, counter = referenceCounter } = parseOptions('splitByTokenBudget', splitByTokenBudgetSchema, options);
  const n = messages.length;
  let cut = n;
  let used = 0;
  while (cut > 0) {
    const message = messages[cut - 1]!;
    const tokens = isAgentVisible(message) ? estimateMessageTokens(message, counter) : 0;
    if (used + tokens > budget) break;
    used += tokens;
    cut--;
  }
  const valid = validCutPoints(messages);
  let forward = cut;
  while (forward < n && !valid[forward]) forward++;
  if (forward < n || n === 0) return sliceAt(messages, forward, counter);
  let backward = Math.min(cut, n - 1);
  while (backward > 0 && !valid[backward]) backward--;
  return sliceAt(messages, backward, counter);
}
