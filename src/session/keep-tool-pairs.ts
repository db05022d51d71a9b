import { approvalRequestOf, approvalResponseIds } from '../internal/tool-approvals.js';
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
 * dropped when nothing is left in it. The one exception is a pending turn: calls in the last
 * assistant message, followed by nothing but its results and approval responses, that have no
 * result yet stay, unless `pending` is false. An AI SDK approval goes with its call: a request whose
 * call is removed is removed with it, and an approval response whose request is not kept is dropped.
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
  const pendingTurn = lastTurn(messages);
  const paired = messages.map((message, index) => {
    if (!keep[index] || message.role !== 'assistant') return message;
    const orphaned = new Set<number>();
    const orphanedIds = new Set<string>();
    message.content.forEach((part, partIndex) => {
      if (part.type !== 'toolCall' || (answered.get(`${index}:${partIndex}`) ?? 0) > 0) return;
      if (index === pendingTurn && options.pending !== false) return;
      orphaned.add(partIndex);
      orphanedIds.add(part.id);
    });
    if (orphaned.size === 0) return message;
    // An approval request goes with its call.
    message.content.forEach((part, partIndex) => {
      const request = part.type === 'text' ? approvalRequestOf(part) : undefined;
      if (request !== undefined && orphanedIds.has(request.toolCallId)) orphaned.add(partIndex);
    });
    const result = withoutCalls(message, orphaned);
    if (result.content.length === 0) keep[index] = false;
    return result;
  });
  dropUnansweredApprovals(paired, keep);
  return paired;
}

/**
 * The index of the last assistant message when nothing but tool results and approval responses
 * follows it (a turn whose tools are about to run, or wait for approval), else -1.
 */
function lastTurn(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === 'assistant') return index;
    if (message.role !== 'toolResult' && approvalResponseIds(message) === undefined) return -1;
  }
  return -1;
}

/** Drops (in `keep`) the approval responses whose request is no longer kept with its call. */
function dropUnansweredApprovals(messages: readonly Message[], keep: boolean[]): void {
  const requested = new Set<string>();
  messages.forEach((message, index) => {
    if (!keep[index]) return;
    if (message.role === 'assistant') {
      for (const part of message.content) {
        const request = part.type === 'text' ? approvalRequestOf(part) : undefined;
        if (request !== undefined) requested.add(request.approvalId);
      }
      return;
    }
    const ids = approvalResponseIds(message);
    if (ids !== undefined && !ids.every((id) => requested.has(id))) keep[index] = false;
  });
}
