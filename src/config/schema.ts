// The zod schema of the settings: each field alone (resolve.ts checks how they fit together).
import { z } from 'zod';

const count = z.number().int('must be a whole number').nonnegative('must not be negative');
const positive = z.number().int('must be a whole number').positive('must be greater than 0');
const share = z.number().gt(0, 'must be greater than 0').lte(1, 'must be at most 1');

/** The strategies of {@link ToolSummaryStrategy}, shared by every validator. @internal */
export const toolSummaryStrategySchema = z.enum(['llm', 'heuristic', 'off']);

const toolOutputSchema = z.strictObject({
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
  autoCompact: z.boolean().optional(),
  contextWindow: positive.optional(),
  warningThreshold: share.optional(),
  compactionThreshold: share.optional(),
  toolOutput: toolOutputSchema.optional(),
});
