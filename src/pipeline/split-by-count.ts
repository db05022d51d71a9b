import { isAgentVisible } from '../counting/is-agent-visible.js';
import { referenceCounter, type TokenCounter } from '../counting/token-counter.js';
import { validCutPoints } from '../internal/tool-pairing.js';
import type { Message } from '../types.js';
import { assertMessages } from '../validation/assert-messages.js';
import * as v from '../validation/light-schema.js';
import { option, parseOptions } from '../validation/parse-options.js';
import { type SplitResult, sliceAt } from './split-by-token-budget.js';

const splitByCountSchema = /* @__PURE__ */ (() =>
  v.object({ keep: option.tokens(), counter: option.counter().optional() }))();

/**
 * Options of {@link splitByCount}.
 *
 * @example
 * ```ts
 * const options: SplitByCountOptions = { keep: 5 };
 * ```
 */
export interface SplitByCountOptions {
  /** Visible messages to keep at least (a value below 1 keeps one). */
  keep: number;
  /** The counter used for `recentTokens`. @default referenceCounter */
  counter?: TokenCounter;
}

/**
 * Keeps the newest `keep` visible messages, moving the cut back (keeping more) until no tool call
 * is parted from its results. `recent` is never empty when the input is not.
 *
 * @param messages - The conversation.
 * @param options - How many visible messages to keep.
 * @returns The two parts, the tail's tokens and the cut index.
 *
 * @example
 * ```ts
 * const { recent } = splitByCount(messages, { keep: 5 });
 * ```
 */
export function splitByCount(messages: readonly Message[], options: SplitByCountOptions): SplitResult {
  assertMessages(messages, 'splitByCount');
  const { counter = referenceCounter, keep: given } = parseOptions('splitByCount', splitByCountSchema, options);
  const keep = Math.max(1, Math.floor(given));
  let cut = messages.length;
  let kept = 0;
  while (cut > 0 && kept < keep) {
    if (isAgentVisible(messages[cut - 1]!)) kept++;
    cut--;
  }
  const valid = validCutPoints(messages);
  while (cut > 0 && !valid[cut]) cut--;
  return sliceAt(messages, cut, counter);
}
