// Settings: types and defaults, the checks, resolution and the limits derived from a resolved config.

export {
  type ContextConfig,
  type ContextConfigInput,
  checkedToolOutputs,
  DEFAULT_CONFIG,
  DEFAULT_TOOL_OUTPUT_LIMITS,
  type ToolOutputLimits,
  type ToolSummaryStrategy,
  type TruncateMode,
} from './defaults.js';
export { effectiveKeepRecentTokens } from './effective-keep-recent-tokens.js';
export { effectiveTokenLimit } from './effective-token-limit.js';
export { resolveConfig, toConfig } from './resolve-config.js';
export { configInputSchema, toolOutputSchema, toolSummaryStrategySchema } from './schema.js';
