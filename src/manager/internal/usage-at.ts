import type { ContextConfig } from '../../config/index.js';
import type { ContextUsage } from '../../counting/context-usage.js';

/**
 * The manager's usage for a count: `measureUsage`'s rule (tokens against the limit, or the
 * message count against `maxMessages` without one) with the limit resolved once and the object
 * built in one literal, as this runs on every call.
 *
 * @internal
 */
export function usageAt(
  config: ContextConfig,
  limit: number | undefined,
  tokens: number,
  source: ContextUsage['source'],
  messageCount: number,
): ContextUsage {
  const contextWindow = config.contextWindow;
  if (limit === undefined) {
    const ratio = messageCount / config.maxMessages;
    const level = messageCount > config.maxMessages ? 'compact' : ratio >= config.warningThreshold ? 'warning' : 'ok';
    return { tokens, source, limit, contextWindow, messageCount, ratio, level };
  }
  const ratio = tokens / (contextWindow ?? limit);
  const level = tokens >= limit ? 'compact' : ratio >= config.warningThreshold ? 'warning' : 'ok';
  return { tokens, source, limit, contextWindow, messageCount, ratio, level };
}
