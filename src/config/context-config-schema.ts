// The public zod schema of the settings (`ctxkit/schemas`): each field alone (resolve-config.ts checks
// how they fit together). Resolving a config uses its light twin (schema.ts), held equal to it.
import * as z from 'zod/v4';
import { zodOption } from '../validation/zod-option.js';

const count = zodOption.count();
const positive = zodOption.positive();
const share = zodOption.share();

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
  toolSummaryStrategy: z.enum(['llm', 'heuristic', 'off']).optional(),
  toolSummaryBudget: z.enum(['scaled', 'reference']).optional(),
  autoCompact: z.boolean().optional(),
  contextWindow: positive.optional(),
  warningThreshold: share.optional(),
  compactionThreshold: share.optional(),
  toolOutput: toolOutputSchema.optional(),
});
