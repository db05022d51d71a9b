/** How the manager tells that the host's array continues what it saw before. */
import { ContextError } from '../../errors.js';
import { assertMessage } from '../../pipeline/internal/assert-messages.js';
import type { Message } from '../../types.js';

/** Messages at the end of the previous input compared one by one on a sampled check. */
const TAIL = 32;
/** Positions of the rest of the previous input compared on a sampled check. */
const SAMPLES = 64;

/**
 * Whether `input` starts with every message of `previous`, object for object: a walk without
 * allocation, in proportion to `previous`.
 *
 * @internal
 */
export function continues(input: readonly Message[], previous: readonly Message[]): boolean {
  const length = previous.length;
  if (length > input.length) return false;
  for (let index = 0; index < length; index++) if (input[index] !== previous[index]) return false;
  return true;
}

/**
 * Whether the array the host passed before (and now again, grown or not) still starts with
 * `previous`, by its length, its last {@link TAIL} messages and {@link SAMPLES} others spread over
 * the rest (where they fall moves with `round`): a cost that does not grow with the history. A
 * host that pushes onto its array, pops or truncates it, or edits its last messages is seen
 * exactly; an edit in place further back is seen only when it falls on a sample, which is why this
 * check is only for the very array the host passed last (a new array is walked whole).
 *
 * @internal
 */
export function stillContinues(input: readonly Message[], previous: readonly Message[], round: number): boolean {
  const length = previous.length;
  if (length > input.length) return false;
  const tail = Math.max(0, length - TAIL);
  for (let index = tail; index < length; index++) if (input[index] !== previous[index]) return false;
  if (tail <= SAMPLES) {
    for (let index = 0; index < tail; index++) if (input[index] !== previous[index]) return false;
    return true;
  }
  const stride = tail / SAMPLES;
  const shift = (round * 0.618034) % 1;
  for (let sample = 0; sample < SAMPLES; sample++) {
    const index = Math.floor((sample + shift) * stride);
    if (input[index] !== previous[index]) return false;
  }
  return input[0] === previous[0];
}

/**
 * Checks a list the host passed, without keeping a record of its messages.
 *
 * @throws {@link ContextError} with code `INPUT_INVALID`.
 * @internal
 */
export function checkList(input: unknown, where: string): asserts input is readonly Message[] {
  if (!Array.isArray(input)) {
    throw new ContextError({
      message: `${where}: messages must be an array of messages, received ${input === null ? 'null' : typeof input}.`,
      code: 'INPUT_INVALID',
    });
  }
  for (let index = 0; index < input.length; index++) assertMessage(input[index], where, index);
}
