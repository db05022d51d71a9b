import {
  type ContextConfig,
  effectiveKeepRecentTokens,
  resolveConfig,
  type ToolOutputLimits,
} from '../config/index.js';
import type { TokenCounter } from '../counting/token-counter.js';
import { planCompaction } from '../pipeline/plan-compaction.js';
import { truncateToolContent } from '../pipeline/truncate-tool-content.js';
import type { Message, ToolResultMessage } from '../types.js';

/** One way to compact, from the gentlest to the deepest. @internal */
export interface CompactionLevel {
  config: ContextConfig;
  /** Prepares the history for this level (the deeper levels truncate tool output harder). */
  prepare(history: readonly Message[]): Message[];
}

function truncateResults(history: readonly Message[], limits: Partial<ToolOutputLimits>): Message[] {
  return history.map((message) => {
    if (message.role !== 'toolResult') return message;
    let changed = false;
    const content = message.content.map((part) => {
      if (part.type !== 'text') return part;
      const result = truncateToolContent(part.text, limits);
      if (!result.truncated) return part;
      changed = true;
      return { ...part, text: result.text };
    });
    return changed ? ({ ...message, content } satisfies ToolResultMessage) : message;
  });
}

/**
 * The levels a manager escalates through when the kept tail alone would not fit: the configured
 * tail; a quarter of it with tool output cut to 8 KiB; finally only the newest message (and the tool
 * calls it needs) with tool output cut to 2 KiB.
 *
 * @internal
 */
export function compactionLevels(config: ContextConfig): CompactionLevel[] {
  const budget = effectiveKeepRecentTokens(config);
  const tight = { maxLines: 200, maxBytes: 8 * 1024, maxChars: 8 * 1024 };
  const tightest = { maxLines: 50, maxBytes: 2 * 1024, maxChars: 2 * 1024 };
  return [
    { config, prepare: (history) => [...history] },
    {
      config: resolveConfig({ ...config, keepRecentTokens: Math.floor(budget / 4) }),
      prepare: (history) => truncateResults(history, tight),
    },
    {
      config: resolveConfig({ ...config, keepRecentTokens: 0, keepRecent: 1 }),
      prepare: (history) => truncateResults(history, tightest),
    },
  ];
}

/**
 * The gentlest level whose kept tail, plus `extra` (system prompt, tools and the summary's budget),
 * fits below the limit; else the deepest level that has something to summarize. Returns the level
 * and the tokens of the tail it keeps.
 *
 * @internal
 */
export function chooseCompactionLevel(
  history: readonly Message[],
  levels: readonly CompactionLevel[],
  options: { counter: TokenCounter; limit: number | undefined; extra: number },
): { level: CompactionLevel; recentTokens: number } {
  let fallback: { level: CompactionLevel; recentTokens: number } | undefined;
  for (const level of levels) {
    const plan = planCompaction(level.prepare(history), { config: level.config, counter: options.counter });
    if (plan.toSummarize.length === 0) continue;
    fallback = { level, recentTokens: plan.split.recentTokens };
    if (options.limit === undefined || plan.split.recentTokens + options.extra < options.limit) return fallback;
  }
  return fallback ?? { level: levels[0]!, recentTokens: 0 };
}
