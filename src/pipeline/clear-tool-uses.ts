import { describeContextTokens } from '../counting/estimate-context-tokens.js';
import { estimateMessageTokens } from '../counting/estimate-message-tokens.js';
import { isAgentVisible } from '../counting/is-agent-visible.js';
import { referenceCounter, type TokenCounter } from '../counting/token-counter.js';
import { ConfigError } from '../errors.js';
import { pairToolResults } from '../internal/tool-pairing.js';
import { clearToolResult, isClearedToolResult } from '../messages/tool-result-messages.js';
import { CLEARED_RESULT_PLACEHOLDER } from '../messages/wire-strings.js';
import type { AssistantMessage, Message, ToolResultMessage } from '../types.js';
import { assertMessages } from '../validation/assert-messages.js';
import * as v from '../validation/light-schema.js';
import { option, parseOptions } from '../validation/parse-options.js';

/**
 * Options of {@link clearToolUses}.
 *
 * @example
 * ```ts
 * const options: ClearToolUsesOptions = { trigger: 60_000, keep: 5, excludeTools: ['memory', 'todo'] };
 * ```
 */
export interface ClearToolUsesOptions {
  /** Clear only once the context is over this many tokens. @default 100000 */
  trigger?: number;
  /** The newest results of clearable tools that are never cleared. @default 3 */
  keep?: number;
  /** Clear only when at least this many tokens are freed (clearing breaks a prompt cache). @default 0 */
  clearAtLeast?: number;
  /** Tools whose results are never cleared. @default ['memory'] */
  excludeTools?: readonly string[];
  /** Also empty the arguments of the cleared results' tool calls. @default false */
  clearToolInputs?: boolean;
  /** The text a cleared result keeps. @default CLEARED_RESULT_PLACEHOLDER */
  placeholder?: string;
  /** Counts tokens. @default referenceCounter */
  counter?: TokenCounter;
}

/**
 * One cleared tool result.
 *
 * @example
 * ```ts
 * const item: ClearedToolUse = { toolCallId: 'call_1', toolName: 'bash', tokensFreed: 1200 };
 * ```
 */
interface ClearedToolUse {
  toolCallId: string;
  toolName: string;
  /** Tokens the result (and its call's input, when cleared) no longer cost. */
  tokensFreed: number;
}

/**
 * The result of {@link clearToolUses}.
 *
 * @example
 * ```ts
 * const { messages, cleared, tokensFreed } = clearToolUses(history, { trigger: 50_000 });
 * ```
 */
export interface ClearToolUsesResult {
  /** The new list: the input's messages, with cleared results (and inputs) replaced by copies. */
  messages: Message[];
  /** What was cleared, oldest first; empty when nothing was. */
  cleared: ClearedToolUse[];
  /** The context's tokens before. */
  tokensBefore: number;
  /** The context's tokens after. */
  tokensAfter: number;
  /** `tokensBefore - tokensAfter`. */
  tokensFreed: number;
}

const optionsSchema = /* @__PURE__ */ (() =>
  v.object({
    trigger: option.count().optional(),
    keep: option.count().optional(),
    clearAtLeast: option.count().optional(),
    excludeTools: v.array(v.string(), { error: 'must be an array of tool names' }).readonly().optional(),
    clearToolInputs: v.boolean().optional(),
    placeholder: v.string({ error: 'must be a non-empty string' }).min(1, 'must be a non-empty string').optional(),
    counter: option.counter().optional(),
  }))();

function validate(options: ClearToolUsesOptions): void {
  parseOptions('clearToolUses', optionsSchema, options);
}

/** Wrappers that check each count, one per counter, so the per-message token cache keeps working. */
const checkedCounters = new WeakMap<TokenCounter, TokenCounter>();

/** `counter`, with every count checked to be a finite number >= 0 (a `ConfigError` naming `counter` otherwise). */
function checkedCounter(counter: TokenCounter): TokenCounter {
  let checked = checkedCounters.get(counter);
  if (checked === undefined) {
    checked = {
      name: counter.name,
      exact: counter.exact,
      imageTokens: counter.imageTokens,
      messageOverhead: counter.messageOverhead,
      count(text: string): number {
        const tokens = counter.count(text);
        if (typeof tokens === 'number' && Number.isFinite(tokens) && tokens >= 0) return tokens;
        throw new ConfigError({
          message:
            `clearToolUses: counter returned ${String(tokens)} for a text of ${text.length} characters; ` +
            'a count must be a finite number >= 0.',
          field: 'counter',
        });
      },
    };
    checkedCounters.set(counter, checked);
  }
  return checked;
}

