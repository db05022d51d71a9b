import { ConfigError } from '../errors.js';
import type { Message } from '../types.js';
import { assertMessages } from '../validation/assert-messages.js';
import { countMessageTokens } from './count-message-tokens.js';
import { referenceCounter, type TokenCounter } from './token-counter.js';

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
    perCounter = cacheOf(counter);
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
 * Code units of text from which a count is worth a cache entry: a longer message (a tool output) is
 * counted once per object and counter, a shorter one costs less to count again than to remember.
 */
const CACHED_FROM = 1_000;

/** The counts cached for `counter`, made on first use. */
function cacheOf(counter: TokenCounter): WeakMap<Message, number> {
  let perCounter = cache.get(counter);
  if (perCounter === undefined) {
    perCounter = new WeakMap();
    cache.set(counter, perCounter);
  }
  return perCounter;
}

/**
 * Code units of the text a message sends (its text and thinking; tool calls left out). A
 * compact-endpoint window's user messages (`meta.native.leading`) count as long: they are
 * serialized to be counted, which is worth doing once.
 */
function textLength(message: Message): number {
  if (message.meta?.native?.leading !== undefined) return CACHED_FROM;
  const content = message.content;
  if (typeof content === 'string') return content.length;
  let length = 0;
  for (const part of content) {
    if (part.type === 'text') length += part.text.length;
    else if (part.type === 'thinking') length += part.thinking.length;
  }
  return length;
}

/**
 * {@link estimateMessageTokens} for the manager, which has validated its messages and its counter:
 * a long message is counted once per object and counter and cached where `estimateMessageTokens`
 * looks (so the projection, a rebuild after a compaction, the compaction's plan and overflow
 * recovery count a tool output once between them); a short one is counted each time, keeping no
 * cache entry.
 *
 * @internal
 */
export function countMessageTokensOnce(message: Message, counter: TokenCounter): number {
  if (textLength(message) < CACHED_FROM) return countMessageTokens(message, counter);
  const perCounter = cacheOf(counter);
  const cached = perCounter.get(message);
  if (cached !== undefined) return cached;
  const tokens = countMessageTokens(message, counter);
  perCounter.set(message, tokens);
  return tokens;
}

/** Throws a `ConfigError` naming `counter` unless it is a `TokenCounter`. */
function checkCounter(functionName: string, counter: unknown): void {
  if (typeof counter === 'object' && counter !== null && typeof (counter as TokenCounter).count === 'function') return;
  throw new ConfigError({
    message: `${functionName}: counter must be a TokenCounter, an object with a count(text) method (e.g. referenceCounter)`,
    field: 'counter',
  });
}
