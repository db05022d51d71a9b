// The check of the settings, each field alone (resolve-config.ts checks how they fit together): the
// light twin of the public zod `contextConfigSchema` (context-config-schema.ts), which a property
// test holds equal to it, so resolving a config does not put zod in a host's bundle.
import * as v from '../validation/light-schema.js';
import { option } from '../validation/parse-options.js';

const count = /* @__PURE__ */ option.count();
const positive = /* @__PURE__ */ option.positive();
const share = /* @__PURE__ */ option.share();

/** The strategies of {@link ToolSummaryStrategy}, shared by every validator. @internal */
export const toolSummaryStrategySchema = /* @__PURE__ */ v.enumOf(['llm', 'heuristic', 'off']);

/** The check of {@link ToolOutputLimits}, every field optional. @internal */
export const toolOutputSchema = /* @__PURE__ */ (() =>
  v.strictObject({
    maxLines: positive.optional(),
    maxBytes: positive.optional(),
    maxChars: positive.optional(),
    largeOutputThreshold: positive.optional(),
    truncateMode: v.enumOf(['head', 'head_tail']).optional(),
  }))();

/**
 * The check of the `ContextConfigInput` settings, equal to `contextConfigSchema`: unknown keys are
 * refused so typos surface.
 *
 * @internal
 */
export const configInputSchema = /* @__PURE__ */ (() =>
  v.strictObject({
    maxMessages: positive.optional(),
    maxTokens: count.optional(),
    keepRecent: count.optional(),
    keepRecentTokens: count.optional(),
    reserveTokens: count.optional(),
    toolCallCutoff: count.optional(),
    toolSummaryBatch: count.optional(),
    toolSummaryStrategy: toolSummaryStrategySchema.optional(),
    toolSummaryBudget: v.enumOf(['scaled', 'reference']).optional(),
    autoCompact: v.boolean().optional(),
    contextWindow: positive.optional(),
    warningThreshold: share.optional(),
    compactionThreshold: share.optional(),
    toolOutput: toolOutputSchema.optional(),
  }))();
