import { createSummaryMessage } from '../messages/create-summary-message.js';
import { createBranchSummaryMessage } from '../messages/summary-messages.js';
import type { SessionEntry } from '../session-entry.js';
import type { Message, UserMessage } from '../types.js';
import { assertObjectArgument } from '../validation/assert-argument.js';

const derived = new WeakMap<SessionEntry, UserMessage>();

function derive(entry: SessionEntry): UserMessage | undefined {
  switch (entry.type) {
    case 'custom_message':
      return {
        role: 'user',
        content: entry.content,
        meta: { kind: 'custom', userVisible: entry.display !== false },
      };
    case 'branch_summary':
      return createBranchSummaryMessage(entry.summary);
    case 'compaction':
      return createSummaryMessage(entry.summary);
    default:
      return undefined;
  }
}

/**
 * The message an entry stands for, or `undefined` for entries that never reach a model (model and
 * thinking changes, labels, session info, custom state):
 * - `message` — `entry.message` itself (the same object);
 * - `custom_message` — a user message of kind `custom` (hidden from a transcript UI when
 *   `display` is `false`);
 * - `branch_summary` — a user message `[Summary of an abandoned branch]` + the summary, of kind
 *   `branch_summary`;
 * - `compaction` — a user message `[Previous conversation summary]` + the summary, of kind
 *   `compaction_summary`.
 *
 * Derived messages are memoized per entry object, so repeated calls return the same message and
 * token counts stay cached.
 *
 * @param entry - Any session entry; not mutated. Takes trusted input: an entry as a store returns
 *   it (stores validate what they read); it is not validated here.
 * @returns Its message, or `undefined`.
 *
 * @example
 * ```ts
 * const transcript = entries.map(entryToMessage).filter((message) => message !== undefined);
 * ```
 */
export function entryToMessage(entry: SessionEntry): Message | undefined {
  assertObjectArgument(entry, 'entryToMessage', 'entry', 'a session entry object');
  if (entry.type === 'message') return entry.message;
  let message = derived.get(entry);
  if (message === undefined) {
    message = derive(entry);
    if (message !== undefined) derived.set(entry, message);
  }
  return message;
}
