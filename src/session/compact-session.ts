import { countExtras } from '../counting/estimate-context-tokens.js';
import { sumMessageTokens } from '../counting/sum-message-tokens.js';
import { referenceCounter } from '../counting/token-counter.js';
import { CompactionError, SessionError } from '../errors.js';
import type { NativeCompaction } from '../native-compaction.js';
import { type CompactionResult, type CompactOptions, compact } from '../pipeline/compact.js';
import { portableSummary } from '../pipeline/portable-summary.js';
import { nativeSummaryMessage } from '../pipeline/resolve-native-compactions.js';
import type { CompactionEntry, SessionEntry } from '../session-entry.js';
import type { Anchor } from '../summarizing/anchors/anchor.js';
import { anchorsOf } from '../summarizing/anchors/carried-anchors.js';
import type { Message } from '../types.js';
import { buildContextFromBranch, type ModelFacingFilter, type SessionContext } from './build-context-from-branch.js';
import { checkSessionOptions } from './check-entries.js';
import type { SessionStore } from './session-store.js';

const CONTEXT = { from: 'context' } as const;

/**
 * Options of {@link compactSession}: the store and session, plus everything {@link compact} takes.
 *
 * @example
 * ```ts
 * const options: CompactSessionOptions = { store, sessionId, summarizer, config: { contextWindow: 128_000 } };
 * ```
 */
export interface CompactSessionOptions extends CompactOptions {
  /** Where the session lives. */
  store: SessionStore;
  /** The session whose current branch is compacted. */
  sessionId: string;
  /** Which messages reach the model. @default 'default' */
  modelFacing?: ModelFacingFilter;
}

/**
 * A compaction recorded in the session tree.
 *
 * @example
 * ```ts
 * const { entry, result, context } = await compactSession({ store, sessionId, summarizer });
 * ```
 */
export interface CompactSessionResult {
  /** The appended compaction entry (now the leaf). */
  entry: CompactionEntry;
  /** What {@link compact} returned for the branch's context. */
  result: CompactionResult;
  /** The branch's context rebuilt from the store after the compaction. */
  context: SessionContext;
  /**
   * Estimated tokens of `context` (system prompt and tools included), counted like
   * `result.tokensBefore`; also stored in the entry's `details`.
   */
  tokensAfter: number;
  /**
   * When the branch started from a provider's opaque native compaction (OpenAI's `compaction` item)
   * whose portable summary was not written yet: the entry that recorded it, written first (same
   * payload and kept range, `details.reason` `'native-summarized'`). Absent otherwise.
   */
  portable?: CompactionEntry;
}

/**
 * Compacts the current branch of a stored session: builds its context, runs {@link compact} on it,
 * maps the first kept message back to its entry, and appends a compaction entry (`summary`,
 * `firstKeptEntryId`, `tokensBefore`) as a child of the leaf. History is never deleted or
 * rewritten: only what later contexts start from changes. A failed compaction appends nothing.
 *
 * The kept tail is rebuilt from its entries, so tool results that `compact` archived under a tool
 * digest in `result.messages` come back verbatim in `context.messages`; the shrink is checked on that
 * rebuilt context, and a compaction that would not make it smaller appends nothing (`NOT_SMALLER`).
 * The entry is appended at the store's leaf, so a message appended while the summary was written
 * stays in the context after it.
 *
 * A branch that starts from a provider's opaque native compaction (OpenAI's `compaction` item,
 * recorded by the manager with no portable summary yet) gets that summary first, written once with
 * the same summarizer from the entries the compaction replaced (an earlier opaque one among them
 * summarized too, in memory) and recorded as its own compaction entry (`result.portable`), so the
 * new checkpoint updates a summary that holds the compacted span instead of a note that it exists.
 * That entry stays when the compaction after it fails (the summary is written once either way); a
 * failure writing it appends nothing.
 *
 * @param options - The store, session, summarizer and compaction settings.
 * @returns The appended entry, the core result and the new context.
 * @throws `CompactionError` when the compaction fails (see {@link compact}); `SessionError` for an
 * unknown session, a broken tree, or a leaf moved to another branch while the summary was written.
 *
 * @example
 * ```ts
 * if (shouldCompact(context.messages, { config })) {
 *   ({ context } = await compactSession({ store, sessionId, summarizer, config }));
 * }
 * ```
 */
