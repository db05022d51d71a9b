import type { CompactionResult } from '../core/compact.js';
import { StoreError } from '../errors.js';
import type { SessionStore } from '../session-store.js';
import type { Message, SessionEntry } from '../types.js';

function sameMessage(entry: SessionEntry, message: Message): boolean {
  if (entry.type !== 'message') return false;
  if (entry.message === message) return true;
  const id = message.meta?.id;
  if (id !== undefined && (entry.id === id || entry.message.meta?.id === id)) return true;
  return JSON.stringify(entry.message) === JSON.stringify(message);
}

/**
 * Appends a compaction entry for `result` to the session, with `firstKeptEntryId` the entry of
 * the first kept message that the store holds. Returns the error instead of throwing, so that a
 * failing store never undoes a good compaction in memory.
 *
 * @internal
 */
export async function persistCompaction(
  store: SessionStore | undefined,
  sessionId: string | undefined,
  history: readonly Message[],
  result: CompactionResult,
): Promise<unknown> {
  if (store === undefined || sessionId === undefined) return undefined;
  try {
    const branch = await store.getBranch(sessionId);
    let firstKeptEntryId: string | undefined;
    for (let index = result.firstKeptIndex; index < history.length && firstKeptEntryId === undefined; index++) {
      const kept = history[index]!;
      for (let entryIndex = branch.length - 1; entryIndex >= 0; entryIndex--) {
        const entry = branch[entryIndex]!;
        if (sameMessage(entry, kept)) {
          firstKeptEntryId = entry.id;
          break;
        }
      }
    }
    if (firstKeptEntryId === undefined) {
      throw new StoreError(
        'None of the kept messages is in the session, so the compaction could not be recorded. Append every message to the store before preparing.',
        { code: 'STORE_FAILED' },
      );
    }
    await store.appendEntry(sessionId, {
      type: 'compaction',
      summary: result.summary,
      firstKeptEntryId,
      tokensBefore: result.tokensBefore,
      details: { tokensAfter: result.tokensAfter, summarizedCount: result.summarizedCount },
    });
    return undefined;
  } catch (error) {
    return error;
  }
}