/**
 * Clears old tool results client-side, the way server-side context editing does: once the context
 * is over `trigger` tokens, every agent-visible tool result except the newest `keep` (and except
 * those of `excludeTools`, the memory tool by default) keeps only a short placeholder. Calls stay
 * paired with their (placeholder) results, so the request stays valid; with `clearToolInputs`, the
 * arguments of the cleared results' own calls are emptied too (results are paired with calls by
 * position, as `prepareModelMessages` pairs them, so a reused id never empties another call's input,
 * and calls in hidden messages are left alone). A result that would not get smaller is left alone,
 * so tokens never increase; when less than `clearAtLeast` would be freed, nothing is cleared. Already
 * cleared results are skipped, which makes the function idempotent. The input list and its messages
 * are never modified.
 *
 * Token numbers: `tokensBefore` is `describeContextTokens(messages, { counter })`, the library's
 * estimate, anchored on the newest reported usage. `tokensFreed` is what the cleared messages no
 * longer cost by `counter`, counting only messages in the context (agent-visible). `tokensAfter` is
 * `tokensBefore - tokensFreed` (never below 0). Without reported usage that covers a cleared message,
 * it equals `estimateContextTokens(result.messages)`; with it, `estimateContextTokens` keeps the
 * stale reported total until the next response reports usage again, so it stays higher by
 * `tokensFreed` until then.
 *
 * @param messages - The conversation.
 * @param options - Trigger, how many to keep, exclusions, input clearing, placeholder, counter.
 * @returns The new list, what was cleared, and tokens before and after.
 * @throws {@link ConfigError} for a negative or fractional number, an empty placeholder, or a counter
 * that is not a `TokenCounter` or counts NaN, infinity or below zero.
 *
 * @example
 * ```ts
 * const { messages, cleared } = clearToolUses(history, { trigger: 80_000, keep: 4, clearAtLeast: 10_000 });
 * if (cleared.length > 0) history = messages;
 * ```
 */
export function clearToolUses(messages: readonly Message[], options: ClearToolUsesOptions = {}): ClearToolUsesResult {
  assertMessages(messages, 'clearToolUses');
  validate(options);
  const counter = checkedCounter(options.counter ?? referenceCounter);
  const trigger = options.trigger ?? 100_000;
  const keep = options.keep ?? 3;
  const excluded = new Set(options.excludeTools ?? ['memory']);
  const placeholder = options.placeholder ?? CLEARED_RESULT_PLACEHOLDER;
  const tokensBefore = describeContextTokens(messages, { counter }).tokens;
  const unchanged: ClearToolUsesResult = {
    messages: [...messages],
    cleared: [],
    tokensBefore,
    tokensAfter: tokensBefore,
    tokensFreed: 0,
  };
  if (tokensBefore <= trigger) return unchanged;

  const clearable: number[] = [];
  for (const [index, message] of messages.entries()) {
    if (message.role === 'toolResult' && isAgentVisible(message) && !excluded.has(message.toolName))
      clearable.push(index);
  }
  const output = [...messages];
  const cleared: ClearedToolUse[] = [];
  const clearedResults: number[] = [];
  let freed = 0;
  for (const index of clearable.slice(0, Math.max(0, clearable.length - keep))) {
    const message = messages[index] as ToolResultMessage;
    if (isClearedToolResult(message, placeholder)) continue;
    const replacement = clearToolResult(message, placeholder);
    const saved = estimateMessageTokens(message, counter) - estimateMessageTokens(replacement, counter);
    if (saved <= 0) continue;
    output[index] = replacement;
    freed += saved;
    clearedResults.push(index);
    cleared.push({ toolCallId: message.toolCallId, toolName: message.toolName, tokensFreed: saved });
  }
  if (options.clearToolInputs) freed += clearInputs({ messages, output, clearedResults, cleared, counter });
  if (cleared.length === 0 || freed < (options.clearAtLeast ?? 0)) return unchanged;
  const tokensAfter = Math.max(0, tokensBefore - freed);
  return { messages: output, cleared, tokensBefore, tokensAfter, tokensFreed: tokensBefore - tokensAfter };
}

/**
 * Empties the arguments of the calls whose results were cleared, in place on `output` (copies only),
 * skipping calls in messages that are not in the context. Each call's share of the saving is added
 * to its entry in `cleared`; returns the total saving.
 */
function clearInputs(options: {
  messages: readonly Message[];
  output: Message[];
  clearedResults: readonly number[];
  cleared: ClearedToolUse[];
  counter: TokenCounter;
}): number {
  const { messages, output, clearedResults, cleared, counter } = options;
  const sites = pairToolResults(messages);
  const parts = new Map<number, Map<number, ClearedToolUse>>();
  clearedResults.forEach((resultIndex, position) => {
    const site = sites.get(resultIndex);
    if (site === undefined) return;
    const message = messages[site.message] as AssistantMessage;
    const part = message.content[site.part];
    if (!isAgentVisible(message) || part?.type !== 'toolCall' || Object.keys(part.arguments).length === 0) return;
    const perMessage = parts.get(site.message) ?? new Map<number, ClearedToolUse>();
    perMessage.set(site.part, cleared[position]!);
    parts.set(site.message, perMessage);
  });
  let freed = 0;
  for (const [index, perMessage] of parts) {
    const message = messages[index] as AssistantMessage;
    const replacement: AssistantMessage = {
      ...message,
      content: message.content.map((part, partIndex) =>
        part.type === 'toolCall' && perMessage.has(partIndex) ? { ...part, arguments: {} } : part,
      ),
    };
    const saved = Math.max(0, estimateMessageTokens(message, counter) - estimateMessageTokens(replacement, counter));
    if (saved === 0) continue;
    output[index] = replacement;
    freed += saved;
    const items = [...perMessage.values()];
    const share = Math.floor(saved / items.length);
    items.forEach((item, position) => {
      item.tokensFreed += share + (position === 0 ? saved - share * items.length : 0);
    });
  }
  return freed;
}