export async function compactSession(options: CompactSessionOptions): Promise<CompactSessionResult> {
  checkSessionOptions('compactSession', options);
  const { store, sessionId, modelFacing, ...compactOptions } = options;
  const filter = modelFacing === undefined ? {} : { modelFacing };
  // Only the context branch is read (stores that cannot give it return the whole path).
  let before = buildContextFromBranch(await store.getBranch(sessionId, undefined, CONTEXT), filter);
  let portable: CompactionEntry | undefined;
  if (lacksPortableSummary(before.messages[0])) {
    portable = await writePortableSummary(store, sessionId, filter, compactOptions);
    before = buildContextFromBranch(await store.getBranch(sessionId, undefined, CONTEXT), filter);
  }
  const result = await compact(before.messages, compactOptions);
  const firstKeptEntryId = before.entryIds[result.firstKeptIndex];
  if (firstKeptEntryId === undefined) {
    throw new CompactionError({
      message: 'The compaction kept no message of the branch, so there is nothing to record.',
      code: 'NOTHING_TO_COMPACT',
    });
  }
  // Entries appended meanwhile on the same branch are kept: they follow firstKeptEntryId, and the
  // entry goes to the store's own leaf. A leaf moved to another branch gets no compaction.
  const branch = await store.getBranch(sessionId, undefined, CONTEXT);
  if (!branch.some((entry) => entry.id === firstKeptEntryId)) {
    throw new SessionError({
      message:
        'The leaf moved to another branch while the summary was being written; nothing was appended. Compact again.',
      code: 'ENTRY_NOT_FOUND',
    });
  }
  const input = {
    type: 'compaction' as const,
    summary: result.summary,
    firstKeptEntryId,
    tokensBefore: result.tokensBefore,
  };
  // The stored tail comes back verbatim (`compact` may have archived some of its tool results under
  // a digest that the tree does not hold), so measure the context the entry will really give.
  const tokensAfter = measureAfter(branch, input, filter, compactOptions);
  if (tokensAfter >= result.tokensBefore) {
    throw new CompactionError({
      message: `Compaction would not shrink the session's context (${result.tokensBefore} → ${tokensAfter} tokens); nothing was appended. The kept tail is too large: lower keepRecentTokens or truncate tool output.`,
      code: 'NOT_SMALLER',
    });
  }
  const entry = (await store.appendEntry(sessionId, {
    ...input,
    details: { tokensAfter, summarizedCount: result.summarizedCount, ...anchorsOf(result) },
  })) as CompactionEntry;
  const context = buildContextFromBranch(await store.getBranch(sessionId, undefined, CONTEXT), filter);
  return { entry, result, context, tokensAfter, ...(portable ? { portable } : {}) };
}

/** The index of the last compaction entry before `end`, or -1. */
function lastCompactionBefore(branch: readonly SessionEntry[], end: number): number {
  for (let index = end - 1; index >= 0; index--) if (branch[index]!.type === 'compaction') return index;
  return -1;
}

/** Whether a context's first message is a native compaction's summary with no portable summary yet. */
function lacksPortableSummary(message: Message | undefined): boolean {
  const native = message?.meta?.native;
  return native !== undefined && native.summary === undefined;
}

/**
 * Writes the portable summary of the latest compaction on the branch (an opaque native one) from
 * the entries it replaced, and records it in a compaction entry that supersedes it: the same
 * payload, kept range and `tokensBefore`, the summary beside the payload and its facts in
 * `details.anchors`. Returns that entry.
 */
async function writePortableSummary(
  store: SessionStore,
  sessionId: string,
  filter: { modelFacing?: ModelFacingFilter },
  options: CompactOptions,
): Promise<CompactionEntry> {
  const branch = await store.getBranch(sessionId);
  const index = lastCompactionBefore(branch, branch.length);
  const entry = branch[index] as CompactionEntry;
  const native = entry.native as NativeCompaction;
  const { summary, anchors } = await summarizeReplaced(branch, index, filter, options);
  return (await store.appendEntry(sessionId, {
    type: 'compaction',
    summary,
    firstKeptEntryId: entry.firstKeptEntryId,
    tokensBefore: entry.tokensBefore,
    details: {
      reason: 'native-summarized',
      provider: native.provider,
      model: native.model,
      ...(anchors.length > 0 ? { anchors } : {}),
    },
    native: { ...native, summary },
  })) as CompactionEntry;
}

/**
 * The portable summary of the compaction entry `branch[index]`: the context just before its first
 * kept entry, summarized whole (an opaque native summary at its start written first, in memory).
 */
async function summarizeReplaced(
  branch: readonly SessionEntry[],
  index: number,
  filter: { modelFacing?: ModelFacingFilter },
  options: CompactOptions,
): Promise<{ summary: string; anchors: Anchor[] }> {
  const entry = branch[index] as CompactionEntry;
  const first = branch.findIndex((candidate) => candidate.id === entry.firstKeptEntryId);
  const older =
    first > 0
      ? buildContextFromBranch(branch.slice(0, first), { ...filter, leafId: branch[first - 1]!.id }).messages
      : [];
  const head = older[0];
  const earlier = lastCompactionBefore(branch, first);
  if (lacksPortableSummary(head) && earlier >= 0) {
    const written = await summarizeReplaced(branch, earlier, filter, options);
    const message = nativeSummaryMessage(
      { ...head!.meta!.native!, summary: written.summary },
      written.anchors.length > 0 ? { anchors: written.anchors } : {},
    );
    const kept = head!.meta?.keptMessages;
    older[0] = kept ? { ...message, meta: { ...message.meta, keptMessages: kept } } : message;
  }
  if (!older.some((message) => message.meta?.agentVisible !== false)) {
    throw new CompactionError({
      message: `The ${entry.native?.provider ?? 'provider'} compaction replaced entries this branch does not hold, so its portable summary cannot be written; nothing was appended.`,
      code: 'NOTHING_TO_COMPACT',
    });
  }
  return portableSummary(older, options);
}

function measureAfter(
  branch: readonly SessionEntry[],
  input: Omit<CompactionEntry, 'id' | 'parentId' | 'timestamp'>,
  filter: { modelFacing?: ModelFacingFilter },
  options: CompactOptions,
): number {
  const leaf = branch[branch.length - 1]!;
  const draft = {
    ...input,
    id: `${leaf.id}\u0000draft`,
    parentId: leaf.id,
    timestamp: leaf.timestamp,
  } as CompactionEntry;
  const { messages } = buildContextFromBranch([...branch, draft], { ...filter, leafId: draft.id });
  const counter = options.counter ?? referenceCounter;
  return sumMessageTokens(messages, counter) + countExtras(options, counter);
}
