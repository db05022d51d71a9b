import type { Message } from '../types.js';

/**
 * For every boundary `i` (0…n), whether splitting the list into `messages[0, i)` and
 * `messages[i, n)` keeps every tool call in the same part as its results. A result whose call is
 * nowhere before it (an orphan) places no constraint.
 *
 * @internal
 */
export function validCutPoints(messages: readonly Message[]): boolean[] {
  const n = messages.length;
  const callIndexOfResult = new Array<number>(n).fill(Number.POSITIVE_INFINITY);
  const callIndex = new Map<string, number>();
  for (let index = 0; index < n; index++) {
    const message = messages[index]!;
    if (message.role === 'assistant') {
      for (const part of message.content) if (part.type === 'toolCall') callIndex.set(part.id, index);
    } else if (message.role === 'toolResult') {
      const call = callIndex.get(message.toolCallId);
      if (call !== undefined) callIndexOfResult[index] = call;
    }
  }
  const valid = new Array<boolean>(n + 1);
  valid[n] = true;
  let suffixMin = Number.POSITIVE_INFINITY;
  for (let index = n - 1; index >= 0; index--) {
    suffixMin = Math.min(suffixMin, callIndexOfResult[index]!);
    valid[index] = suffixMin >= index;
  }
  return valid;
}

/** The ids of the tool calls in an assistant message. @internal */
export function toolCallIds(message: Message): string[] {
  if (message.role !== 'assistant') return [];
  const ids: string[] = [];
  for (const part of message.content) if (part.type === 'toolCall') ids.push(part.id);
  return ids;
}
