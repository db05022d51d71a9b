import { ConfigError } from '../errors.js';
import { assertMessages } from '../pipeline/internal/assert-messages.js';
import type { Message } from '../types.js';

/**
 * Counts tokens in text. Counting is synchronous so that planning stays pure and fast.
 *
 * Contract:
 * - `count` must be deterministic for the same text and must not throw on any string (including
 *   text that looks like special tokens such as `<|endoftext|>`).
 * - `exact` says whether the counts come from the model's real tokenizer; estimates leave it unset.
 * - `imageTokens` is the cost of one image (default 1200); `messageOverhead` is added once per message
 *   (default 0) for providers that frame each message with a few tokens.
 * - Counters are used as cache keys: keep one instance per configuration rather than creating one
 *   per call.
 *
 * @example
 * ```ts
 * const wordCounter: TokenCounter = {
 *   name: 'words',
 *   count: (text) => text.split(/\s+/).filter(Boolean).length,
 * };
 * ```
 */
export interface TokenCounter {
  /** A short name shown in stats and benchmarks. */
  readonly name: string;
  /** Tokens in `text`. */
  count(text: string): number;
  /** True when counts come from the model's own tokenizer. @default false */
  readonly exact?: boolean;
  /** Tokens charged for one image. @default 1200 */
  readonly imageTokens?: number;
  /** Tokens added once per message for the provider's framing. @default 0 */
  readonly messageOverhead?: number;
}

/** The fixed cost of one image, from the reference heuristic. */
export const IMAGE_TOKENS = 1200;

/**
 * Counts Unicode code points (not UTF-16 units), so that an emoji or a rare CJK character is one
 * character, as it is to a reader.
 *
 * @internal
 */
export function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}

/**
 * The reference heuristic: exactly `ceil(characters / 4)`, images 1200 tokens, no per-message
 * overhead. Characters are Unicode code points. Cheap, but it under-counts CJK text 2–3× and JSON by
 * about 20%; prefer {@link approximateCounter} or an exact counter from `ctxkit/tokenizer`.
 *
 * @example
 * ```ts
 * referenceCounter.count('hello world'); // 3
 * ```
 */
export const referenceCounter: TokenCounter = Object.freeze({
  name: 'reference',
  imageTokens: IMAGE_TOKENS,
  messageOverhead: 0,
  count: (text: string) => Math.ceil(codePointLength(text) / 4),
});

