import { isAgentVisible } from '../../counting/is-agent-visible.js';
import type { Message } from '../../types.js';
import { assertMessage } from '../../validation/assert-messages.js';

/** What the manager needs to know of an intake before it takes any message in. @internal */
export interface IntakeTally {
  /** Tool results visible to the agent. */
  results: number;
  /** Whether an assistant message carries usage. */
  usage: boolean;
}

/**
 * Checks `input[start…]` (each named by its index in `input`) and tallies it in the same walk: a
 * long history taken in whole lies scattered across the heap, and a second walk over its messages
 * only to count them cost about a tenth of a first call at 200,000 messages (cache misses).
 *
 * @throws {@link ContextError} with code `INPUT_INVALID`, before anything is taken in.
 * @internal
 */
export function checkAndTally(input: readonly Message[], start: number, where: string): IntakeTally {
  let results = 0;
  let usage = false;
  for (let index = start; index < input.length; index++) {
    const message = input[index];
    assertMessage(message, where, index);
    if (message.role === 'toolResult') {
      if (isAgentVisible(message)) results++;
    } else if (message.role === 'assistant') {
      if (message.usage !== undefined) usage = true;
    }
  }
  return { results, usage };
}
