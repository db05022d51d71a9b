import { isAgentVisible } from '../../counting/is-agent-visible.js';
import type { Message } from '../../types.js';
import { SentProjection } from '../sent-projection.js';
import type { EarlyArchive } from './early-archive.js';
import type { VisibleResults } from './visible-results.js';

/**
 * Projects a history from scratch, noting its visible tool results and where they are sent in
 * `visible` (cleared first). Results archived early in the intake under way (the history holds
 * them still) stay sent as their placeholders.
 *
 * @internal
 */
export function projectHistory(
  history: readonly Message[],
  count: (message: Message) => number,
  visible: VisibleResults,
  early: EarlyArchive,
): SentProjection {
  visible.clear();
  const projection = new SentProjection(count);
  projection.seedIds(history);
  early.rewind(true);
  history.forEach((message, index) => {
    const copy = early.copyOf(index);
    projection.append(message, copy);
    if (message.role === 'toolResult' && isAgentVisible(message)) {
      early.sentAt(copy, projection.lastPosition);
      visible.add(index, projection.lastPosition);
    }
  });
  early.rewind(false);
  return projection;
}
