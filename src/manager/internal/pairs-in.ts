import { withTheirCalls } from '../../pipeline/tool-summary-input.js';
import type { Message, ToolResultMessage } from '../../types.js';

/**
 * The results with their calls, found in the stretch of history that holds them: calls sit just
 * before their results, and a call found there is the one the whole history pairs it with (a
 * result answers the nearest earlier unanswered call of its id). The stretch widens when a call is
 * not found in it.
 *
 * @internal
 */
export function pairsIn(history: readonly Message[], indexes: readonly number[]): Message[] {
  const originals: ToolResultMessage[] = [];
  for (const index of indexes) originals.push(history[index] as ToolResultMessage);
  const end = indexes[indexes.length - 1]! + 1;
  // Calls sit just before their results: 64 messages before the first result at first.
  let span = 64;
  for (;;) {
    const start = Math.max(0, indexes[0]! - span);
    const pairs = withTheirCalls(history.slice(start, end), originals);
    if (start === 0 || pairs.length === originals.length * 2) return pairs;
    span *= 4;
  }
}
