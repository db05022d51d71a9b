import { isAgentVisible } from '../../counting/is-agent-visible.js';
import { summaryText } from '../../messages/summary-text.js';
import type { Message } from '../../types.js';

/**
 * Whether the newest message the model sees (tool summaries aside) is a compaction summary: the
 * manager then does not compact again, as nothing new would be summarized.
 *
 * @internal
 */
export function endsWithFreshSummary(history: readonly Message[]): boolean {
  for (let index = history.length - 1; index >= 0; index--) {
    const message = history[index]!;
    if (!isAgentVisible(message)) continue;
    if (message.meta?.kind === 'tool_summary') continue;
    return summaryText(message) !== undefined;
  }
  return false;
}
