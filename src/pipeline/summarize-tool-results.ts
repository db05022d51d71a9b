import {
  type ContextConfig,
  type ContextConfigInput,
  type ToolSummaryStrategy,
  toConfig,
  toolSummaryStrategySchema,
} from '../config/index.js';
import { ConfigError } from '../errors.js';
import { clipText } from '../internal/clip-text.js';
import { archiveToolResult } from '../messages/kept-tool-results.js';
import { createToolSummaryMessage } from '../messages/summary-messages.js';
import { heuristicSummarizer } from '../summarizing/heuristic-summarizer.js';
import type { Summarizer, SummaryRequest } from '../summarizing/summarizer-types.js';
import { callSummarizer } from '../summarizing/summary-output.js';
import { type BatchBudget, type BatchItem, batchBudget } from '../summarizing/tool-output/batch-budget.js';
import { serializeToolBatch } from '../summarizing/tool-output/serialize-tool-batch.js';
import type { Message, ToolResultMessage, UserMessage } from '../types.js';
import { assertMessages } from '../validation/assert-messages.js';
import * as v from '../validation/light-schema.js';
import { option, parseOptions } from '../validation/parse-options.js';
import { newestThatFit, withTheirCalls } from './tool-summary-input.js';

const optionsSchema = /* @__PURE__ */ (() =>
  v.object({
    cutoff: option.count().optional(),
    batch: option.count().optional(),
    strategy: toolSummaryStrategySchema.optional(),
    summarizer: option.summarizer().optional(),
    signal: option.signal().optional(),
  }))();

/**
 * Characters of tool output given to the model summarizer at most under the reference budget
 * (`toolSummaryBudget: 'reference'`); the scaled budget starts there and grows with the batch.
 *
 * @example
 * ```ts
 * const text = serializeConversation(pairs, { maxChars: TOOL_SUMMARY_INPUT_CHARS });
 * ```
 *
 * @internal
 */
export const TOOL_SUMMARY_INPUT_CHARS = 12_000;
/**
 * Code points kept of a model-written tool summary under the reference budget; the scaled budget
 * starts there.
 *
 * @example
 * ```ts
 * const { summary, fallback } = await summarizeToolResults(messages, { summarizer });
 * if (!fallback) console.assert([...summary!].length <= TOOL_SUMMARY_OUTPUT_CHARS);
 * ```
 *
 * @internal
 */
export const TOOL_SUMMARY_OUTPUT_CHARS = 1_200;
/**
 * Code points kept of a heuristic tool summary (head and tail) under the reference budget; the
 * scaled budget starts there. The heuristic is asked for a quarter as many tokens, so it shortens
 * every item to fit rather than being cut.
 *
 * @example
 * ```ts
 * const text = summarizeHeuristically({ kind: 'tool_results', messages, text: '', maxOutputTokens: HEURISTIC_SUMMARY_OUTPUT_CHARS / 4 });
 * ```
 *
 * @internal
 */
export const HEURISTIC_SUMMARY_OUTPUT_CHARS = 800;
/**
 * Options of {@link summarizeToolResults}.
 *
 * @example
 * ```ts
 * const options: SummarizeToolResultsOptions = { cutoff: 10, strategy: 'llm', summarizer };
 * ```
 */
export interface SummarizeToolResultsOptions {
  /** Visible tool results kept when a batch is archived. @default config.toolCallCutoff (10) */
  cutoff?: number;
  /**
   * Results collected past `cutoff` before the oldest are archived, all in one batch: nothing
   * happens until more than `cutoff + batch` results are visible. `0` archives whenever more than
   * `cutoff` are visible (the seed-001 reference behaviour).
   * @default config.toolSummaryBatch (30)
   */
  batch?: number;
  /** `llm` asks the summarizer, `heuristic` summarizes locally, `off` does nothing. @default config.toolSummaryStrategy ('llm') */
  strategy?: ToolSummaryStrategy;
  /** Required for the `llm` strategy. */
  summarizer?: Summarizer;
  /**
   * Where `cutoff`, `batch`, `strategy` and the summary's budget (`toolSummaryBudget`) default from.
   * @default the reference defaults
   */
  config?: ContextConfig | ContextConfigInput;
  /** Aborts the summarizer call. */
  signal?: AbortSignal;
}

