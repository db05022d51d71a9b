import { entryToMessage } from '../session/entry-to-message.js';
import { walkBranch } from '../session/walk-branch.js';
import type { SessionInspection } from './inspect-session.js';
import type { LoadedSession } from './loaded-session.js';
import { messageLabel, messageText } from './message-text.js';

/** Where a message of the branch stands now. */
type TranscriptStatus = 'in-context' | 'archived' | 'compacted' | 'checkpoint';

/** One message of the branch, compacted away or not. */
export interface TranscriptItem {
  entryId: string;
  timestamp: number;
  label: string;
  kind: string;
  status: TranscriptStatus;
  text: string;
}

/**
 * Every message on the branch, root to leaf, with whether the model still sees it, sees a
 * placeholder for it (archived), or sees a checkpoint instead (compacted).
 *
 * @internal
 */
export function branchTranscript(loaded: LoadedSession, inspection: SessionInspection): TranscriptItem[] {
  const inContext = new Set(
    inspection.messages.flatMap((message) => (message.entryId === null ? [] : [message.entryId])),
  );
  const archived = new Set(inspection.archived.flatMap((result) => (result.entryId === null ? [] : [result.entryId])));
  const items: TranscriptItem[] = [];
  for (const entry of walkBranch(loaded.entries, { leafId: loaded.leafId })) {
    const message = entryToMessage(entry);
    if (message === undefined) continue;
    let status: TranscriptStatus = inContext.has(entry.id) ? 'in-context' : 'compacted';
    if (archived.has(entry.id)) status = 'archived';
    if (entry.type === 'compaction') status = 'checkpoint';
    items.push({
      entryId: entry.id,
      timestamp: entry.timestamp,
      label: messageLabel(message),
      kind: message.meta?.kind ?? 'message',
      status,
      text: messageText(message),
    });
  }
  return items;
}
