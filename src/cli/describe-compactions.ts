import { isAgentVisible } from '../counting/is-agent-visible.js';
import { ctxkitMessageKind } from '../messages/ctxkit-message-kind.js';
import { buildContextFromBranch } from '../session/build-context-from-branch.js';
import type { CompactionEntry, SessionEntry } from '../session-entry.js';
import type { Message } from '../types.js';
import type { createOfflineManager } from './context-settings.js';
import { describeMessage } from './describe-message.js';
import type { CompactionFate, InspectedCompaction, TimelinePoint } from './inspection-types.js';

/**
 * The compactions on a branch: what each recorded, and the context it replaced with each
 * message's fate.
 *
 * @internal
 */
export function describeCompactions(
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
      native: nativeOf(entry as CompactionEntry),
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

/** What the inspector shows of a native compaction's payload. */
function nativeOf(entry: CompactionEntry): InspectedCompaction['native'] {
  const native = entry.native;
  if (native === undefined) return null;
  return {
    provider: native.provider,
    api: native.api,
    model: native.model,
    usage: native.usage ? { input: native.usage.input, output: native.usage.output } : null,
    payloadBytes: new TextEncoder().encode(JSON.stringify(native.payload)).length,
    opaque: typeof native.payload['encrypted_content'] === 'string',
  };
}
