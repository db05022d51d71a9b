/**
 * The longest id a rename makes from an id no longer than it: OpenAI Chat Completions refuses a
 * tool call id above 40 characters. A longer id is renamed within its own length.
 */
const MAX_RENAMED_LENGTH = 40;

/** The ids Mistral accepts, and the only ones: nine letters and digits. */
const MISTRAL_ID = /^[a-zA-Z0-9]{9}$/;

/**
 * The `k`-th name (`k` ≥ 2) of a reused tool-call id, valid wherever the id itself is: it adds only
 * letters, digits and `_`, and is no longer than the longer of the id and 40 characters.
 * - An id Mistral could have made (nine letters and digits, the only ids it accepts) stays nine
 *   letters and digits: its last characters become `k` in base 36 (`aB3dE5gH9` → `aB3dE5gH2`).
 * - Any other id gets `_k` (`call_0` → `call_0_2`); an id too long for that loses its end to it:
 *   Anthropic and Bedrock accept `^[a-zA-Z0-9_-]+$` (Bedrock up to 64 characters), OpenAI Chat
 *   Completions up to 40 characters.
 *
 * Names of different `k` may coincide, and may equal another id: callers skip a name in use
 * ({@link freshCallId}).
 *
 * @param id - The reused id.
 * @param k - Which name: 2 for the second use of the id, and up.
 * @returns The candidate name.
 */
export function reusedCallId(id: string, k: number): string {
  if (MISTRAL_ID.test(id)) {
    const tail = k.toString(36);
    return tail.length >= id.length ? tail : `${id.slice(0, id.length - tail.length)}${tail}`;
  }
  const suffix = `_${k}`;
  const room = Math.max(id.length, MAX_RENAMED_LENGTH) - suffix.length;
  if (id.length <= room) return `${id}${suffix}`;
  let cut = Math.max(0, room);
  // Never split a surrogate pair.
  if (cut > 0 && /[\uD800-\uDBFF]/.test(id[cut - 1]!)) cut--;
  return `${id.slice(0, cut)}${suffix}`;
}

/**
 * The first name of the reused `id` ({@link reusedCallId}, from `k` = `nextSuffix.get(id)` or 2 up)
 * that is not in use; `nextSuffix` is then moved past it, so the n-th reuse of an id costs one probe
 * when the names in use only grow (every name below the bound is in use already).
 *
 * @param id - The reused id.
 * @param inUse - Whether a name is taken: a raw id of the history, or a name already sent.
 * @param nextSuffix - The lower bound of `k` per id, updated.
 * @returns The fresh name.
 */
export function freshCallId(id: string, inUse: (name: string) => boolean, nextSuffix: Map<string, number>): string {
  for (let k = nextSuffix.get(id) ?? 2; ; k++) {
    const candidate = reusedCallId(id, k);
    if (!inUse(candidate)) {
      nextSuffix.set(id, k + 1);
      return candidate;
    }
  }
}