/**
 * What {@link summarizeToolResults} did.
 *
 * @example
 * ```ts
 * const { messages, archived, summary, fallback } = await summarizeToolResults(history, { summarizer });
 * ```
 */
export interface SummarizeToolResultsResult {
  /** The new list: same length plus one summary message when anything was archived. */
  messages: Message[];
  /** The archived results, as they now stand in `messages` (hidden from the model). */
  archived: ToolResultMessage[];
  /** The summary text, or `undefined` when nothing was archived. */
  summary: string | undefined;
  /** True when the model summarizer failed or answered nothing and the heuristic was used. */
  fallback: boolean;
  /** Why the fallback was needed. */
  error?: unknown;
}

function isVisibleToolResult(message: Message): message is ToolResultMessage {
  return message.role === 'toolResult' && message.meta?.agentVisible !== false;
}

/**
 * While more than `cutoff` tool results are visible, archives the oldest (`agentVisible: false`,
 * `userVisible` kept, kind `tool_result_archived`), then appends one summary message (role `user`,
 * visible to the agent, hidden from the user, kind `tool_summary`). The summary's budget grows with
 * the batch (`toolSummaryBudget: 'scaled'`): 640 code points per failed result and 120 per other,
 * at least 800 (heuristic) or 1,200 (model), at most a third of what the results take and 16,000;
 * the model reads 1,600 code points per failed result and 400 per other, at least 12,000 and at
 * most 48,000. `'reference'` keeps seed 001's fixed 800 / 1,200 / 12,000. The heuristic writes
 * failed results first, each command with its exit status, and shortens each item rather than
 * lose the middle ones (it is clipped to its budget, head and tail). When the model summarizer fails or answers nothing, the results are
 * archived all the same, under the heuristic summary, and `fallback` and `error` say so; nothing is
 * lost either way, since archived results stay in the list. `off` does nothing.
 *
 * @param messages - The conversation; not mutated.
 * @param options - Cutoff, strategy and summarizer.
 * @returns The new list and what was archived.
 * @throws {@link ConfigError} when the strategy is not `llm`, `heuristic` or `off`, when it is `llm`
 * and no summarizer is given, or when `cutoff` is not a whole number;
 * {@link CompactionError} with code `ABORTED` when the signal fires.
 *
 * @example
 * ```ts
 * const result = await summarizeToolResults(messages, { strategy: 'heuristic', cutoff: 10 });
 * messages = result.messages;
 * ```
 */
export async function summarizeToolResults(
  messages: readonly Message[],
  options: SummarizeToolResultsOptions = {},
): Promise<SummarizeToolResultsResult> {
  assertMessages(messages, 'summarizeToolResults');
  parseOptions('summarizeToolResults', optionsSchema, options);
  return summarizeToolResultsOf(messages, options);
}

