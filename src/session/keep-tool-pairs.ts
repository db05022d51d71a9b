import type { AssistantMessage, Message } from '../types.js';

const stripped = new WeakMap<AssistantMessage, Map<string, AssistantMessage>>();

function withoutCalls(message: AssistantMessage, callIds: ReadonlySet<string>): AssistantMessage {
  const key = [...callIds].sort().join('\u0000');
  let perMessage = stripped.get(message);
  if (perMessage === undefined) {
    perMessage = new Map();
    stripped.set(message, perMessage);
  }
  let result = perMessage.get(key);
  if (result === undefined) {
    const content = message.content.filter((part) => part.type !== 'toolCall' || !callIds.has(part.id));
    const callsLeft = content.some((part) => part.type === 'toolCall');
    result = { ...message, content };
    if (message.stopReason === 'toolUse' && !callsLeft) result.stopReason = 'stop';
    perMessage.set(key, result);
  }
  return result;
}

/**
 * Applies a filter's decisions (`keep`, one flag per message, updated in place) without parting
 * any call from its results: a result whose assistant message is dropped is dropped too, and a
 * call whose results were all dropped is removed from its (memoized, copied) assistant message,
 * which is dropped when nothing is left in it. Calls with no result at all (a pending turn) stay.
 *
 * @internal
 */
export function keepToolPairs(messages: readonly Message[], keep: boolean[]): Message[] {
  const owner = new Map<string, number>();
  const keptResults = new Map<string, number>();
  messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      for (const part of message.content) if (part.type === 'toolCall') owner.set(part.id, index);
    }
  });
  messages.forEach((message, index) => {
    if (message.role !== 'toolResult') return;
    const call = owner.get(message.toolCallId);
    if (call !== undefined && !keep[call]) keep[index] = false;
    if (!keptResults.has(message.toolCallId)) keptResults.set(message.toolCallId, 0);
    if (keep[index]) keptResults.set(message.toolCallId, keptResults.get(message.toolCallId)! + 1);
  });
  return messages.map((message, index) => {
    if (!keep[index] || message.role !== 'assistant') return message;
    const orphaned = new Set<string>();
    for (const part of message.content)
      if (part.type === 'toolCall' && keptResults.get(part.id) === 0) orphaned.add(part.id);
    if (orphaned.size === 0) return message;
    const result = withoutCalls(message, orphaned);
    if (result.content.length === 0) keep[index] = false;
    return result;
  });
}
