import { isAgentVisible } from '../counting/is-agent-visible.js';
import { buildContextFromBranch } from '../session/build-context-from-branch.js';
import { entryToMessage } from '../session/entry-to-message.js';
import type { SessionEntry } from '../session-entry.js';
import type { Message } from '../types.js';
import { type ContextSettings, createOfflineManager } from './context-settings.js';
import type { TimelinePoint } from './inspection-types.js';

/**
 * The context of each model call of the path: the recorded messages taken in by a manager with the
 * settings (tool output cut, old tool results archived, provider usage as the anchor), with each
 * recorded compaction applied where the session has it.
 *
 * @internal
 */
export async function measureTimeline(
  entries: readonly SessionEntry[],
  path: readonly SessionEntry[],
  settings: ContextSettings,
): Promise<{ points: TimelinePoint[]; archivedBefore: Map<string, Set<string>> }> {
  const manager = createOfflineManager({ ...settings, config: { ...settings.config, autoCompact: false } });
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const points: TimelinePoint[] = [];
  /** For each compaction, the tool calls whose results the pipeline had archived when it ran. */
  const archivedBefore = new Map<string, Set<string>>();
  let history: Message[] = [];
  for (const entry of path) {
    if (entry.type === 'compaction') {
      const { history: taken } = await manager.prepare(history);
      archivedBefore.set(
        entry.id,
        new Set(
          taken.flatMap((message) =>
            message.role === 'toolResult' && !isAgentVisible(message) ? [message.toolCallId] : [],
          ),
        ),
      );
      history = buildContextFromBranch(byId, { leafId: entry.id }).messages;
      continue;
    }
    const message = entryToMessage(entry);
    if (message === undefined) continue;
    if (message.role === 'assistant' && history.length > 0) {
      const prepared = await manager.prepare(history);
      history = prepared.history;
      const usage = message.usage;
      const reported =
        usage === undefined || message.stopReason === 'error' || message.stopReason === 'aborted'
          ? null
          : usage.input + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
      points.push({ call: points.length + 1, entryId: entry.id, tokens: prepared.usage.tokens, reported });
    }
    history = [...history, message];
  }
  return { points, archivedBefore };
}
