/** How much a summary of archived tool results may take: it grows with what it replaces. Internal. */

/**
 * The budgets of one tool-results summary, in code points: what the heuristic writes, what a
 * model's answer is kept to, and what the model is given to read.
 *
 * @internal
 */
export interface BatchBudget {
  heuristicChars: number;
  modelChars: number;
  inputChars: number;
}

/** One archived result as the budget sees it: whether it failed, and its code points. @internal */
export interface BatchItem {
  failed: boolean;
  chars: number;
}

/** The seed-001 reference: one fixed summary of 800 (heuristic) or 1,200 (model) code points, from 12,000 of input. */
const REFERENCE_BATCH_BUDGET: Readonly<BatchBudget> = /* @__PURE__ */ Object.freeze({
  heuristicChars: 800,
  modelChars: 1_200,
  inputChars: 12_000,
});

/** Code points per archived result: a failed one holds its errors, locations and failing tests. */
const PER_RESULT = { failed: 640, ok: 120 };
/** The summary never takes more than this share of what it replaces (above the reference floor). */
const SHARE_OF_ARCHIVED = 1 / 3;
/** The largest summary of one batch, whatever its size. */
const MAX_SUMMARY_CHARS = 16_000;
/** What the model reads per archived result, and at most. */
const INPUT_PER_RESULT = { failed: 1_600, ok: 400 };
const MAX_INPUT_CHARS = 48_000;

/**
 * The budgets of a summary of `items`: a share per result, four to five times more for a failed
 * one (`640` code points against `120`), never below the reference (800 / 1,200 / 12,000) and never
 * above a third of what the results themselves take nor 16,000 code points (the model's input: 1,600
 * per failed result, 400 per other, up to 48,000). `'reference'` gives the fixed seed-001 budgets.
 *
 * @internal
 */
export function batchBudget(items: readonly BatchItem[], mode: 'scaled' | 'reference'): BatchBudget {
  if (mode === 'reference') return { ...REFERENCE_BATCH_BUDGET };
  let wanted = 0;
  let input = 0;
  let archived = 0;
  for (const item of items) {
    wanted += item.failed ? PER_RESULT.failed : PER_RESULT.ok;
    input += item.failed ? INPUT_PER_RESULT.failed : INPUT_PER_RESULT.ok;
    archived += item.chars;
  }
  const cap = Math.min(MAX_SUMMARY_CHARS, Math.floor(archived * SHARE_OF_ARCHIVED));
  const summary = Math.min(wanted, cap);
  return {
    heuristicChars: Math.max(REFERENCE_BATCH_BUDGET.heuristicChars, summary),
    modelChars: Math.max(REFERENCE_BATCH_BUDGET.modelChars, Math.min(cap, Math.ceil(summary * 1.5))),
    inputChars: Math.max(REFERENCE_BATCH_BUDGET.inputChars, Math.min(MAX_INPUT_CHARS, input)),
  };
}
