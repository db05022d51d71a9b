import { approximateCounter } from '../counting/approximate-counter.js';
import { estimateMessageTokens, isAgentVisible } from '../counting/token-counter.js';
import { ctxkitMessageKind } from '../messages/ctxkit-messages.js';
import { buildContextFromBranch, type SessionContext } from '../session/build-context-from-branch.js';
import { entryToMessage } from '../session/entry-to-message.js';
import type { CompactionEntry, Message, SessionEntry } from '../types.js';
import { type ContextSettings, createOfflineManager } from './context-settings.js';
import type { LoadedSession } from './load-session.js';
import { messageLabel, messageText } from './message-text.js';
import { type BranchInfo, describeBranches, describeLabels, type LabelInfo } from './session-tree.js';

/** Tokens and their share of the window (`null` without a window). */
export interface TokenShare {
  tokens: number;
  percent: number | null;
}

/** One message of the branch, as the inspection shows it. */
export interface InspectedMessage {
  /** The entry the message comes from (`null` for a message the pipeline wrote just now). */
  entryId: string | null;
  role: Message['role'];
  /** `meta.kind`, or `message`. */
  kind: string;
  /** `role`, or `toolResult(<tool name>)`. */
  label: string;
  /** Estimated tokens (0 when hidden from the model). */
  tokens: number;
  /** Whether the model sees it. */
  visible: boolean;
  text: string;
}

/** How a message of the context before a compaction fared in it. */
export type CompactionFate = 'kept' | 'summarized' | 'archived' | 'previous-summary';

/** A compaction on the current branch. */
export interface InspectedCompaction {
  entryId: string;
  timestamp: number;
  /** `threshold`, `overflow` or `manual` when the writer recorded it, else `null`. */
  reason: string | null;
  tokensBefore: number;
  tokensAfter: number;
  /** Whether `tokensAfter` was recorded by the writer or measured now. */
  tokensAfterSource: 'recorded' | 'measured';
  firstKeptEntryId: string;
  /** The checkpoint (the summary the compaction wrote). */
  checkpoint: string;
  /** The context just before the compaction, each message with its fate. */
  replaced: (InspectedMessage & { fate: CompactionFate })[];
  /** Index of the model call before which it happened (see `SessionInspection.timeline`). */
  beforeCall: number;
}

/** An archived tool result: hidden from the model, a placeholder and a summary stand for it. */
export interface ArchivedResult {
  entryId: string | null;
  toolCallId: string;
  toolName: string;
  /** Tokens the result would cost if it were sent. */
  tokens: number;
  /** True when the session recorded it archived; false when the pipeline archives it now. */
  recorded: boolean;
}

/** A tool-result summary in the context. */
export interface ToolSummary {
  entryId: string | null;
  tokens: number;
  recorded: boolean;
  text: string;
}

/** One model call of the branch: the context the request carried, as the manager measures it. */
export interface TimelinePoint {
  /** 1-based model call number. */
  call: number;
  /** The assistant entry the call produced (`null` for the next request, after the last entry). */
  entryId: string | null;
  /** The manager's measure of the request (its `prepare().usage.tokens`, as `stats()` counts it). */
  tokens: number;
  /** What the provider reported for the call (input + cache), when recorded. */
  reported: number | null;
}

