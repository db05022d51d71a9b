import { toConfig } from '../config/index.js';
import { type ContextUsageOptions, usageOf } from '../counting/context-usage.js';
import type { Message } from '../types.js';
import { assertMessages } from '../validation/assert-messages.js';
import { option, parseOptions } from '../validation/parse-options.js';

/**
 * Whether the conversation should be compacted now, in the reference order: `autoCompact` off →
 * `false`; a token limit exists → compact when the estimated tokens reach it; else when there are
 * more visible messages than `maxMessages`.
 *
 * @param messages - The conversation as it will be sent.
 * @param options - Config, counter, system prompt and tools.
 * @returns `true` when compaction is due.
 * @throws {@link ContextError} with code `INPUT_INVALID` for a malformed message (index and field named).
 *
 * @example
 * ```ts
 * if (shouldCompact(messages, { config, counter })) messages = (await compact(messages, { summarizer, config })).messages;
 * ```
 */
export function shouldCompact(messages: readonly Message[], options: ContextUsageOptions = {}): boolean {
  parseOptions('shouldCompact', option.bag(), options);
  assertMessages(messages, 'shouldCompact');
  const config = toConfig(options.config, 'shouldCompact');
  if (!config.autoCompact) return false;
  return usageOf(messages, options, config).level === 'compact';
}