/** {@link summarizeToolResults} without the input check, for callers that checked already. @internal */
async function summarizeToolResultsOf(
  messages: readonly Message[],
  options: SummarizeToolResultsOptions = {},
): Promise<SummarizeToolResultsResult> {
  const config = toConfig(options.config, 'summarizeToolResults');
  const cutoff = options.cutoff ?? config.toolCallCutoff;
  const batch = options.batch ?? config.toolSummaryBatch;
  const strategy = options.strategy ?? config.toolSummaryStrategy;
  if (strategy === 'llm' && typeof options.summarizer?.summarize !== 'function') {
    throw new ConfigError({
      message:
        "summarizeToolResults: options.summarizer must be a Summarizer when the strategy is 'llm' (got undefined): pass `summarizer`, or set strategy to 'heuristic'",
      field: 'summarizer',
    });
  }
  const unchanged: SummarizeToolResultsResult = {
    messages: [...messages],
    archived: [],
    summary: undefined,
    fallback: false,
  };
  if (strategy === 'off') return unchanged;
  let excess = -cutoff;
  for (const message of messages) if (isVisibleToolResult(message)) excess++;
  if (excess <= batch) return unchanged;

  const next = [...messages];
  const originals: ToolResultMessage[] = [];
  const archived: ToolResultMessage[] = [];
  for (let index = 0; index < next.length && originals.length < excess; index++) {
    const message = next[index]!;
    if (!isVisibleToolResult(message)) continue;
    originals.push(message);
    const hidden = archiveToolResult(message);
    archived.push(hidden);
    next[index] = hidden;
  }
  const budget = batchBudget(originals.map(batchItem), config.toolSummaryBudget);
  const pairs = newestThatFit(withTheirCalls(messages, originals), budget.inputChars);
  const { summary, fallback, error } = await summarizeWithFallback(
    toolResultsRequest(pairs, budget, options.signal),
    strategy,
    options.summarizer,
    budget,
  );
  next.push(createToolSummaryMessage(summary));
  return { messages: next, archived, summary, fallback, ...(error === undefined ? {} : { error }) };
}

/**
 * Summarizes tool results the caller archives itself (the manager, which keeps its history in
 * place): `pairs` are the results with their calls, as {@link withTheirCalls} builds them. Returns
 * the summary message to append.
 *
 * @internal
 */
export async function summarizeArchivedResults(
  pairs: Message[],
  options: {
    strategy: 'llm' | 'heuristic';
    summarizer: Summarizer | undefined;
    budget: BatchBudget;
    signal?: AbortSignal | undefined;
  },
): Promise<{ message: UserMessage; summary: string; fallback: boolean; error?: unknown }> {
  const request = toolResultsRequest(pairs, options.budget, options.signal);
  const outcome = await summarizeWithFallback(request, options.strategy, options.summarizer, options.budget);
  return { ...outcome, message: createToolSummaryMessage(outcome.summary) };
}

/** One archived result as the batch budget weighs it: failed when `isError`, and its text's length. @internal */
export function batchItem(result: ToolResultMessage): BatchItem {
  let chars = 0;
  for (const part of result.content) chars += part.type === 'text' ? part.text.length : 8;
  return { failed: result.isError === true, chars };
}

/** The summarizer's request for a batch: the pairs' text within the input budget, the answer within the model's. */
function toolResultsRequest(pairs: Message[], budget: BatchBudget, signal: AbortSignal | undefined): SummaryRequest {
  return {
    kind: 'tool_results',
    messages: pairs,
    text: serializeToolBatch(pairs, budget.inputChars),
    maxOutputTokens: Math.ceil(budget.modelChars / 2),
    ...(signal ? { signal } : {}),
  };
}

const FALLBACK_CONSEQUENCE =
  'the tool results were archived all the same, under a heuristic summary (they stay in the list, hidden from the model)';

async function summarizeWithFallback(
  request: SummaryRequest,
  strategy: 'llm' | 'heuristic',
  summarizer: Summarizer | undefined,
  budget: BatchBudget,
): Promise<{ summary: string; fallback: boolean; error?: unknown }> {
  let error: unknown;
  if (strategy === 'llm' && summarizer) {
    try {
      const { text } = await callSummarizer(summarizer, request, FALLBACK_CONSEQUENCE);
      if (text.length > 0) return { summary: clipText(text, budget.modelChars, 'head'), fallback: false };
      error = new Error(`The summarizer returned an empty summary; ${FALLBACK_CONSEQUENCE}.`);
    } catch (caught) {
      if (request.signal?.aborted) throw caught;
      error = caught;
    }
  }
  const { text } = await callSummarizer(heuristicSummarizer, {
    ...request,
    maxOutputTokens: budget.heuristicChars / 4,
  });
  const summary = clipText(text, budget.heuristicChars, 'head_tail');
  return strategy === 'llm' ? { summary, fallback: true, error } : { summary, fallback: false };
}
