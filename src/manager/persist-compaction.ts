import { StoreError } from '../errors.js';
import type { CompactionResult } from '../pipeline/compact.js';
import type { SessionStore } from '../session/session-store.js';
import type { SessionEntry } from '../session-entry.js';
import { anchorsOf } from '../summarizing/anchors/carried-anchors.js';
import type { Message } from '../types.js';
import type { CompactionReason } from './events.js';

/**
 * What identifies a message across the host's history and the store's JSON copies, even after
 * ctxkit truncated or archived it: the tool-call ids of a tool result or of an assistant turn that
 * calls tools, else the role and content. `undefined` for messages ctxkit wrote itself, which the
 * store never holds.
 */
function identity(message: Message): string | undefined {
  const kind = message.meta?.kind;
  if (kind === 'tool_summary' || kind === 'compaction_summary') return undefined;
  if (message.role === 'toolResult') return `result:${message.toolCallId}`;
  if (message.role === 'assistant') {
    const calls = message.content.flatMap((part) => (part.type === 'toolCall' ? [part.id] : []));
    if (calls.length > 0) return `calls:${calls.join(',')}`;
  }
  return `${message.role}:${JSON.stringify(message.content)}`;
}

function matches(entry: SessionEntry, message: Message, key: string): boolean {
  if (entry.type !== 'message') return false;
  if (entry.message === message) return true;
  const id = message.meta?.id;
  if (id !== undefined && (entry.id === id || entry.message.meta?.id === id)) return true;
  return identity(entry.message) === key;
}

/**
 * The entry of the first kept message. The kept messages are the end of the history, and the host
 * appended them to the store in the same order, so the two are aligned from the end: each kept
 * message, newest first, is matched to the nearest earlier message entry. Repeated messages ("go
 * on" twice) then map to their own entries, not all to the newest copy.
 *
 * @internal
 */
export function firstKeptEntry(branch: readonly SessionEntry[], kept: readonly Message[]): string | undefined {
  let position = branch.length - 1;
  let first: string | undefined;
  for (let index = kept.length - 1; index >= 0; index--) {
    const message = kept[index]!;
    const key = identity(message);
    if (key === undefined) continue;
    let found = position;
    while (found >= 0 && !matches(branch[found]!, message, key)) found--;
    if (found < 0) continue;
    first = branch[found]!.id;
    position = found - 1;
  }
  return first;
}

/**
 * Appends a compaction entry for `result` to the session, with `firstKeptEntryId` the entry of
 * the first kept message that the store holds. Returns the error instead of throwing, so that a
 * failing store never undoes a good compaction in memory. The entry's `details` record why it ran
 * (`reason`), the tokens after it and how many messages it summarized.
 *
 * @internal
 */
export async function persistCompaction(
  store: SessionStore | undefined,
  sessionId: string | undefined,
  history: readonly Message[],
  result: CompactionResult,
  reason: CompactionReason,
): Promise<unknown> {
  if (store === undefined || sessionId === undefined) return undefined;
  try {
    const branch = await store.getBranch(sessionId);
    const firstKeptEntryId = firstKeptEntry(branch, history.slice(result.firstKeptIndex));
    if (firstKeptEntryId === undefined) {
      throw new StoreError({
        message:
          'None of the kept messages is in the session, so the compaction could not be recorded. Append every message to the store before preparing.',
        code: 'STORE_FAILED',
      });
    }
    await store.appendEntry(sessionId, {
      type: 'compaction',
      summary: result.summary,
      firstKeptEntryId,
      tokensBefore: result.tokensBefore,
      details: {
        reason,
        tokensAfter: result.tokensAfter,
        summarizedCount: result.summarizedCount,
        ...anchorsOf(result),
      },
    });
    return undefined;
  } catch (error) {
    return error;
  }
}
