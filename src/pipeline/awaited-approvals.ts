import { approvalRequests, approvalResponseIds } from '../internal/tool-approvals.js';
import { MISSING_CONTENT } from '../messages/kept-tool-results.js';
import type { AssistantMessage, Message } from '../types.js';

/**
 * A projection without the synthetic results of the calls whose approval is answered at its end.
 *
 * An AI SDK tool call that needed approval, whose `tool-approval-response` (approved or denied)
 * follows it with no result yet, is not a dead call: the SDK runs the approved tool (or writes its
 * denial) at the start of the next `generateText`, and skips a call that already has a result. So
 * when the projection ends with the last assistant message, its results and approval responses,
 * the synthetic results of the calls those responses answer are left out, and the calls go out
 * open for the SDK to answer. Anywhere else (a user message after them) such a call is dead and
 * keeps its synthetic result. Real results are never dropped. Returns `sent` itself when nothing
 * is left out (the common case costs a walk over the tail).
 *
 * @internal
 */
export function withoutAwaitedResults(sent: Message[]): Message[] {
  let index = sent.length - 1;
  let answered: string[] | undefined;
  for (; index >= 0; index--) {
    const message = sent[index]!;
    if (message.role === 'toolResult') continue;
    if (message.role === 'assistant') break;
    const ids = approvalResponseIds(message);
    if (ids === undefined) return sent;
    answered = answered === undefined ? ids : answered.concat(ids);
  }
  if (answered === undefined || index < 0) return sent;
  const awaited = new Set<string>();
  for (const request of approvalRequests(sent[index] as AssistantMessage)) {
    if (answered.includes(request.approvalId)) awaited.add(request.toolCallId);
  }
  if (awaited.size === 0) return sent;
  const kept = sent.filter(
    (message, position) =>
      position <= index ||
      message.role !== 'toolResult' ||
      message.content !== MISSING_CONTENT ||
      !awaited.has(message.toolCallId),
  );
  return kept.length === sent.length ? sent : kept;
}
