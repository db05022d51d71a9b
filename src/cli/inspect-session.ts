import { estimateMessageTokens } from '../counting/estimate-message-tokens.js';
import { isAgentVisible } from '../counting/is-agent-visible.js';
import { ctxkitMessageKind } from '../messages/ctxkit-message-kind.js';
import { buildContextFromBranch, type SessionContext } from '../session/build-context-from-branch.js';
import type { Message } from '../types.js';
import { type ContextSettings, createOfflineManager } from './context-settings.js';
import { describeCompactions } from './describe-compactions.js';
import { counter, describeMessage } from './describe-message.js';
import type { ArchivedResult, SessionInspection, TokenShare, ToolSummary } from './inspection-types.js';
import type { LoadedSession } from './loaded-session.js';
import { measureTimeline } from './measure-timeline.js';
import { messageText } from './message-text.js';
import { describeBranches, describeLabels } from './session-tree.js';

export type {
  ArchivedResult,
  CompactionFate,
  InspectedCompaction,
  InspectedMessage,
  SessionInspection,
  TimelinePoint,
  TokenShare,
  ToolSummary,
} from './inspection-types.js';

/**
 * Measures a session's current branch the way the context manager does: its context (from
 * `buildContextFromBranch`), taken in by a manager with the given settings (tool output cut to the
 * limits, old tool results archived as the manager would, never compacted), then `stats()`.
 *
 * @internal
 */
export async function inspectSession(loaded: LoadedSession, settings: ContextSettings): Promise<SessionInspection> {
  const leafId = loaded.leafId;
  const context = buildContextFromBranch(loaded.entries, { leafId });
  const manager = createOfflineManager({ ...settings, config: { ...settings.config, autoCompact: false } });
  const prepared = await manager.prepare(context.messages);
  const stats = manager.stats(prepared.history);
  const window = settings.contextWindow;
  const share = (tokens: number): TokenShare => ({
    tokens,
    percent: window ? round((tokens / window) * 100) : null,
  });
  const shares = (record: Record<string, number>) =>
    Object.fromEntries(Object.entries(record).map(([key, tokens]) => [key, share(tokens)]));
  const entryOf = entryLookup(context);
  const recordedMessages = new Set(context.messages);
  const messages = prepared.history.map((message) => describeMessage(message, entryOf(message)));
  const { points: timeline, archivedBefore } = await measureTimeline(loaded.entries, context.path, settings);
  return {
    session: {
      id: loaded.info.id,
      name: loaded.info.name ?? null,
      createdAt: loaded.info.createdAt,
      source: loaded.source,
      entryCount: loaded.entries.length,
      leafId,
    },
    model: { id: settings.model ?? null, contextWindow: window ?? null, windowSource: settings.windowSource },
    context: {
      tokens: stats.currentUsage,
      percent: window ? round(stats.usagePercent) : null,
      source: stats.usage.source,
      calibration: { ratio: Math.round(stats.calibration.ratio * 1000) / 1000, samples: stats.calibration.samples },
      messageCount: stats.messageCount,
      limit: window ? (stats.usage.limit ?? null) : null,
      warningAt: window ? Math.floor(window * manager.config.warningThreshold) : null,
      level: window ? stats.usage.level : 'ok',
      breakdown: {
        systemPrompt: share(stats.breakdown.systemPrompt),
        tools: share(stats.breakdown.tools),
        byRole: shares(stats.breakdown.byRole),
        byKind: shares(stats.breakdown.byKind),
        total: share(stats.breakdown.total),
      },
    },
    messages,
    compactions: describeCompactions(loaded.entries, context.path, manager, timeline, archivedBefore),
    archived: prepared.history.flatMap((message): ArchivedResult[] => {
      if (message.role !== 'toolResult' || isAgentVisible(message)) return [];
      return [
        {
          entryId: entryOf(message),
          toolCallId: message.toolCallId,
          toolName: message.toolName,
          tokens: estimateMessageTokens({ ...message, meta: { ...message.meta, agentVisible: true } }, counter),
          recorded: recordedMessages.has(message),
        },
      ];
    }),
    toolSummaries: prepared.history.flatMap((message): ToolSummary[] =>
      ctxkitMessageKind(message) === 'tool_summary'
        ? [
            {
              entryId: recordedMessages.has(message) ? entryOf(message) : null,
              tokens: estimateMessageTokens(message, counter),
              recorded: recordedMessages.has(message),
              text: messageText(message),
            },
          ]
        : [],
    ),
    timeline,
    branches: describeBranches(loaded.entries, leafId),
    labels: describeLabels(loaded.entries),
    warnings: loaded.warnings,
  };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Maps a message of the context (or the pipeline's copy of one) to its entry. */
function entryLookup(context: SessionContext): (message: Message) => string | null {
  const byMessage = new Map<Message, string>();
  const byToolCall = new Map<string, string>();
  context.messages.forEach((message, index) => {
    const entryId = context.entryIds[index]!;
    byMessage.set(message, entryId);
    if (message.role === 'toolResult') byToolCall.set(message.toolCallId, entryId);
  });
  return (message) =>
    byMessage.get(message) ?? (message.role === 'toolResult' ? (byToolCall.get(message.toolCallId) ?? null) : null);
}