/** Everything `ctxkit inspect` and `ctxkit report` show about a session. */
export interface SessionInspection {
  session: {
    id: string;
    name: string | null;
    createdAt: number;
    source: LoadedSession['source'];
    entryCount: number;
    leafId: string | null;
  };
  model: {
    id: string | null;
    contextWindow: number | null;
    windowSource: ContextSettings['windowSource'];
  };
  context: {
    /** `stats().currentUsage`. */
    tokens: number;
    percent: number | null;
    source: 'usage' | 'estimate' | 'mixed';
    /** Messages sent to the model. */
    messageCount: number;
    /** The compaction limit (`null` without a window). */
    limit: number | null;
    /** Tokens from which the manager warns. */
    warningAt: number | null;
    level: 'ok' | 'warning' | 'compact';
    breakdown: {
      systemPrompt: TokenShare;
      tools: TokenShare;
      byRole: Record<string, TokenShare>;
      byKind: Record<string, TokenShare>;
      total: TokenShare;
    };
  };
  /** The messages of the current context, in order (archived results included, hidden). */
  messages: InspectedMessage[];
  compactions: InspectedCompaction[];
  archived: ArchivedResult[];
  toolSummaries: ToolSummary[];
  timeline: TimelinePoint[];
  branches: BranchInfo[];
  labels: LabelInfo[];
  warnings: LoadedSession['warnings'];
}

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

/** The counter the offline manager measures with (its default). */
const counter = approximateCounter;

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

function describeMessage(message: Message, entryId: string | null): InspectedMessage {
  const visible = isAgentVisible(message);
  return {
    entryId,
    role: message.role,
    kind: message.meta?.kind ?? 'message',
    label: messageLabel(message),
    tokens: visible ? estimateMessageTokens(message, counter) : 0,
    visible,
    text: messageText(message),
  };
}

/**
 * The context of each model call of the path: the recorded messages taken in by a manager with the
 * settings (tool output cut, old tool results archived, provider usage as the anchor), with each
 * recorded compaction applied where the session has it.
 */
async function measureTimeline(
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

function describeCompactions(
  entries: readonly SessionEntry[],
  path: readonly SessionEntry[],
  manager: ReturnType<typeof createOfflineManager>,
  timeline: readonly TimelinePoint[],
  archivedBefore: ReadonlyMap<string, ReadonlySet<string>>,
): InspectedCompaction[] {
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const callIndex = new Map(timeline.map((point) => [point.entryId, point.call]));
  const compactions: InspectedCompaction[] = [];
  path.forEach((entry, index) => {
    if (entry.type !== 'compaction') return;
    const before =
      entry.parentId === null
        ? { messages: [], entryIds: [] }
        : buildContextFromBranch(byId, { leafId: entry.parentId });
    const after = buildContextFromBranch(byId, { leafId: entry.id });
    const kept = new Set(after.entryIds.filter((id) => id !== entry.id));
    const details = (entry as CompactionEntry).details as { tokensAfter?: unknown; reason?: unknown } | undefined;
    const recordedAfter = typeof details?.tokensAfter === 'number' ? details.tokensAfter : undefined;
    let beforeCall = timeline.length + 1;
    for (const later of path.slice(index + 1)) {
      const call = callIndex.get(later.id);
      if (call !== undefined) {
        beforeCall = call;
        break;
      }
    }
    compactions.push({
      entryId: entry.id,
      timestamp: entry.timestamp,
      reason: typeof details?.reason === 'string' ? details.reason : null,
      tokensBefore: entry.tokensBefore,
      tokensAfter: recordedAfter ?? manager.stats(after.messages).currentUsage,
      tokensAfterSource: recordedAfter === undefined ? 'measured' : 'recorded',
      firstKeptEntryId: entry.firstKeptEntryId,
      checkpoint: entry.summary,
      replaced: before.messages.map((message, position) => {
        const entryId = before.entryIds[position]!;
        const archived = archivedBefore.get(entry.id) ?? new Set<string>();
        return { ...describeMessage(message, entryId), fate: fateOf(message, kept.has(entryId), archived) };
      }),
      beforeCall,
    });
  });
  return compactions;
}

function fateOf(message: Message, kept: boolean, archived: ReadonlySet<string>): CompactionFate {
  if (kept) return 'kept';
  if (ctxkitMessageKind(message) === 'compaction_summary') return 'previous-summary';
  if (!isAgentVisible(message)) return 'archived';
  if (message.role === 'toolResult' && archived.has(message.toolCallId)) return 'archived';
  return 'summarized';
}
