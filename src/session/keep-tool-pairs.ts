import { pairToolResults } from '../internal/tool-pairing.js';
import type { AssistantMessage, Message } from '../types.js';

const stripped = new WeakMap<AssistantMessage, Map<string, AssistantMessage>>();

function withoutCalls(message: AssistantMessage, parts: ReadonlySet<number>): AssistantMessage {
  const key = [...parts].join(',');
  let perMessage = stripped.get(message);
  if (perMessage === undefined) {
    perMessage = new Map();
    stripped.set(message, perMessage);
  }
  let result = perMessage.get(key);
  if (result === undefined) {
    const content = message.content.filter((_, index) => !parts.has(index));
    const callsLeft = content.some((part) => part.type === 'toolCall');
    result = { ...message, content };
    if (message.stopReason === 'toolUse' && !callsLeft) result.stopReason = 'stop';
    perMessage.set(key, result);
  }
  return result;
}

/**
 * Applies a filter's decisions (`keep`, one flag per message, updated in place) without parting
 * any call from its results. Each result belongs to the nearest earlier unanswered call with its id
 * (`pairToolResults`, the rule the provider projection uses; ids may be reused across turns); a
 * second result for one call is dropped. A result whose call is dropped, or not in the list at all, is dropped too; a
 * call left with no kept result is removed from its (memoized, copied) assistant message, which is
 * dropped when nothing is left in it. The one exception is a pending turn: calls in the last message
 * of the list that have no result yet stay, unless `pending` is false.
 *
 * @internal
 *
 * @internal
 */
export function keepToolPairs(
  messages: readonly Message[],
  keep: boolean[],
  options: { pending?: boolean } = {},
): Message[] {
  const sites = pairToolResults(messages);
  /** Kept results per call, keyed by `message:part`. */
  const answered = new Map<string, number>();
  messages.forEach((message, index) => {
    if (message.role !== 'toolResult') return;
    const call = sites.get(index);
    if (call === undefined || !keep[call.message]) keep[index] = false;
    if (call !== undefined && keep[index]) {
      const key = `${call.message}:${call.part}`;
      answered.set(key, (answered.get(key) ?? 0) + 1);
    }
  });
  const last = messages.length - 1;
  return messages.map((message, index) => {
    if (!keep[index] || message.role !== 'assistant') return message;
    const orphaned = new Set<number>();
    message.content.forEach((part, partIndex) => {
      if (part.type !== 'toolCall' || (answered.get(`${index}:${partIndex}`) ?? 0) > 0) return;
      if (index === last && options.pending !== false) return;
      orphaned.add(partIndex);
    });
    if (orphaned.size === 0) return message;
    const result = withoutCalls(message, orphaned);
    if (result.content.length === 0) keep[index] = false;
    return result;
  });
}
