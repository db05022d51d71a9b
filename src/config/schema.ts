// The zod schema of the settings: each field alone (resolve.ts checks how they fit together).
import * as z from 'zod';

import { option } from '../validation/parse-options.js';

const count = option.count();
const positive = option.positive();
const share = option.share();

/** The strategies of {@link ToolSummaryStrategy}, shared by every validator. @internal */
export const toolSummaryStrategySchema = z.enum(['llm', 'heuristic', 'off']);

/** The schema of {@link ToolOutputLimits}, every field optional. @internal */
export const toolOutputSchema = z.strictObject({
  maxLines: positive.optional(),
  maxBytes: positive.optional(),
  maxChars: positive.optional(),
  largeOutputThreshold: positive.optional(),
  truncateMode: z.enum(['head', 'head_tail']).optional(),
});

/**
 * The zod schema of the `ContextConfigInput` settings; unknown keys are rejected so typos surface. It checks
 * each field alone; `resolveConfig` also checks how they fit together.
 *
 * @example
 * ```ts
 * const parsed = contextConfigSchema.safeParse(JSON.parse(settingsFile));
 * if (!parsed.success) console.error(parsed.error.issues);
 * ```
 */
export const contextConfigSchema = z.strictObject({
  maxMessages: positive.optional(),
  maxTokens: count.optional(),
  keepRecent: count.optional(),
  keepRecentTokens: count.optional(),
  reserveTokens: count.optional(),
  toolCallCutoff: count.optional(),
  toolSummaryBatch: count.optional(),
  toolSummaryStrategy: toolSummaryStrategySchema.optional(),
  toolSummaryBudget: z.enum(['scaled', 'reference']).optional(),
  autoCompact: z.boolean().optional(),
  contextWindow: positive.optional(),
  warningThreshold: share.optional(),
  compactionThreshold: share.optional(),
  toolOutput: toolOutputSchema.optional(),
});
