/** What the manager's overflow recovery makes of a provider's answer or error. */
import { CompactionError } from '../../errors.js';

/**
 * A reply that is an overflow: a failed assistant turn with an overflow error, or a silent overflow.
 *
 * @internal
 */
export function isOverflowReply(value: unknown, isOverflow: (value: unknown) => boolean): boolean {
  if (typeof value !== 'object' || value === null || (value as { role?: unknown }).role !== 'assistant') return false;
  const stopReason = (value as { stopReason?: unknown }).stopReason;
  if (stopReason === 'aborted') return false;
  return isOverflow(value);
}

/** Whether an error is a summarizer call aborted through its signal. @internal */
export function isAbort(error: unknown): boolean {
  return CompactionError.isInstance(error) && error.code === 'ABORTED';
}

/** Numbers of four digits and more in an error text ("128000", "128,000"). */
const BIG_NUMBER = /\b\d{1,3}(?:,\d{3})+\b|\b\d{4,}\b/g;

/** The texts an error or failed reply says about itself: its message, its body's message, its cause's. */
function errorTexts(value: unknown, depth = 0): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null || depth > 4) return [];
  const texts: string[] = [];
  try {
    const object = value as Record<string, unknown>;
    for (const key of ['message', 'errorMessage', 'responseBody']) {
      if (typeof object[key] === 'string') texts.push(object[key] as string);
    }
    for (const key of ['error', 'cause', 'lastError', 'data']) texts.push(...errorTexts(object[key], depth + 1));
  } catch {
    // A getter that throws: what was read before it.
  }
  return texts;
}

/**
 * How much smaller the retried request must be than the one that overflowed, by the counter: at
 * least a quarter smaller, and when the provider's error names its count and its limit ("prompt is
 * too long: 45000 tokens > 30000 maximum"), by their ratio with a tenth to spare.
 *
 * @internal
 */
export function shrinkFactor(error: unknown): number {
  const numbers = new Set<number>();
  for (const text of errorTexts(error)) {
    for (const match of text.matchAll(BIG_NUMBER)) numbers.add(Number(match[0].replaceAll(',', '')));
  }
  const [largest, second] = [...numbers].sort((a, b) => b - a);
  const ratio = largest !== undefined && second !== undefined ? second / largest : 1;
  return ratio > 0.05 ? Math.min(0.75, ratio * 0.9) : 0.75;
}
