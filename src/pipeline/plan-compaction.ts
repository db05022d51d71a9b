import { type ContextConfig, type ContextConfigInput, effectiveKeepRecentTokens, toConfig } from '../config/index.js';
import { estimateMessageTokens } from '../counting/estimate-message-tokens.js';
import { isAgentVisible } from '../counting/is-agent-visible.js';
import { referenceCounter, type TokenCounter } from '../counting/token-counter.js';
import { clipText } from '../internal/clip-text.js';
import { validCutPoints } from '../internal/tool-pairing.js';
import { summaryText } from '../messages/summary-text.js';
import { serializeConversation } from '../summarizing/serialize-conversation.js';
import type { Message, ToolResultMessage } from '../types.js';
import { assertMessages } from '../validation/assert-messages.js';
import { option, parseOptions } from '../validation/parse-options.js';
import { splitByCount } from './split-by-count.js';
import { type SplitResult, splitByTokenBudget } from './split-by-token-budget.js';

/**
 * Code points of each tool result (all its text parts together) given to the summarizer when
 * compacting, head and tail.
 *
 * @example
 * ```ts
 * // Longer tool results reach the summarizer as their head and tail only.
 * const cut = [...resultText].length > COMPACTION_TOOL_RESULT_CHARS;
 * ```
 *
 * @internal
 */
export const COMPACTION_TOOL_RESULT_CHARS = 1_800;

/**
 * Options of {@link planCompaction}.
 *
 * @example
 * ```ts
 * const options: PlanCompactionOptions = { config: { contextWindow: 128_000 }, counter: approximateCounter };
 * ```
 */
export interface PlanCompactionOptions {
  /** Settings, resolved or partial. @default the reference defaults */
  config?: ContextConfig | ContextConfigInput;
  /** The counter. @default referenceCounter */
  counter?: TokenCounter;
}

/**
 * What a compaction will do, decided before any summarizer call.
 *
 * @example
 * ```ts
 * const plan = planCompaction(messages, { config });
 * console.log(`${plan.toSummarize.length} messages to summarize, ${plan.split.recent.length} kept`);
 * ```
 */
export interface CompactionPlan {
  /** The split into old and recent. */
  split: SplitResult;
  /** The text of the latest earlier summary in the old part, to be updated. */
  previousSummary: string | undefined;
  /** The visible old messages to summarize (tool results cut to 1,800 code points). */
  toSummarize: Message[];
  /** `toSummarize` flattened to text for the summarizer. */
  text: string;
}

/**
 * Cuts a tool result to 1,800 code points for the summarizer: one budget for all its text parts
 * together (joined as one part, head and tail), its images kept in place.
 */
function cutToolResult(message: ToolResultMessage): ToolResultMessage {
  const texts = message.content.filter((part) => part.type === 'text');
  const joined = texts.map((part) => part.text).join('\n');
  const clipped = clipText(joined, COMPACTION_TOOL_RESULT_CHARS, 'head_tail');
  if (clipped === joined) return message;
  const first = texts[0];
  const content = message.content.flatMap((part): ToolResultMessage['content'] => {
    if (part.type !== 'text') return [part];
    return part === first ? [{ ...part, text: clipped }] : [];
  });
  return { ...message, content };
}

/**
 * A tail made only of tool-result summaries (which ctxkit appends after the host's messages) would
 * summarize away the host's newest message, such as the request the model is about to answer. Moves
 * the cut back to the nearest valid point that keeps the newest visible message of any other kind.
 */
function keepOwnNewest(messages: readonly Message[], split: SplitResult, counter: TokenCounter): SplitResult {
  const own = (message: Message) => isAgentVisible(message) && message.meta?.kind !== 'tool_summary';
  if (split.recent.some(own)) return split;
  let newest = split.cutIndex - 1;
  while (newest >= 0 && !own(messages[newest]!)) newest--;
  if (newest < 0) return split;
  const valid = validCutPoints(messages);
  let cut = newest;
  while (cut > 0 && !valid[cut]) cut--;
  const recent = messages.slice(cut);
  let recentTokens = 0;
  for (const message of recent) if (isAgentVisible(message)) recentTokens += estimateMessageTokens(message, counter);
  return { old: messages.slice(0, cut), recent, recentTokens, cutIndex: cut };
}

/**
 * Plans a compaction, purely: splits by token budget when `keepRecentTokens` (clamped to half the
 * limit) is above 0, else by `keepRecent`; finds an earlier summary in the old part to update; and
 * projects the visible old messages for the summarizer, cutting tool results to 1,800 code points.
 *
 * @param messages - The conversation; not mutated.
 * @param options - Config and counter.
 * @returns The plan; `toSummarize` is empty when there is nothing to compact.
 *
 * @example
 * ```ts
 * // With a window set, up to 10,000 of the newest tokens stay verbatim. Without one the limit is
 * // `maxTokens` (8,000 by default) and the kept share is clamped to half of it: 4,000.
 * const plan = planCompaction(messages, { config: { contextWindow: 128_000, keepRecentTokens: 10_000 } });
 * console.log(`${plan.toSummarize.length} to summarize, ${plan.split.recentTokens} tokens kept`);
 * ```
 */
export function planCompaction(messages: readonly Message[], options: PlanCompactionOptions = {}): CompactionPlan {
  assertMessages(messages, 'planCompaction');
  parseOptions('planCompaction', option.bag(), options);
  const config = toConfig(options.config, 'planCompaction');
  const counter = options.counter ?? referenceCounter;
  const budget = effectiveKeepRecentTokens(config);
  const split = keepOwnNewest(
    messages,
    budget > 0
      ? splitByTokenBudget(messages, { budget, counter })
      : splitByCount(messages, { keep: config.keepRecent, counter }),
    counter,
  );
  let previousSummary: string | undefined;
  const toSummarize: Message[] = [];
  for (const message of split.old) {
    if (!isAgentVisible(message)) continue;
    const summary = summaryText(message);
    if (summary !== undefined) {
      previousSummary = summary;
      continue;
    }
    toSummarize.push(message.role === 'toolResult' ? cutToolResult(message) : message);
  }
  const text = serializeConversation(toSummarize, { toolResultMaxChars: COMPACTION_TOOL_RESULT_CHARS });
  return { split, previousSummary, toSummarize, text };
}
