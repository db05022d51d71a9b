import { safeJson } from './internal/safe-json.js';
import type { TokenCounter } from './token-counter.js';

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
