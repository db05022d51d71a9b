import { isAgentVisible } from '../../counting/is-agent-visible.js';
import type { Message } from '../../types.js';
import { SentProjection } from '../sent-projection.js';
import type { VisibleResults } from './visible-results.js';

/**
 * The projection of a whole history, built from scratch, with its visible tool results (and where
 * each is sent) noted in `visible`, which is cleared first.
 *
 * @internal
 */
export function projectHistory(
  history: readonly Message[],
  count: (message: Message) => number,
  visible: VisibleResults,
): SentProjection {
  visible.clear();
  const projection = new SentProjection(count);
  projection.seedIds(history);
  history.forEach((message, index) => {
    projection.append(message);
    if (message.role === 'toolResult' && isAgentVisible(message)) visible.add(index, projection.lastPosition);
  });
  return projection;
}
