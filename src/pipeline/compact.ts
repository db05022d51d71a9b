import { type ContextConfig, type ContextConfigInput, effectiveTokenLimit, toConfig } from '../config/index.js';
import { countExtras } from '../counting/estimate-context-tokens.js';
import { estimateMessageTokens } from '../counting/estimate-message-tokens.js';
import { isAgentVisible } from '../counting/is-agent-visible.js';
import { sumMessageTokens } from '../counting/sum-message-tokens.js';
import { referenceCounter, type TokenCounter } from '../counting/token-counter.js';
import { CompactionError, ConfigError } from '../errors.js';
import { createSummaryMessage } from '../messages/create-summary-message.js';
import type { Anchor } from '../summarizing/anchors/anchor.js';
import { anchorCheckpoint, planAnchors } from '../summarizing/anchors/anchor-checkpoint.js';
import type { Summarizer } from '../summarizing/summarizer-types.js';
import { callSummarizer } from '../summarizing/summary-output.js';
import type { Message } from '../types.js';
import { assertMessages } from '../validation/assert-messages.js';
import * as v from '../validation/light-schema.js';
import { option, parseOptions } from '../validation/parse-options.js';
import { compactToolResultsInRecent } from './internal/compact-tool-results-in-recent.js';
import { cutToBudget, SUMMARY_OVERRUN } from './internal/cut-to-budget.js';
import { planCompaction } from './plan-compaction.js';

/**
 * Options of {@link compact}.
 *
 * @example
 * ```ts
 * const options: CompactOptions = { summarizer, config: { contextWindow: 128_000 }, instructions: 'Keep the API decisions' };
 * ```
 */
export interface CompactOptions {
  /** Writes the checkpoint. */
  summarizer: Summarizer;
  /** Settings, resolved or partial. @default the reference defaults */
  config?: ContextConfig | ContextConfigInput;
  /** The counter. @default referenceCounter */
  counter?: TokenCounter;
  /** Focus instructions passed to the summarizer. */
  instructions?: string;
  /** Aborts the summarizer call. */
  signal?: AbortSignal;
  /** Counted in `tokensBefore` and `tokensAfter`. */
  systemPrompt?: string;
  /** Tool definitions, counted in `tokensBefore` and `tokensAfter`. */
  tools?: unknown;
  /**
   * The summary's budget: what the summarizer is asked for. With anchoring on, the pinned facts have
   * `maxPinnedTokens` besides (and may take this budget too); the summarizer is asked for up to 30%
   * less when the facts it might lose need more than that room; its prose is held to half of the
   * tokens it replaces apart from an earlier checkpoint's pinned facts.
   * @default 80% of `reserveTokens`, lowered so the summary, the kept tail, the system prompt and
   * the tools stay at least 10% under the effective token limit; never below 256
   */
  maxOutputTokens?: number;
  /**
   * Room the pinned facts (anchoring on) may take beyond `maxOutputTokens`. The pinned section is
   * written by ctxkit, not by the summarizer, so the summarizer's output limit does not bound it; its
   * own room keeps the facts from being squeezed out as the rounds go by. The checkpoint may take
   * `maxOutputTokens + maxPinnedTokens`: the prose within `maxOutputTokens`, the facts within the whole
   * (facts outrank prose). `0` holds the whole checkpoint to `maxOutputTokens`.
   * @default a quarter of the effective token limit, within what the kept tail, the system prompt,
   * the tools and the summary budget leave under it (10% free); `0` when no token limit applies
   */
  maxPinnedTokens?: number;
  /**
   * Anchored facts: read the facts the checkpoint must keep before summarizing (see `extractAnchors`),
   * check the summary after, and pin what it lost in a `## Pinned Facts` section within
   * `maxOutputTokens + maxPinnedTokens`.
   * The anchors ride on the summary message (`meta.anchors`) to the next compaction.
   * @default true
   */
  anchoring?: boolean;
  /**
   * Fail with `NOT_SMALLER` when the result is not smaller than the input. Turn it off to write the
   * summary of a span that is already replaced (the portable summary of a provider's native
   * compaction), where only the text is wanted.
   * @default true
   */
  requireSmaller?: boolean;
}

/**
 * A successful compaction.
 *
 * @example
 * ```ts
 * const { messages, summary, tokensBefore, tokensAfter } = await compact(history, { summarizer });
 * ```
 */
