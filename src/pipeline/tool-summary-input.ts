/** What the tool-result summarizer is given: the archived results with their calls, the newest that fit its input cap. */

import { pairToolResults } from '../internal/tool-pairing.js';
import { withMeta } from '../messages/kept-tool-results.js';
import { argumentsText } from '../summarizing/serialize-conversation.js';
import type { AssistantMessage, Message, ToolCall, ToolResultMessage } from '../types.js';

/**
 * Each archived result with the call that produced it (the nearest call before it with its id, as
 * ids may be reused), so the summary knows what was run.
 *
 * @internal
 */
export function withTheirCalls(messages: readonly Message[], results: readonly ToolResultMessage[]): Message[] {
  const wanted = new Set<Message>(results);
  const callOf = new Map<Message, ToolCall>();
  // The one pairing rule of ctxkit: a result answers the nearest earlier unanswered call of its id.
  for (const [index, site] of pairToolResults(messages)) {
    const result = messages[index]!;
    const owner = messages[site.message]!;
    if (!wanted.has(result) || owner.role !== 'assistant') continue;
    const call = owner.content[site.part];
    if (call?.type === 'toolCall') callOf.set(result, call);
  }
  const pairs: Message[] = [];
  for (const result of results) {
    const call = callOf.get(result);
    if (call) pairs.push({ role: 'assistant', content: [call] } satisfies AssistantMessage);
    // Not a spread and a new key: V8 would make each copy a dictionary.
    const meta =
      result.meta === undefined ? { agentVisible: true } : Object.assign({}, result.meta, { agentVisible: true });
    pairs.push(withMeta(result, meta));
  }
  return pairs;
}

/** Code points of a result's text the batch serializer keeps at least, whatever its share. */
const MIN_RESULT_CHARS = 200;

/**
 * The newest calls and results of `pairs` (as {@link withTheirCalls} builds them) whose serialized
 * batch fits `maxChars` when each result gets the least the batch serializer gives it: the input of
 * one summary stays within the cap, however many results are archived at once (the first call on
 * a long history archives thousands). The newest result is always kept.
 *
 * @internal
 */
export function newestThatFit(pairs: readonly Message[], maxChars: number): Message[] {
  let used = 0;
  let start = pairs.length;
  while (start > 0) {
    const result = pairs[start - 1]!;
    const call = start >= 2 && pairs[start - 2]!.role === 'assistant' ? pairs[start - 2] : undefined;
    const group = call === undefined ? [result] : [call, result];
    const need = leastSize(group) + (start === pairs.length ? 0 : 2);
    if (used + need > maxChars && start < pairs.length) break;
    used += need;
    start -= group.length;
  }
  return start === 0 ? pairs.slice() : pairs.slice(start);
}

/** Characters of the labels around a call and its result (`[Assistant tool calls]: `, `[Tool result …] (error): `, a blank line). */
const GROUP_LABELS = 64;

/**
 * The least a call and its result take in the batch text, in UTF-16 units (never fewer than its
 * code points): its labels, with the call's arguments and the result's text each whole or at the
 * serializer's floor, whichever is shorter.
 */
function leastSize(group: readonly Message[]): number {
  let call = 0;
  let result = 0;
  for (const message of group) {
    if (message.role === 'toolResult') {
      result += message.toolName.length;
      for (const part of message.content) result += part.type === 'text' ? part.text.length + 1 : 8;
    } else if (message.role === 'assistant') {
      for (const part of message.content)
        if (part.type === 'toolCall') call += part.name.length + argumentsText(part).length;
    }
  }
  return GROUP_LABELS + Math.min(call, MIN_RESULT_CHARS) + Math.min(result, MIN_RESULT_CHARS);
}

/**
 * The summarizer's pairs for the archived results at `indexes` of `history` (oldest first), built
 * only for the newest that fit the input cap: `pairsOfNewest(k)` gives the pairs of the newest `k`
 * results. It is asked once for a few more results than can fit, by the least each result's text
 * and labels take (its call taken as nothing), so it builds no pairs for the thousands a first call
 * archives, and looks none of them up.
 *
 * @internal
 */
export function newestPairsThatFit(
  history: readonly Message[],
  indexes: readonly number[],
  maxChars: number,
  pairsOfNewest: (newest: number) => Message[],
): Message[] {
  const count = indexes.length;
  let used = 0;
  let newest = 0;
  // Stops at the first result that cannot fit even without its call: none older fits either.
  while (newest < count && used <= maxChars) {
    used += leastSize([history[indexes[count - 1 - newest]!]!]) + (newest === 0 ? 0 : 2);
    newest++;
  }
  return newestThatFit(pairsOfNewest(newest), maxChars);
}
