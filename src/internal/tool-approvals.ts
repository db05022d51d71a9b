import type { AssistantMessage, Message } from '../types.js';

// Tool approvals: a tool call that waits for a person's yes or no before it runs. The AI SDK writes
// them in its messages (a `tool-approval-request` part beside the call in the assistant message, a
// `tool-approval-response` part in a later tool message) and runs the approved tool itself at the
// start of the next `generateText`. ctxkit's AI SDK adapter carries both parts as text parts holding
// the wire part in `providerData['ai-sdk'].part` (a tool message's parts become one user message
// each); this module is the one place that reads them there, so pairing, compaction and session
// filters treat an approval as part of its call.

/** An approval request: which approval, for which call. @internal */
interface ApprovalRequest {
  approvalId: string;
  toolCallId: string;
}

/** The carried wire part of a content part, when it is one of `type`. */
function carried(part: { providerData?: Record<string, unknown> }, type: string): Record<string, unknown> | undefined {
  const data = part.providerData?.['ai-sdk'];
  if (typeof data !== 'object' || data === null) return undefined;
  const wire = (data as { part?: unknown }).part;
  if (typeof wire !== 'object' || wire === null) return undefined;
  return (wire as { type?: unknown }).type === type ? (wire as Record<string, unknown>) : undefined;
}

/** The approval request a content part carries, if it is one. @internal */
export function approvalRequestOf(part: { providerData?: Record<string, unknown> }): ApprovalRequest | undefined {
  const wire = carried(part, 'tool-approval-request');
  if (wire === undefined) return undefined;
  const { approvalId, toolCallId } = wire;
  return typeof approvalId === 'string' && typeof toolCallId === 'string' ? { approvalId, toolCallId } : undefined;
}

/** The approval requests of an assistant message, in order. @internal */
export function approvalRequests(message: AssistantMessage): ApprovalRequest[] {
  const requests: ApprovalRequest[] = [];
  for (const part of message.content) {
    if (part.type !== 'text' || part.providerData === undefined) continue;
    const request = approvalRequestOf(part);
    if (request !== undefined) requests.push(request);
  }
  return requests;
}

/**
 * The approval ids a message answers, when it is an approval response (a user message whose every
 * part carries a `tool-approval-response`); `undefined` for any other message. @internal
 */
export function approvalResponseIds(message: Message): string[] | undefined {
  if (message.role !== 'user' || typeof message.content === 'string' || message.content.length === 0) return undefined;
  const ids: string[] = [];
  for (const part of message.content) {
    if (part.type !== 'text') return undefined;
    const approvalId = carried(part, 'tool-approval-response')?.['approvalId'];
    if (typeof approvalId !== 'string') return undefined;
    ids.push(approvalId);
  }
  return ids;
}
