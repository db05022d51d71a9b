// The short id the model passes to `recall` for a tool result: written into the placeholder of an
// archived result and into the notice of a cut one, indexed by the SQL stores. It is a pure function
// of the result's tool call id, which every history and every store keeps, so the same result has
// the same id in every process, after a reload and on every store, with no counter to persist.
import { assertStringArgument } from '../validation/assert-argument.js';

/** Characters of the hash part of a recall id (base 36): 36^8 ≈ 2.8 × 10^12 values. */
const HASH_LENGTH = 8;
const HASH_RANGE = 36 ** HASH_LENGTH;

/** `r` followed by eight base-36 characters: the shape of every recall id. */
export const RECALL_ID_PATTERN = /^r[0-9a-z]{8}$/;

/**
 * The recall id of the tool result answering the call `toolCallId`: `r` and eight base-36
 * characters of a 53-bit hash of the id (cyrb53). Deterministic and durable: the same tool call id
 * gives the same recall id in any process, so the id in a placeholder stays valid after the
 * history is reloaded. Two results share one only when they share a tool call id (a reused id) or,
 * about once in 2.8 × 10^12 pairs, by chance; `recall` then lists them by their tool call ids.
 *
 * @param toolCallId - The tool call id of the result (as the host recorded it, not a renamed `id_k`).
 * @returns The recall id, such as `r0k3x9a2b`.
 * @throws `ContextError` (`INPUT_INVALID`) when `toolCallId` is not a string.
 *
 * @example
 * ```ts
 * import { recallIdOf } from 'ctxkit/agent-tools';
 *
 * recallIdOf('call_17'); // the id the placeholder of call_17's archived result names
 * ```
 */
export function recallIdOf(toolCallId: string): string {
  assertStringArgument(toolCallId, 'recallIdOf', 'toolCallId');
  let first = 0xdeadbeef;
  let second = 0x41c6ce57;
  for (let index = 0; index < toolCallId.length; index++) {
    const code = toolCallId.charCodeAt(index);
    first = Math.imul(first ^ code, 2654435761);
    second = Math.imul(second ^ code, 1597334677);
  }
  first = Math.imul(first ^ (first >>> 16), 2246822507);
  first ^= Math.imul(second ^ (second >>> 13), 3266489909);
  second = Math.imul(second ^ (second >>> 16), 2246822507);
  second ^= Math.imul(first ^ (first >>> 13), 3266489909);
  const hash = 4294967296 * (2097151 & second) + (first >>> 0);
  return `r${(hash % HASH_RANGE).toString(36).padStart(HASH_LENGTH, '0')}`;
}

/**
 * A size as the placeholder writes it: `812`, `4.2k`, `48k`, `1.3M` characters.
 *
 * @internal
 */
export function formatSize(characters: number): string {
  if (characters < 1000) return String(characters);
  if (characters < 10_000) return `${(characters / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  if (characters < 999_500) return `${Math.round(characters / 1000)}k`;
  return `${(characters / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}
