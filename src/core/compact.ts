import { type ContextConfig, type ContextConfigInput, toConfig } from '../config.js';
import { CompactionError } from '../errors.js';
import type { Summarizer } from '../summarizer-types.js';
import { referenceCounter, sumMessageTokens, type TokenCounter } from '../token-counter.js';
import type { Message, UserMessage } from '../types.js';
import { assertMessages } from './assert-messages.js';
import { compactToolResultsInRecent } from './compact-tool-results-in-recent.js';
import { countExtras } from './estimate-context-tokens.js';
import { planCompaction, SUMMARY_PREFIX } from './plan-compaction.js';
import { callSummarizer } from './summary-output.js';

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
  /** The summary's output budget. @default 80% of `reserveTokens` */
  maxOutputTokens?: number;
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
}

/**
 * The user message that carries a compaction summary.
 *
 * @param summary - The checkpoint text.
 * @param options - `keptMessages`: how many messages that follow it were kept from before the
 *   compaction (their stale usage is then ignored by token estimates).
 * @returns A user message of kind `compaction_summary`, prefixed `[Previous conversation summary]`.
 *
 * @example
 * ```ts
 * createSummaryMessage('## Goal\nShip the parser'); // { role: 'user', content: '[Previous conversation summary]\n## Goal…' }
 * ```
 */
export function createSummaryMessage(summary: string, options: { keptMessages?: number } = {}): UserMessage {
  return {
    role: 'user',
    content: `${SUMMARY_PREFIX}\n${summary}`,
    meta: {
      agentVisible: true,
      userVisible: true,
      kind: 'compaction_summary',
      ...(options.keptMessages ? { keptMessages: options.keptMessages } : {}),
    },
  };
}

/**
 * Compacts a conversation: keeps the recent tail verbatim, summarizes the visible older messages
 * into a structured checkpoint (updating an earlier summary rather than summarizing it again),
 * and rebuilds the list as one `[Previous conversation summary]` user message followed by the tail,
 * whose visible tool results beyond `toolCallCutoff` are archived under one `[Compaction tool digest]`.
 *
 * It fails loudly, with nothing to store, rather than return a bad checkpoint. The input is never
 * changed, so the history stays intact; keep the full transcript (or a `SessionStore`) yourself, as
 * the returned list holds only what is sent from now on.
 *
 * @param messages - The conversation; not mutated.
 * @param options - Summarizer, config, counter, focus instructions and abort signal.
 * @returns The rebuilt list and its numbers.
 * @throws {@link CompactionError} with code `NOTHING_TO_COMPACT` (nothing older than the tail),
 * `SUMMARIZER_FAILED`, `ABORTED`, `SUMMARY_EMPTY`, `SUMMARY_TRUNCATED` (cut off at the output limit)
 * or `NOT_SMALLER` (the result would not be smaller than the input).
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
  const config = toConfig(options.config);
  const counter = options.counter ?? referenceCounter;
  const extras = countExtras(options, counter);
  const tokensBefore = sumMessageTokens(messages, counter) + extras;
  const plan = planCompaction(messages, { config, counter });
  if (plan.toSummarize.length === 0) {
    throw new CompactionError(
      'Nothing to compact: every message older than the kept tail is already summarized. Lower keepRecentTokens or keepRecent to compact further.',
      { code: 'NOTHING_TO_COMPACT' },
    );
  }
  const { text, truncated } = await callSummarizer(options.summarizer, {
    kind: 'compaction',
    messages: plan.toSummarize,
    text: plan.text,
    ...(plan.previousSummary === undefined ? {} : { previousSummary: plan.previousSummary }),
    ...(options.instructions ? { instructions: options.instructions } : {}),
    maxOutputTokens: options.maxOutputTokens ?? Math.max(256, Math.floor(config.reserveTokens * 0.8)),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (text.length === 0) {
    throw new CompactionError('The summarizer returned an empty summary; nothing was changed.', {
      code: 'SUMMARY_EMPTY',
    });
  }
  if (truncated) {
    throw new CompactionError(
      'The summary was cut off at the output limit (stopReason "length"); it was not stored. Raise maxOutputTokens or reserveTokens.',
      { code: 'SUMMARY_TRUNCATED' },
    );
  }
  const recent = compactToolResultsInRecent(plan.split.recent, { cutoff: config.toolCallCutoff });
  const rebuilt = [createSummaryMessage(text, { keptMessages: recent.messages.length }), ...recent.messages];
  const tokensAfter = sumMessageTokens(rebuilt, counter) + extras;
  if (tokensAfter >= tokensBefore) {
    throw new CompactionError(
      `Compaction would not shrink the context (${tokensBefore} → ${tokensAfter} tokens); nothing was changed. The kept tail is too large for its budget: lower keepRecentTokens or truncate tool output.`,
      { code: 'NOT_SMALLER' },
    );
  }
  return {
    messages: rebuilt,
    summary: text,
    firstKeptIndex: plan.split.cutIndex,
    tokensBefore,
    tokensAfter,
    summarizedCount: plan.toSummarize.length,
    archivedCount: recent.archivedCount,
  };
}
