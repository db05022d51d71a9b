import type { ContextConfig, ContextConfigInput } from '../config/index.js';
import type { TokenCounter } from '../counting/token-counter.js';
import { type CompactionPlan, planCompaction } from '../pipeline/plan-compaction.js';
import { buildContextFromBranch, type ModelFacingFilter, type SessionContext } from './build-context-from-branch.js';
import { checkOptionsObject } from './check-entries.js';
import type { SessionEntries } from './walk-branch.js';

/**
 * Options of {@link planSessionCompaction}.
 *
 * @example
 * ```ts
 * const options: PlanSessionCompactionOptions = { config: { keepRecentTokens: 8_000 }, counter: approximateCounter };
 * ```
 */
export interface PlanSessionCompactionOptions {
  /** The leaf of the branch to compact. @default the newest entry (the last of a path) */
  leafId?: string | null;
  /** Settings, resolved or partial. @default the reference defaults */
  config?: ContextConfig | ContextConfigInput;
  /** The counter. @default referenceCounter */
  counter?: TokenCounter;
  /** Which messages reach the model. @default 'default' */
  modelFacing?: ModelFacingFilter;
}

/**
 * What compacting a branch would do, decided without calling the summarizer.
 *
 * @example
 * ```ts
 * const { firstKeptEntryId, plan } = planSessionCompaction(path);
 * if (firstKeptEntryId !== undefined) console.log(`${plan.toSummarize.length} messages would be summarized`);
 * ```
 */
export interface SessionCompactionPlan {
  /** The branch's current context, which the compaction works on. */
  context: SessionContext;
  /** The core plan over `context.messages`: the split, the earlier summary, what to summarize. */
  plan: CompactionPlan;
  /** The entry the kept tail would start from; `undefined` when there is nothing to compact. */
  firstKeptEntryId: string | undefined;
}

/**
 * Plans a compaction of one branch, purely: builds the branch's context and plans the core
 * compaction over it. Because the context already starts with the latest compaction's summary and
 * its kept entries, a later compaction summarizes from the previous `firstKeptEntryId` on, updating
 * the earlier summary, so nothing an earlier compaction kept is ever dropped.
 *
 * @param entries - The session's entries or a root-to-leaf path (array or map); not mutated.
 * @param options - The leaf, config, counter and model-facing filter.
 * @returns The context, the core plan and the entry the kept tail would start from.
 * @throws `SessionError` for a broken tree (see {@link buildContextFromBranch}).
 *
 * @example
 * ```ts
 * const { firstKeptEntryId } = planSessionCompaction(await store.getBranch(sessionId), { config });
 * ```
 */
export function planSessionCompaction(
  entries: SessionEntries,
  options: PlanSessionCompactionOptions = {},
): SessionCompactionPlan {
  checkOptionsObject('planSessionCompaction', options);
  const context = buildContextFromBranch(entries, {
    ...(options.leafId === undefined ? {} : { leafId: options.leafId }),
    ...(options.modelFacing === undefined ? {} : { modelFacing: options.modelFacing }),
  });
  const plan = planCompaction(context.messages, {
    ...(options.config === undefined ? {} : { config: options.config }),
    ...(options.counter === undefined ? {} : { counter: options.counter }),
  });
  const firstKeptEntryId = plan.toSummarize.length === 0 ? undefined : context.entryIds[plan.split.cutIndex];
  return { context, plan, firstKeptEntryId };
}
