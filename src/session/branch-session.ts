import { isAgentVisible } from '../counting/is-agent-visible.js';
import { CompactionError } from '../errors.js';
import { COMPACTION_TOOL_RESULT_CHARS } from '../pipeline/plan-compaction.js';
import type { BranchSummaryEntry, SessionEntry } from '../session-entry.js';
import { serializeConversation } from '../summarizing/serialize-conversation.js';
import type { Summarizer } from '../summarizing/summarizer-types.js';
import { callSummarizer } from '../summarizing/summary-output.js';
import type { Message } from '../types.js';
import { checkSessionOptions } from './check-entries.js';
import { entryToMessage } from './entry-to-message.js';
import type { SessionStore } from './session-store.js';

/**
 * Options of {@link branchSession}.
 *
 * @example
 * ```ts
 * const options: BranchSessionOptions = { store, sessionId, toEntryId: 'e12', summarizer };
 * ```
 */
export interface BranchSessionOptions {
  /** Where the session lives. */
  store: SessionStore;
  /** The session. */
  sessionId: string;
  /** The entry to continue from; `null` starts a new root. */
  toEntryId: string | null;
  /** Writes a summary of the branch being left; without it, only the leaf moves. */
  summarizer?: Summarizer;
  /** Focus instructions passed to the summarizer. */
  instructions?: string;
  /** Aborts the summarizer call. */
  signal?: AbortSignal;
  /** The summary's output budget. @default 2000 */
  maxOutputTokens?: number;
}

/**
 * The outcome of {@link branchSession}.
 *
 * @example
 * ```ts
 * const { leafId, summary, abandoned } = await branchSession({ store, sessionId, toEntryId });
 * ```
 */
export interface BranchSessionResult {
  /** The new leaf: the branch summary entry, or `toEntryId`. */
  leafId: string | null;
  /** The appended branch summary, when one was written. */
  summary: BranchSummaryEntry | undefined;
  /** The entries of the branch that was left (still stored), oldest first. */
  abandoned: SessionEntry[];
}

/**
 * Moves a session's leaf to an earlier entry so the conversation continues from there. With a
 * summarizer, the branch being left is summarized first (request kind `branch`) and the summary
 * is appended after `toEntryId` as a `branch_summary` entry whose `fromId` is the old leaf, so the
 * model keeps what was learned. Nothing is deleted; the old branch stays reachable by its leaf.
 * When the summary fails, nothing changes: the leaf stays where it was.
 *
 * @param options - The store, session, target entry and optional summarizer.
 * @returns The new leaf, the summary entry and the abandoned entries.
 * @throws `SessionError` for an unknown session or entry; `CompactionError` when the summarizer
 * fails, is aborted, or returns an empty or cut-off summary.
 *
 * @example
 * ```ts
 * await branchSession({ store, sessionId, toEntryId: checkpointId, summarizer: heuristicSummarizer });
 * ```
 */
export async function branchSession(options: BranchSessionOptions): Promise<BranchSessionResult> {
  checkSessionOptions('branchSession', options);
  const { store, sessionId, toEntryId } = options;
  const oldLeaf = await store.getLeaf(sessionId);
  const target = await store.getBranch(sessionId, toEntryId);
  const kept = new Set(target.map((entry) => entry.id));
  const abandoned = (oldLeaf === null ? [] : await store.getBranch(sessionId, oldLeaf)).filter(
    (entry) => !kept.has(entry.id),
  );
  const messages: Message[] = [];
  for (const entry of abandoned) {
    const message = entryToMessage(entry);
    if (message !== undefined && isAgentVisible(message)) messages.push(message);
  }
  if (options.summarizer === undefined || messages.length === 0 || oldLeaf === null) {
    await store.setLeaf(sessionId, toEntryId);
    return { leafId: toEntryId, summary: undefined, abandoned };
  }
  const { text, truncated } = await callSummarizer(options.summarizer, {
    kind: 'branch',
    messages,
    text: serializeConversation(messages, { toolResultMaxChars: COMPACTION_TOOL_RESULT_CHARS }),
    ...(options.instructions ? { instructions: options.instructions } : {}),
    maxOutputTokens: options.maxOutputTokens ?? 2_000,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (text.length === 0) {
    throw new CompactionError({
      message: 'The summarizer returned an empty branch summary; the leaf was not moved.',
      code: 'SUMMARY_EMPTY',
    });
  }
  if (truncated) {
    throw new CompactionError({
      message: 'The branch summary was cut off at the output limit; the leaf was not moved. Raise maxOutputTokens.',
      code: 'SUMMARY_TRUNCATED',
    });
  }
  const summary = (await store.appendEntry(sessionId, {
    type: 'branch_summary',
    parentId: toEntryId,
    fromId: oldLeaf,
    summary: text,
  })) as BranchSummaryEntry;
  return { leafId: summary.id, summary, abandoned };
}
