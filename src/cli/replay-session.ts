import { describeError } from '../internal/describe-error.js';
import type { ContextEvent } from '../manager/events.js';
import { ctxkitMessageKind } from '../messages/ctxkit-message-kind.js';
import { entryToMessage } from '../session/entry-to-message.js';
import { walkBranch } from '../session/walk-branch.js';
import type { AssistantMessage, Message } from '../types.js';
import { type ContextSettings, createOfflineManager } from './context-settings.js';
import type { LoadedSession } from './loaded-session.js';

/** One model call of the replay. */
interface ReplayCall {
  /** 1-based model call number (the same numbering as `inspect`'s timeline). */
  call: number;
  /** The recorded assistant entry the call stands for (`null` for the next request). */
  entryId: string | null;
  /** Tokens of the request after the pipeline ran (estimated). */
  tokens: number;
  percent: number | null;
  level: 'ok' | 'warning' | 'compact';
  /** Messages the request sent. */
  messageCount: number;
}

/** A compaction the replay ran (or tried). */
interface ReplayCompaction {
  /** The model call it ran before. */
  beforeCall: number;
  entryId: string | null;
  reason: string;
  tokensBefore: number;
  tokensAfter: number;
  messagesBefore: number;
  messagesAfter: number;
  belowLimit: boolean;
  /** Why it failed, if it did (then nothing changed). */
  error: string | null;
}

/** What `ctxkit replay` found. */
export interface ReplayResult {
  sessionId: string;
  settings: {
    model: string | null;
    contextWindow: number | null;
    /** The compaction limit the settings give. */
    limit: number | null;
    warningAt: number | null;
    reserveTokens: number;
    keepRecentTokens: number;
    compactionThreshold: number | null;
    toolCallCutoff: number;
  };
  /** Messages replayed: the branch's messages, without the summaries ctxkit wrote. */
  messageCount: number;
  calls: ReplayCall[];
  compactions: ReplayCompaction[];
  /** Tool results archived by the replay. */
  archivedToolResults: number;
  /** The compactions the session recorded on the branch, by the model call they came before. */
  recorded: { entryId: string; beforeCall: number; tokensBefore: number }[];
}

/**
 * Re-runs the context pipeline over a branch's recorded messages with other settings, offline: a
 * context manager with the heuristic summarizer is called before every recorded model call, and
 * where it archives tool results and compacts is reported. Provider usage is left out (it measured
 * the recorded context, not the replayed one), so every count is an estimate.
 *
 * @internal
 */
export async function replaySession(loaded: LoadedSession, settings: ContextSettings): Promise<ReplayResult> {
  const events: ContextEvent[] = [];
  const manager = createOfflineManager(
    { ...settings, config: { ...settings.config, autoCompact: true } },
    { onEvent: (event) => events.push(event) },
  );
  const { config } = manager;
  const path = walkBranch(loaded.entries, { leafId: loaded.leafId });
  const window = config.contextWindow;
  const calls: ReplayCall[] = [];
  const compactions: ReplayCompaction[] = [];
  const recorded: ReplayResult['recorded'] = [];
  let archivedToolResults = 0;

  let history: Message[] = [];
  let messageCount = 0;
  async function call(entryId: string | null): Promise<void> {
    events.length = 0;
    const prepared = await manager.prepare(history);
    history = prepared.history;
    const number = calls.length + 1;
    for (const event of events) {
      if (event.type === 'tool-results-summarized') archivedToolResults += event.archived;
      if (event.type === 'compaction-end') {
        compactions.push({
          beforeCall: number,
          entryId,
          reason: event.reason,
          tokensBefore: event.tokensBefore,
          tokensAfter: event.tokensAfter,
          messagesBefore: event.messagesBefore,
          messagesAfter: event.messagesAfter,
          belowLimit: event.belowLimit,
          error: event.error === undefined ? null : describeError(event.error),
        });
      }
    }
    calls.push({
      call: number,
      entryId,
      tokens: prepared.usage.tokens,
      percent: window ? Math.round((prepared.usage.tokens / window) * 1000) / 10 : null,
      level: prepared.usage.level,
      messageCount: prepared.messages.length,
    });
  }

  for (const entry of path) {
    if (entry.type === 'compaction') {
      recorded.push({ entryId: entry.id, beforeCall: calls.length + 1, tokensBefore: entry.tokensBefore });
      continue;
    }
    const message = replayable(entryToMessage(entry));
    if (message === undefined) continue;
    if (message.role === 'assistant' && history.length > 0) await call(entry.id);
    history = [...history, message];
    messageCount++;
  }
  if (history.length > 0) await call(null);

  return {
    sessionId: loaded.info.id,
    settings: {
      model: settings.model ?? null,
      contextWindow: window ?? null,
      limit: window === undefined ? null : (manager.stats([]).usage.limit ?? null),
      warningAt: window === undefined ? null : Math.floor(window * config.warningThreshold),
      reserveTokens: config.reserveTokens,
      keepRecentTokens: config.keepRecentTokens,
      compactionThreshold: config.compactionThreshold ?? null,
      toolCallCutoff: config.toolCallCutoff,
    },
    messageCount,
    calls,
    compactions,
    archivedToolResults,
    recorded,
  };
}

/**
 * A recorded message as the replay feeds it: the summaries ctxkit wrote are left out (the replay
 * writes its own), archived tool results are visible again, and provider usage is dropped.
 */
function replayable(message: Message | undefined): Message | undefined {
  if (message === undefined) return undefined;
  const kind = ctxkitMessageKind(message);
  if (kind === 'compaction_summary' || kind === 'tool_summary' || kind === 'tool_digest') return undefined;
  if (message.role === 'toolResult' && kind === 'archived_result' && message.meta?.kind === 'tool_result_archived') {
    const { agentVisible: _hidden, ...meta } = message.meta ?? {};
    return { ...message, meta: { ...meta, kind: 'tool_result' } };
  }
  if (message.role === 'assistant' && message.usage !== undefined) {
    const { usage: _usage, ...rest } = message as AssistantMessage;
    return rest;
  }
  return message;
}
