import type { Message } from '../types.js';
import { approvalRequests, approvalResponseIds } from './tool-approvals.js';

/**
 * For every boundary `i` (0…n), whether splitting the list into `messages[0, i)` and
 * `messages[i, n)` keeps every tool call in the same part as its results (and an AI SDK approval
 * response with the message holding its request). A result whose call is nowhere before it (an
 * orphan) places no constraint.
 *
 * @internal
 */
export function validCutPoints(messages: readonly Message[]): boolean[] {
  const n = messages.length;
  const callIndexOfResult = new Array<number>(n).fill(Number.POSITIVE_INFINITY);
  const callIndex = new Map<string, number>();
  let requestIndex: Map<string, number> | undefined;
  for (let index = 0; index < n; index++) {
    const message = messages[index]!;
    if (message.role === 'assistant') {
      for (const part of message.content) if (part.type === 'toolCall') callIndex.set(part.id, index);
      for (const request of approvalRequests(message)) {
        requestIndex ??= new Map();
        requestIndex.set(request.approvalId, index);
      }
    } else if (message.role === 'toolResult') {
      const call = callIndex.get(message.toolCallId);
      if (call !== undefined) callIndexOfResult[index] = call;
    } else if (requestIndex !== undefined) {
      // An approval response stays with the message holding its request (and its call).
      for (const id of approvalResponseIds(message) ?? []) {
        const request = requestIndex.get(id);
        if (request !== undefined) callIndexOfResult[index] = Math.min(callIndexOfResult[index]!, request);
      }
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

/** Where a tool call sits: its assistant message, its content part, and its rank among the message's calls. @internal */
interface CallSite {
  message: number;
  part: number;
  call: number;
}

/**
 * The call each tool result answers, by position: the nearest call before it with its id that has
 * no result yet (within one assistant message, the first such call), so reused ids (`call_0` in
 * every turn) pair with their own turn. Results absent from the map answer nothing (orphans or
 * second results). The one rule `prepareModelMessages` and `clearToolUses` pair by.
 *
 * @internal
 */
export function pairToolResults(messages: readonly Message[]): Map<number, CallSite> {
  // One site per id in the common case, an array only when an id waits on several calls.
  const open = new Map<string, CallSite | CallSite[]>();
  const sites = new Map<number, CallSite>();
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === 'assistant') {
      const content = message.content;
      let call = 0;
      for (let part = 0; part < content.length; part++) {
        const block = content[part]!;
        if (block.type !== 'toolCall') continue;
        const site: CallSite = { message: index, part, call: call++ };
        const waiting = open.get(block.id);
        if (waiting === undefined) open.set(block.id, site);
        else if (Array.isArray(waiting)) waiting.push(site);
        else open.set(block.id, [waiting, site]);
      }
    } else if (message.role === 'toolResult') {
      const waiting = open.get(message.toolCallId);
      if (waiting === undefined) continue;
      if (!Array.isArray(waiting)) {
        open.delete(message.toolCallId);
        sites.set(index, waiting);
        continue;
      }
      const nearest = waiting[waiting.length - 1]!.message;
      let slot = waiting.length - 1;
      while (slot > 0 && waiting[slot - 1]!.message === nearest) slot--;
      sites.set(index, waiting.splice(slot, 1)[0]!);
      if (waiting.length === 0) open.delete(message.toolCallId);
    }
  }
  return sites;
}
