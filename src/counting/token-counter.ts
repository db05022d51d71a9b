import { codePointLength } from '../internal/clip-text.js';
import { assertStringArgument } from '../validation/assert-argument.js';

/**
 * Counts tokens in text. Counting is synchronous so that planning stays pure and fast.
 *
 * Contract:
 * - `count` must be deterministic for the same text and must not throw on any string (including
 *   text that looks like special tokens such as `<|endoftext|>`).
 * - `exact` says whether the counts come from the model's real tokenizer; estimates leave it unset.
 * - `imageTokens` is the cost of one image (default 1200); `messageOverhead` is added once per message
 *   (default 0) for providers that frame each message with a few tokens.
 * - Counters are used as cache keys: keep one instance per configuration rather than creating one
 *   per call.
 *
 * @example
 * ```ts
 * const wordCounter: TokenCounter = {
 *   name: 'words',
 *   count: (text) => text.split(/\s+/).filter(Boolean).length,
 * };
 * ```
 */
export interface TokenCounter {
  /** A short name shown in stats and benchmarks. */
  readonly name: string;
  /** Tokens in `text`. */
  count(text: string): number;
  /** True when counts come from the model's own tokenizer. @default false */
  readonly exact?: boolean;
  /** Tokens charged for one image. @default 1200 */
  readonly imageTokens?: number;
  /** Tokens added once per message for the provider's framing. @default 0 */
  readonly messageOverhead?: number;
}

/** The fixed cost of one image, from the reference heuristic. @internal */
export const IMAGE_TOKENS = 1200;

/**
 * The reference heuristic: exactly `ceil(characters / 4)`, images 1200 tokens, no per-message
 * overhead. Characters are Unicode code points. Cheap, but it under-counts CJK text 2–3× and JSON by
 * about 20%; prefer {@link approximateCounter} or an exact counter from `ctxkit/tokenizer`.
 *
 * @example
 * ```ts
 * referenceCounter.count('hello world'); // 3
 * ```
 */
export const referenceCounter: TokenCounter = /* @__PURE__ */ (() =>
  Object.freeze({
    name: 'reference',
    imageTokens: IMAGE_TOKENS,
    messageOverhead: 0,
    count: (text: string) => {
      assertStringArgument(text, 'referenceCounter.count', 'text');
      return Math.ceil(codePointLength(text) / 4);
    },
  }))();
