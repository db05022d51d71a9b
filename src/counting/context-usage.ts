import { type ContextConfig, type ContextConfigInput, effectiveTokenLimit, toConfig } from '../config/index.js';
import type { Message } from '../types.js';
import { assertMessages } from '../validation/assert-messages.js';
import { option, parseOptions } from '../validation/parse-options.js';
import { describeCheckedContextTokens, type EstimateContextTokensOptions } from './estimate-context-tokens.js';
import { isAgentVisible } from './is-agent-visible.js';

/**
 * Options of {@link contextUsage} and {@link shouldCompact}.
 *
 * @example
 * ```ts
 * const options: ContextUsageOptions = { config: { contextWindow: 128_000 }, counter: approximateCounter };
 * ```
 */
export interface ContextUsageOptions extends EstimateContextTokensOptions {
  /** Settings, resolved or partial. @default the reference defaults */
  config?: ContextConfig | ContextConfigInput;
}

/**
 * How full the context is: below the warning, past it, or at the compaction limit.
 *
 * @example
 * ```ts
 * const level: UsageLevel = contextUsage(messages, { config }).level;
 * if (level === 'warning') console.warn('context is filling up');
 * ```
 */
type UsageLevel = 'ok' | 'warning' | 'compact';

/**
 * How full the context is.
 *
 * @example
 * ```ts
 * const { tokens, limit, ratio, level } = contextUsage(messages, { config });
 * ```
 */
export interface ContextUsage {
  /** Estimated tokens of the next request. */
  tokens: number;
  /** Where `tokens` comes from (`usage`: reported by the provider; `estimate`: counted; `mixed`: both). */
  source: 'usage' | 'estimate' | 'mixed';
  /** The effective token limit, or `undefined` when only the message count applies. */
  limit: number | undefined;
  /** The model's window, when configured. */
  contextWindow: number | undefined;
  /** Visible messages. */
  messageCount: number;
  /** Share of the window (or of the limit, or of `maxMessages`) in use. */
  ratio: number;
  /** `compact` once the limit is reached; `warning` from `warningThreshold` on. */
  level: UsageLevel;
}

/**
 * Measures the context against the configured thresholds. With a token limit (see
 * `effectiveTokenLimit`), the level is `compact` when the estimated tokens reach it and `warning`
 * when they reach `warningThreshold` of the window; without one, the visible message count is
 * compared to `maxMessages` (more than it is `compact`).
 *
 * @param messages - The conversation as it will be sent.
 * @param options - Config, counter, system prompt and tools.
 * @returns Tokens, limit, ratio and level.
 * @throws {@link ContextError} with code `INPUT_INVALID` for a malformed message (index and field named).
 *
 * @example
 * ```ts
 * const usage = contextUsage(messages, { config: { contextWindow: 128_000 } });
 * console.log(`Context: ${Math.round(usage.ratio * 100)}%`);
 * ```
 */
export function contextUsage(messages: readonly Message[], options: ContextUsageOptions = {}): ContextUsage {
  parseOptions('contextUsage', option.bag(), options);
  assertMessages(messages, 'contextUsage');
  return usageOf(messages, options, toConfig(options.config, 'contextUsage'));
}

/** {@link contextUsage} for checked messages and a resolved config. @internal */
export function usageOf(
  messages: readonly Message[],
  options: ContextUsageOptions,
  config: ContextConfig,
): ContextUsage {
  const estimate = describeCheckedContextTokens(messages, options);
  let messageCount = 0;
  for (const message of messages) if (isAgentVisible(message)) messageCount++;
  return measureUsage(config, estimate.tokens, estimate.source, messageCount);
}

/**
 * Places a token count and message count against the configured thresholds.
 *
 * @internal
 */
export function measureUsage(
  config: ContextConfig,
  tokens: number,
  source: ContextUsage['source'],
  messageCount: number,
): ContextUsage {
  const limit = effectiveTokenLimit(config);
  const contextWindow = config.contextWindow;
  let ratio: number;
  let level: ContextUsage['level'];
  if (limit === undefined) {
    ratio = messageCount / config.maxMessages;
    level = messageCount > config.maxMessages ? 'compact' : ratio >= config.warningThreshold ? 'warning' : 'ok';
  } else {
    ratio = tokens / (contextWindow ?? limit);
    level = tokens >= limit ? 'compact' : ratio >= config.warningThreshold ? 'warning' : 'ok';
  }
  // One literal: the manager places its usage with this on every call.
  return { tokens, source, limit, contextWindow, messageCount, ratio, level };
}
