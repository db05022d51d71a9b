import { type CompactionResult, type CompactOptions, compact } from '../core/compact.js';
import { CompactionError, SessionError } from '../errors.js';
import type { SessionStore } from '../session-store.js';
import type { CompactionEntry } from '../types.js';
import { buildContextFromBranch, type ModelFacingFilter, type SessionContext } from './build-context-from-branch.js';

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
}

/**
 * Compacts the current branch of a stored session: builds its context, runs {@link compact} on it,
 * maps the first kept message back to its entry, and appends a compaction entry (`summary`,
 * `firstKeptEntryId`, `tokensBefore`) as a child of the leaf. History is never deleted or
 * rewritten: only what later contexts start from changes. A failed compaction appends nothing.
 *
 * The kept tail is rebuilt from its entries, so tool results that `compact` archived under a tool
 * digest in `result.messages` come back verbatim in `context.messages`.
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
  const { store, sessionId, modelFacing, ...compactOptions } = options;
  const filter = modelFacing === undefined ? {} : { modelFacing };
  const before = buildContextFromBranch(await store.getBranch(sessionId), filter);
  const result = await compact(before.messages, compactOptions);
  const firstKeptEntryId = before.entryIds[result.firstKeptIndex];
  if (firstKeptEntryId === undefined) {
    throw new CompactionError('The compaction kept no message of the branch, so there is nothing to record.', {
      code: 'NOTHING_TO_COMPACT',
    });
  }
  // Entries appended meanwhile on the same branch are kept (they follow firstKeptEntryId); a leaf
  // moved to another branch is not compacted with this summary.
  const branch = await store.getBranch(sessionId);
  if (!branch.some((entry) => entry.id === firstKeptEntryId)) {
    throw new SessionError(
      'The leaf moved to another branch while the summary was being written; nothing was appended. Compact again.',
      { code: 'ENTRY_NOT_FOUND' },
    );
  }
  const entry = (await store.appendEntry(sessionId, {
    type: 'compaction',
    parentId: branch[branch.length - 1]!.id,
    summary: result.summary,
    firstKeptEntryId,
    tokensBefore: result.tokensBefore,
    details: { tokensAfter: result.tokensAfter, summarizedCount: result.summarizedCount },
  })) as CompactionEntry;
  const context = buildContextFromBranch(await store.getBranch(sessionId), filter);
  return { entry, result, context };
}
