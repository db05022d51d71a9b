/** The manager's options: checked, and resolved to a config and the model's limits. */

import { type ContextConfig, resolveConfig } from '../config/index.js';
import { ConfigError } from '../errors.js';
import { getModelLimits, type ModelLimits } from '../models/model-limits.js';
import { describeValue } from '../validation/describe-value.js';
import * as v from '../validation/light-schema.js';
import { option, parseOptions } from '../validation/parse-options.js';
import type { ContextManagerOptions } from './context-manager-types.js';
import type { ContextEvent } from './events.js';
import { MAX_SUMMARY_TIMEOUT_MS } from './internal/summary-timeout.js';
import type { NativeCompactionStrategy } from './native-compactions.js';

const optionsSchema = /* @__PURE__ */ (() =>
  v.object({
    summarizer: option.summarizer(),
    counter: option.counter().optional(),
    model: v.string({ error: 'must be a model id such as "gpt-4o"' }).optional(),
    contextWindow: option.positive().optional(),
    sessionId: v.string({ error: 'must be the id of a session in the store' }).optional(),
    costAware: v.boolean({ error: 'must be true or false' }).optional(),
    calibrate: v.boolean({ error: 'must be true or false' }).optional(),
    summarizerFallback: v.boolean({ error: 'must be true or false' }).optional(),
    summaryTimeoutMs: option
      .positive()
      .lte(MAX_SUMMARY_TIMEOUT_MS, `must be at most ${MAX_SUMMARY_TIMEOUT_MS} (24.8 days, the longest a timer waits)`)
      .optional(),
  }))();

/**
 * Checks `createContextManager`'s options and resolves its config (the window from the options,
 * the config or the model) and the model's limits.
 *
 * @throws {@link ConfigError} naming the field.
 * @internal
 */
export function resolveManagerOptions(options: ContextManagerOptions): {
  config: ContextConfig;
  limits: ModelLimits | undefined;
  native: NativeCompactionStrategy | undefined;
} {
  parseOptions('createContextManager', optionsSchema, options ?? {});
  const native = nativeStrategy(options.compaction);
  if (options.store !== undefined && options.sessionId === undefined) {
    throw new ConfigError({
      message:
        'createContextManager: options.sessionId must be set when options.store is (got undefined): pass the id of the session to record compactions in',
      field: 'sessionId',
    });
  }
  const limits = options.model ? getModelLimits(options.model, { overrides: options.modelLimits }) : undefined;
  if (options.model && limits === undefined && options.contextWindow === undefined && !options.config?.contextWindow) {
    throw new ConfigError({
      message: `createContextManager: options.model "${options.model}" is unknown: pass contextWindow, or add the model with the modelLimits option`,
      field: 'model',
    });
  }
  const contextWindow = options.contextWindow ?? options.config?.contextWindow ?? limits?.contextWindow;
  return { config: resolveConfig({ ...options.config, ...(contextWindow ? { contextWindow } : {}) }), limits, native };
}

/** The native strategy of the `compaction` option, or `undefined` for ctxkit's own compaction. */
function nativeStrategy(compaction: unknown): NativeCompactionStrategy | undefined {
  if (compaction === undefined || compaction === 'client') return undefined;
  const strategy = compaction as NativeCompactionStrategy | null;
  if (typeof strategy === 'object' && strategy !== null && typeof strategy.start === 'function') return strategy;
  // The strings of earlier versions name the call that replaces them.
  const hint =
    compaction === 'native' || compaction === 'auto'
      ? ` (for '${compaction}', pass nativeCompaction('${compaction}'))`
      : '';
  throw new ConfigError({
    message: `createContextManager: options.compaction must be 'client' or nativeCompaction(…), received ${describeValue(compaction)}${hint}.`,
    field: 'compaction',
  });
}

/**
 * Calls the host's event listener; a listener's failure must not break the host's loop.
 *
 * @internal
 */
export function callListener(onEvent: ((event: ContextEvent) => void) | undefined, event: ContextEvent): void {
  try {
    onEvent?.(event);
  } catch {
    // Ignored: see above.
  }
}
