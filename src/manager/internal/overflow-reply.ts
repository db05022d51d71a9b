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

/** An error's message, for another error's. @internal */
export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