export interface CompactionResult {
  /** The rebuilt list: the summary message, then the kept messages (and a tool digest, if any). */
  messages: Message[];
  /** The checkpoint text (without the message prefix). */
  summary: string;
  /** Index in the input of the first kept message. */
  firstKeptIndex: number;
  /** Estimated tokens of the input (visible messages, system prompt and tools). */
  tokensBefore: number;
  /** Estimated tokens of `messages`, counted the same way. */
  tokensAfter: number;
  /** Visible messages the summary replaced. */
  summarizedCount: number;
  /** Tool results in the kept tail archived under a `[Compaction tool digest]`. */
  archivedCount: number;
  /**
   * With anchoring on: the facts the summary kept by itself, those pinned for it, and those still lost
   * (only ones of low priority, when even their keys did not fit the budget).
   */
  anchors?: { kept: Anchor[]; pinned: Anchor[]; lost: Anchor[] };
}

/**
 * Compacts a conversation: keeps the recent tail verbatim, summarizes the visible older messages
 * into a structured checkpoint (updating an earlier summary rather than summarizing it again),
 * and rebuilds the list as one `[Previous conversation summary]` user message followed by the tail,
 * whose visible tool results beyond `toolCallCutoff` are archived under one `[Compaction tool digest]`.
 *
 * A summary more than 1.5 times the budget it was asked for (by the counter) is cut to the budget
 * where a line, else a sentence, ends, before the facts it lost are pinned: a summarizer that ignores
 * `maxOutputTokens` cannot leave the context over the limit.
 *
 * It fails loudly, with nothing to store, rather than return a bad checkpoint. The input is never
 * changed, so the history stays intact; keep the full transcript (or a `SessionStore`) yourself, as
 * the returned list holds only what is sent from now on.
 *
 * @param messages - The conversation; not mutated.
 * @param options - Summarizer, config, counter, focus instructions and abort signal.
 * @returns The rebuilt list and its numbers.
 * @throws {@link ConfigError} naming `summarizer` when there is none (or `maxOutputTokens` when it
 * is not a positive whole number);
 * {@link CompactionError} with code `NOTHING_TO_COMPACT` (nothing older than the tail),
 * `SUMMARIZER_FAILED`, `ABORTED`, `SUMMARY_EMPTY`, `SUMMARY_TRUNCATED` (cut off at the output limit:
 * a stop reason of `'length'`, `'max_tokens'`, `'MAX_TOKENS'` or another provider's spelling of it)
 * or `NOT_SMALLER` (the result would not be smaller than the input; the message says whether the
 * summary or the kept tail is the cause).
 *
 * @example
 * ```ts
 * if (shouldCompact(messages, { config })) {
 *   const result = await compact(messages, { summarizer, config });
 *   messages = result.messages;
 * }
 * ```
 */
