import { countExtras } from '../counting/estimate-context-tokens.js';
import { sumMessageTokens } from '../counting/sum-message-tokens.js';
import { referenceCounter } from '../counting/token-counter.js';
import { CompactionError, SessionError } from '../errors.js';
import { type CompactionResult, type CompactOptions, compact } from '../pipeline/compact.js';
import type { CompactionEntry, SessionEntry } from '../session-entry.js';
import { anchorsOf } from '../summarizing/anchors/carried-anchors.js';
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
  const before = buildContextFromBranch(await store.getBranch(sessionId, undefined, CONTEXT), filter);
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
  return { entry, result, context, tokensAfter };
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
