import { summaryText } from '../messages/summary-text.js';
import type { AssistantMessage, Message, Usage } from '../types.js';
import { assertMessages } from '../validation/assert-messages.js';
import { option, parseOptions } from '../validation/parse-options.js';
import { countTextCached, countToolsTokens } from './count-text-cached.js';
import { estimateMessageTokens } from './estimate-message-tokens.js';
import { isAgentVisible } from './is-agent-visible.js';
import { referenceCounter, type TokenCounter } from './token-counter.js';

/**
 * Options of {@link estimateContextTokens}.
 *
 * @example
 * ```ts
 * const options: EstimateContextTokensOptions = { counter: approximateCounter, systemPrompt: 'You are…' };
 * ```
 */
export interface EstimateContextTokensOptions {
  /** The counter for messages not covered by reported usage. @default referenceCounter */
  counter?: TokenCounter;
  /** The system prompt, counted when no reported usage covers it. */
  systemPrompt?: string;
  /** Tool definitions (any JSON), counted when no reported usage covers them. */
  tools?: unknown;
}

/**
 * An estimate of the context, and how much of it the provider's own numbers back.
 *
 * @example
 * ```ts
 * const { tokens, source } = describeContextTokens(messages);
 * ```
 *
 * @internal
 */
interface ContextTokenEstimate {
  /** Tokens the next request will send. */
  tokens: number;
  /** `usage`: all from reported usage; `mixed`: usage plus estimated trailing messages; `estimate`: none reported. */
  source: 'usage' | 'estimate' | 'mixed';
  /** Index of the assistant message whose usage anchors the estimate, or -1. */
  usageIndex: number;
  /** Tokens from reported usage (0 when none). */
  usageTokens: number;
  /** Tokens estimated by the counter. */
  estimatedTokens: number;
}

/**
 * The total a provider's usage report stands for: the whole prompt plus the response.
 *
 * @internal
 */
export function usageTotal(usage: Usage): number {
  const sum = usage.input + usage.output + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
  return usage.total !== undefined && usage.total > 0 ? Math.max(usage.total, sum) : sum;
}

/**
 * Whether an assistant message carries usage that can anchor an estimate: every number (`total`
 * too, when given) a whole-number-sized count from 0 to `Number.MAX_SAFE_INTEGER` (so no sum of
 * them overflows to Infinity: a usage of 1e308 printed "Context: Infinity%"), and a positive total.
 *
 * @internal
 */
export function isValidUsage(message: AssistantMessage): boolean {
  const { usage, stopReason } = message;
  if (usage === undefined || usage === null || stopReason === 'aborted' || stopReason === 'error') return false;
  const values = [usage.input, usage.output, usage.cacheRead ?? 0, usage.cacheWrite ?? 0, usage.total ?? 0];
  return (
    values.every((value) => typeof value === 'number' && value >= 0 && value <= Number.MAX_SAFE_INTEGER) &&
    usageTotal(usage) > 0
  );
}

/**
 * Index of the newest visible assistant message with usage that was produced after the context
 * last shrank: after the latest compaction summary (recognised by kind or by prefix, see
 * `summaryText`) and the messages it says were kept with it, and after the latest tool-result
 * summary (appended when old tool results were archived, which the earlier usage still counted).
 *
 * @internal
 */
export function findUsageAnchor(messages: readonly Message[]): number {
  let stop = -1;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.meta?.kind === 'compaction_summary' || summaryText(message) !== undefined) {
      stop = Math.max(stop, index + (message.meta?.keptMessages ?? 0));
      break;
    }
    if (message.meta?.kind === 'tool_summary') stop = Math.max(stop, index);
  }
  for (let index = messages.length - 1; index > stop; index--) {
    const message = messages[index]!;
    if (message.role === 'assistant' && message.meta?.agentVisible !== false && isValidUsage(message)) return index;
  }
  return -1;
}

function sumFrom(messages: readonly Message[], start: number, counter: TokenCounter): number {
  let total = 0;
  for (let index = start; index < messages.length; index++) {
    const message = messages[index]!;
    if (isAgentVisible(message)) total += estimateMessageTokens(message, counter);
  }
  return total;
}

/** Tokens of the system prompt and tool definitions. @internal */
export function countExtras(options: EstimateContextTokensOptions, counter: TokenCounter): number {
  const prompt = options.systemPrompt ? countTextCached(options.systemPrompt, counter) : 0;
  return prompt + countToolsTokens(options.tools, counter);
}

/**
 * Like {@link estimateContextTokens}, and says where the number comes from.
 *
 * @param messages - The conversation as it will be sent.
 * @param options - Counter, system prompt and tools.
 * @returns The estimate and its provenance.
 * @throws {@link ContextError} with code `INPUT_INVALID` when a message does not fit the message
 * model (the index and field are named).
 *
 * @example
 * ```ts
 * describeContextTokens(messages).source; // 'mixed'
 * ```
 *
 * @internal
 */
export function describeContextTokens(
  messages: readonly Message[],
  options: EstimateContextTokensOptions = {},
): ContextTokenEstimate {
  assertMessages(messages, 'describeContextTokens');
  parseOptions('describeContextTokens', option.bag(), options);
  return describeCheckedContextTokens(messages, options);
}

/** {@link describeContextTokens} without the input check, for callers that checked already. @internal */
export function describeCheckedContextTokens(
  messages: readonly Message[],
  options: EstimateContextTokensOptions = {},
): ContextTokenEstimate {
  const counter = options.counter ?? referenceCounter;
  const anchor = findUsageAnchor(messages);
  if (anchor < 0) {
    const estimatedTokens = sumFrom(messages, 0, counter) + countExtras(options, counter);
    return { tokens: estimatedTokens, source: 'estimate', usageIndex: -1, usageTokens: 0, estimatedTokens };
  }
  const usageTokens = usageTotal((messages[anchor] as AssistantMessage).usage!);
  const estimatedTokens = sumFrom(messages, anchor + 1, counter);
  return {
    tokens: usageTokens + estimatedTokens,
    source: estimatedTokens > 0 ? 'mixed' : 'usage',
    usageIndex: anchor,
    usageTokens,
    estimatedTokens,
  };
}

/**
 * Estimates the tokens the next request will send. The newest assistant message with valid usage
 * (not aborted or errored, and not older than the latest compaction summary) gives the total up to
 * and including it — system prompt and tools included, since the provider counted them; the visible
 * messages after it are estimated. Without such usage, every visible message is estimated, plus the
 * system prompt and tools. Hidden messages (`agentVisible: false`) count zero.
 *
 * @param messages - The conversation as it will be sent.
 * @param options - Counter, system prompt and tools.
 * @returns The estimated token count.
 * @throws {@link ContextError} with code `INPUT_INVALID` when a message does not fit the message
 * model (the index and field are named), such as usage that is negative or not finite.
 *
 * @example
 * ```ts
 * const tokens = estimateContextTokens(messages, { counter: approximateCounter, systemPrompt });
 * ```
 */
export function estimateContextTokens(
  messages: readonly Message[],
  options: EstimateContextTokensOptions = {},
): number {
  assertMessages(messages, 'estimateContextTokens');
  parseOptions('estimateContextTokens', option.bag(), options);
  return describeCheckedContextTokens(messages, options).tokens;
}
