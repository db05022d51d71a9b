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
import { applyRung, CUTTING_RUNGS, requestTokens } from './recovery-ladder.js';

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
 * The gentlest level whose kept tail, plus `extra` (system prompt and tools), as the provider would
 * count them (`scale`: the calibration), and `room` (the summary's), fits below the limit; else the
 * deepest level that has something to summarize. Returns the level and the tokens of the tail it
 * keeps (by the counter).
 *
 * @internal
 */
export function chooseCompactionLevel(
  history: readonly Message[],
  levels: readonly CompactionLevel[],
  options: {
    counter: TokenCounter;
    limit: number | undefined;
    extra: number;
    room: number;
    scale?: (tokens: number) => number;
  },
): { level: CompactionLevel; recentTokens: number } {
  const scale = options.scale ?? ((tokens: number) => tokens);
  let fallback: { level: CompactionLevel; recentTokens: number } | undefined;
  for (const level of levels) {
    const plan = planCompaction(level.prepare(history), { config: level.config, counter: options.counter });
    if (plan.toSummarize.length === 0) continue;
    fallback = { level, recentTokens: plan.split.recentTokens };
    if (options.limit === undefined || scale(plan.split.recentTokens + options.extra) + options.room < options.limit)
      return fallback;
  }
  return fallback ?? { level: levels[0]!, recentTokens: 0 };
}

/**
 * The kept tail of an overflow recovery's summarize rung: the gentlest level whose request fits
 * under `target` with its tool results intact (its kept tail, the system prompt and tools, and room
 * for the summary); else the gentlest whose request fits once the cutting rungs have cut the
 * tail down to stubs (the rungs after summarize then cut it no further than needed); else the
 * deepest level. A level with nothing older than its tail to summarize keeps the whole history
 * (`summarize: false`): then the recovery only cuts. `recentTokens` is the kept part as it will fit
 * (intact, or stubbed).
 *
 * @internal
 */
export function chooseRecoveryLevel(
  history: readonly Message[],
  levels: readonly CompactionLevel[],
  options: {
    counter: TokenCounter;
    count: (message: Message) => number;
    target: number;
    /** Tokens of the system prompt and tools. */
    extras: number;
    /** What a summary needs under the target. */
    summaryRoom: number;
  },
): { level: CompactionLevel; recentTokens: number; summarize: boolean } {
  const candidates = levels.map((level) => {
    const plan = planCompaction(history, { config: level.config, counter: options.counter });
    const summarize = plan.toSummarize.length > 0;
    // Without a summary the whole history is sent (an earlier summary in the old part included).
    return { level, summarize, kept: summarize ? plan.split.recent : [...history] };
  });
  const fits = (tokens: number, summarize: boolean) =>
    tokens + options.extras + (summarize ? options.summaryRoom : 0) <= options.target;
  for (const { level, summarize, kept } of candidates) {
    const tokens = requestTokens(kept, options.count, 0);
    if (fits(tokens, summarize)) return { level, recentTokens: tokens, summarize };
  }
  let deepest: { level: CompactionLevel; recentTokens: number; summarize: boolean } | undefined;
  for (const { level, summarize, kept } of candidates) {
    let cut: readonly Message[] = kept;
    for (const rung of CUTTING_RUNGS) cut = applyRung(rung, cut, kept);
    deepest = { level, recentTokens: requestTokens(cut, options.count, 0), summarize };
    if (fits(deepest.recentTokens, summarize)) return deepest;
  }
  if (deepest === undefined) throw new Error('chooseRecoveryLevel needs at least one level');
  return deepest;
}