export async function compact(messages: readonly Message[], options: CompactOptions): Promise<CompactionResult> {
  assertMessages(messages, 'compact');
  parseOptions('compact', optionsSchema, options ?? {});
  const config = toConfig(options.config, 'compact');
  const counter = options.counter ?? referenceCounter;
  const extras = countExtras(options, counter);
  const tokensBefore = sumMessageTokens(messages, counter) + extras;
  const plan = planCompaction(messages, { config, counter });
  if (plan.toSummarize.length === 0) {
    throw new CompactionError({
      message:
        'Nothing to compact: every message older than the kept tail is already summarized. Lower keepRecentTokens or keepRecent to compact further.',
      code: 'NOTHING_TO_COMPACT',
    });
  }
  const recent = compactToolResultsInRecent(plan.split.recent, { cutoff: config.toolCallCutoff });
  const keptTokens = sumMessageTokens(recent.messages, counter);
  const budget = options.maxOutputTokens ?? defaultSummaryBudget(config, keptTokens + extras);
  // Anchors are read before the summarizer runs (from the whole old part: archived tool results and
  // the earlier summary's anchors too), and part of the budget is held back for the pinned section.
  const anchoring =
    options.anchoring === false
      ? undefined
      : planAnchors(plan.split.old, {
          tokens: budget,
          pinnedTokens: options.maxPinnedTokens ?? defaultPinnedBudget(config, keptTokens + extras, budget),
          minTokens: MIN_SUMMARY_TOKENS,
          replacedTokens: sumMessageTokens(plan.split.old, counter),
        });
  const requested = anchoring?.requestTokens ?? budget;
  const answer = await callSummarizer(options.summarizer, {
    kind: 'compaction',
    messages: plan.toSummarize,
    text: plan.text,
    ...(plan.previousSummary === undefined ? {} : { previousSummary: plan.previousSummary }),
    ...(options.instructions ? { instructions: options.instructions } : {}),
    maxOutputTokens: requested,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const { truncated, stopReason } = answer;
  if (answer.text.length === 0) {
    throw new CompactionError({
      message: 'The summarizer returned an empty summary; nothing was changed.',
      code: 'SUMMARY_EMPTY',
    });
  }
  if (truncated) {
    throw new CompactionError({
      message: `The summary was cut off at the output limit (stop reason "${stopReason}"); it was not stored. Raise maxOutputTokens or reserveTokens.`,
      code: 'SUMMARY_TRUNCATED',
    });
  }
  // A summary far past the budget it was asked for (a completion that never passed the budget on)
  // is cut to it, at a line's end: kept whole, it could leave the context over the limit, where no
  // later request fits and no recovery rung can shrink a checkpoint.
  const answered = counter.count(answer.text);
  const written =
    answered > requested * SUMMARY_OVERRUN ? cutToBudget(answer.text, requested, counter, answered) : answer.text;
  const pinned = anchoring ? anchorCheckpoint(written, anchoring) : undefined;
  const text = pinned?.text ?? written;
  const summaryMessage = createSummaryMessage(text, {
    keptMessages: recent.messages.length,
    ...(anchoring ? { anchors: anchoring.anchors } : {}),
  });
  const rebuilt = [summaryMessage, ...recent.messages];
  const tokensAfter = sumMessageTokens(rebuilt, counter) + extras;
  if (tokensAfter >= tokensBefore && options.requireSmaller !== false) {
    const replaced = plan.split.old.filter(isAgentVisible);
    throw new CompactionError({
      message: notSmallerMessage({
        tokensBefore,
        tokensAfter,
        summaryTokens: estimateMessageTokens(summaryMessage, counter),
        replacedCount: replaced.length,
        replacedTokens: sumMessageTokens(replaced, counter),
        keptTokens,
      }),
      code: 'NOT_SMALLER',
    });
  }
  return {
    messages: rebuilt,
    summary: text,
    firstKeptIndex: plan.split.cutIndex,
    tokensBefore,
    tokensAfter,
    summarizedCount: plan.toSummarize.length,
    archivedCount: recent.archivedCount,
    ...(pinned ? { anchors: { kept: pinned.kept, pinned: pinned.pinned, lost: pinned.lost } } : {}),
  };
}

/** The smallest default summary budget, whatever the limit. */
const MIN_SUMMARY_TOKENS = 256;

const optionsSchema = /* @__PURE__ */ (() =>
  v.object({
    summarizer: option.summarizer(),
    counter: option.counter().optional(),
    maxOutputTokens: option.positive().optional(),
    maxPinnedTokens: option.count().optional(),
    signal: option.signal().optional(),
    requireSmaller: v.boolean().optional(),
  }))();

/**
 * 80% of the reserve, but no more than leaves the rebuilt context (summary, kept tail, system prompt
 * and tools) 10% under the limit, so a summary that uses its whole budget does not trigger the next
 * compaction at once.
 *
 * @internal
 */
export function defaultSummaryBudget(config: ContextConfig, usedTokens: number): number {
  const byReserve = Math.floor(config.reserveTokens * 0.8);
  const limit = effectiveTokenLimit(config);
  const room = limit === undefined ? byReserve : limit - usedTokens - Math.ceil(limit / 10);
  return Math.max(MIN_SUMMARY_TOKENS, Math.min(byReserve, room));
}

/** The share of the effective token limit the pinned facts may take beyond the summary budget. */
const PINNED_SHARE = 0.25;

/**
 * The pinned facts' default room: a quarter of the effective limit, no more than the room the rebuilt
 * context leaves under it (10% free) once the summary budget is counted; `0` without a limit.
 */
function defaultPinnedBudget(config: ContextConfig, usedTokens: number, summaryTokens: number): number {
  const limit = effectiveTokenLimit(config);
  if (limit === undefined) return 0;
  const room = limit - usedTokens - Math.ceil(limit / 10) - summaryTokens;
  return Math.max(0, Math.min(Math.floor(limit * PINNED_SHARE), room));
}

function notSmallerMessage(numbers: {
  tokensBefore: number;
  tokensAfter: number;
  summaryTokens: number;
  replacedCount: number;
  replacedTokens: number;
  keptTokens: number;
}): string {
  const { tokensBefore, tokensAfter, summaryTokens, replacedCount, replacedTokens, keptTokens } = numbers;
  const head = `Compaction would not shrink the context (${tokensBefore} → ${tokensAfter} tokens); nothing was changed.`;
  const replaced = `the ${replacedCount} message${replacedCount === 1 ? '' : 's'} it replaces (${replacedTokens} tokens)`;
  if (summaryTokens < replacedTokens) {
    return `${head} The summary (${summaryTokens} tokens) is smaller than ${replaced}, but the kept tail grew to ${keptTokens} tokens with its tool digest: raise toolCallCutoff or lower keepRecentTokens.`;
  }
  const fix =
    replacedTokens < keptTokens
      ? `most of the context is in the kept tail (${keptTokens} tokens), which is not summarized: lower keepRecentTokens or keepRecent, or truncate tool output.`
      : 'ask for a shorter summary (lower maxOutputTokens) or check the summarizer.';
  return `${head} The summary (${summaryTokens} tokens) is not smaller than ${replaced}; ${fix}`;
}