/** Every piece of text in a message that reaches the model, and its number of images. */
function collectText(message: Message): { text: string; images: number } {
  const content = message.content;
  if (typeof content === 'string') return { text: content, images: 0 };
  let text = '';
  let images = 0;
  for (const part of content) {
    switch (part.type) {
      case 'text':
        text += part.text;
        break;
      case 'thinking':
        text += part.thinking;
        break;
      case 'toolCall':
        text += part.name + safeJson(part.arguments);
        break;
      case 'image':
        images++;
        break;
    }
  }
  return { text, images };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

const cache = new WeakMap<TokenCounter, WeakMap<Message, number>>();

/**
 * The tokens one message costs: its text, thinking and tool-call payloads (name and JSON
 * arguments) counted together, plus a fixed cost per image and the counter's per-message overhead.
 * Visibility is not considered here (see {@link isAgentVisible}).
 *
 * Results are cached per message object and counter, so messages must be treated as immutable:
 * build a new message instead of editing one in place.
 *
 * @param message - The message to count.
 * @param counter - The counter to use. @default referenceCounter
 * @returns Its token count.
 * @throws `ContextError` (`INPUT_INVALID`) naming the field when `message` is not a valid message;
 * `ConfigError` when `counter` is not a `TokenCounter`.
 *
 * @example
 * ```ts
 * estimateMessageTokens({ role: 'user', content: 'hello world' }); // 3
 * ```
 */
export function estimateMessageTokens(message: Message, counter: TokenCounter = referenceCounter): number {
  let perCounter = cache.get(counter);
  if (perCounter === undefined) {
    checkCounter('estimateMessageTokens', counter);
    perCounter = new WeakMap();
    cache.set(counter, perCounter);
  }
  const cached = typeof message === 'object' && message !== null ? perCounter.get(message) : undefined;
  if (cached !== undefined) return cached;
  // Checked once per message object (then cached): a malformed message fails naming its field.
  assertMessages([message], 'estimateMessageTokens');
  const tokens = countMessageTokens(message, counter);
  perCounter.set(message, tokens);
  return tokens;
}

/**
 * {@link estimateMessageTokens} without its cache, for callers that keep the count themselves
 * (the manager's projection keeps one number per sent message, not a cache entry per object).
 *
 * @internal
 */
export function countMessageTokens(message: Message, counter: TokenCounter): number {
  const { text, images } = collectText(message);
  return (
    (text.length > 0 ? counter.count(text) : 0) +
    images * (counter.imageTokens ?? IMAGE_TOKENS) +
    (counter.messageOverhead ?? 0)
  );
}

/**
 * Whether a message is sent to the model. Messages with `meta.agentVisible === false` are not,
 * and count zero tokens.
 *
 * @param message - Any message. Takes trusted input: a `Message` as ctxkit's types describe it (one
 *   that came through a store or a checked function); it is not validated here.
 * @returns `false` only when `meta.agentVisible` is explicitly `false`.
 *
 * @example
 * ```ts
 * isAgentVisible({ role: 'user', content: 'x', meta: { agentVisible: false } }); // false
 * ```
 */
export function isAgentVisible(message: Message): boolean {
  return message.meta?.agentVisible !== false;
}

/**
 * Whether a message is shown in a transcript UI (`meta.userVisible` defaults to `true`).
 *
 * @param message - Any message. Takes trusted input: a `Message` as ctxkit's types describe it (one
 *   that came through a store or a checked function); it is not validated here.
 * @returns `false` only when `meta.userVisible` is explicitly `false`.
 *
 * @example
 * ```ts
 * isUserVisible({ role: 'user', content: 'x', meta: { userVisible: false } }); // false
 * ```
 */
export function isUserVisible(message: Message): boolean {
  return message.meta?.userVisible !== false;
}

/**
 * The sum of {@link estimateMessageTokens} over the visible messages.
 *
 * @param messages - The conversation.
 * @param counter - The counter to use. @default referenceCounter
 * @returns Tokens of every agent-visible message; hidden messages count zero.
 *
 * @example
 * ```ts
 * sumMessageTokens([{ role: 'user', content: 'hello world' }]); // 3
 * ```
 */
export function sumMessageTokens(messages: readonly Message[], counter: TokenCounter = referenceCounter): number {
  assertMessages(messages, 'sumMessageTokens');
  let total = 0;
  for (const message of messages) if (isAgentVisible(message)) total += estimateMessageTokens(message, counter);
  return total;
}

/** Throws a `ConfigError` naming `counter` unless it is a `TokenCounter`. */
function checkCounter(functionName: string, counter: unknown): void {
  if (typeof counter === 'object' && counter !== null && typeof (counter as TokenCounter).count === 'function') return;
  throw new ConfigError({
    message: `${functionName}: counter must be a TokenCounter, an object with a count(text) method (e.g. referenceCounter)`,
    field: 'counter',
  });
}

const textCache = new WeakMap<TokenCounter, Map<string, number>>();
const jsonCache = new WeakMap<object, string>();
const TEXT_CACHE_SIZE = 32;

/**
 * Counts a long-lived text such as a system prompt, remembering the last few results per counter so
 * that the same prompt is not re-tokenized before every request.
 *
 * @internal
 */
export function countTextCached(text: string, counter: TokenCounter): number {
  let perCounter = textCache.get(counter);
  if (perCounter === undefined) {
    perCounter = new Map();
    textCache.set(counter, perCounter);
  }
  const cached = perCounter.get(text);
  if (cached !== undefined) return cached;
  const tokens = counter.count(text);
  if (perCounter.size >= TEXT_CACHE_SIZE) perCounter.delete(perCounter.keys().next().value as string);
  perCounter.set(text, tokens);
  return tokens;
}

/**
 * Tokens of tool definitions (any JSON value), serialized once per object.
 *
 * @internal
 */
export function countToolsTokens(tools: unknown, counter: TokenCounter): number {
  if (tools === undefined || tools === null) return 0;
  let json: string | undefined;
  if (typeof tools === 'object') {
    json = jsonCache.get(tools);
    if (json === undefined) {
      json = safeJson(tools);
      jsonCache.set(tools, json);
    }
  } else {
    json = safeJson(tools);
  }
  return countTextCached(json, counter);
}
