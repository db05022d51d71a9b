import { approvalRequests, approvalResponseIds } from '../internal/tool-approvals.js';
import type { Message } from '../types.js';
import { assertOptionalObjectArgument } from '../validation/assert-argument.js';
import { assertMessages } from '../validation/assert-messages.js';

/**
 * Options of {@link checkToolPairing}.
 *
 * @example
 * ```ts
 * const options: CheckToolPairingOptions = { allowPendingTail: true };
 * ```
 */
export interface CheckToolPairingOptions {
  /**
   * Accept a last assistant turn whose calls have no results yet, when nothing but some of its
   * results (and AI SDK approval responses) follows it (the host, or the AI SDK after an
   * approval, is about to run the tools). @default false
   */
  allowPendingTail?: boolean;
}

function describeAt(messages: readonly Message[], index: number): string {
  const message = messages[index];
  if (message?.role === 'toolResult') return `tool result "${message.toolCallId}" at index ${index}`;
  return `${message?.role ?? 'nothing'} message at index ${index}`;
}

/**
 * Checks that a message list, as it will be sent to a provider (the output of
 * `prepareModelMessages`), pairs every tool call with its result. The rule, strictest of the
 * providers', is:
 * - every assistant message with tool calls is followed immediately by one tool result per call,
 *   each naming one of its call ids exactly once (in any order), and nothing else in between;
 * - every tool result is part of such a block: no result without its call right before it, no
 *   second result for a call;
 * - no two tool calls share an id.
 *
 * Like every checker of `ctxkit/testing`, it returns the problems it found as readable sentences:
 * an empty list means the invariant holds. In a test, `expect(checkToolPairing(output)).toEqual([])`
 * prints them all when it fails.
 *
 * @param messages - The list to check; not mutated.
 * @param options - Whether a pending last turn is accepted.
 * @returns The problems found; empty when the pairing holds.
 *
 * @example
 * ```ts
 * const problems = checkToolPairing(prepareModelMessages(history));
 * expect(problems).toEqual([]);
 * ```
 */
export function checkToolPairing(messages: readonly Message[], options: CheckToolPairingOptions = {}): string[] {
  assertMessages(messages, 'checkToolPairing');
  assertOptionalObjectArgument(options, 'checkToolPairing', 'options');
  const problems: string[] = [];
  const paired = new Set<number>();
  const callIds = new Map<string, number>();
  messages.forEach((message, index) => {
    if (message.role !== 'assistant') return;
    const ids: string[] = [];
    for (const part of message.content) {
      if (part.type !== 'toolCall') continue;
      const earlier = callIds.get(part.id);
      if (earlier !== undefined)
        problems.push(`tool call id "${part.id}" at index ${index} is already used at index ${earlier}`);
      callIds.set(part.id, index);
      ids.push(part.id);
    }
    if (ids.length === 0) return;
    const waiting = new Set(ids);
    let next = index + 1;
    for (; next < messages.length && waiting.size > 0; next++) {
      const candidate = messages[next]!;
      if (approvalResponseIds(candidate) !== undefined) continue; // an AI SDK approval, sent beside the results
      if (candidate.role !== 'toolResult' || !waiting.has(candidate.toolCallId)) break;
      waiting.delete(candidate.toolCallId);
      paired.add(next);
    }
    if (waiting.size === 0) return;
    if (options.allowPendingTail && next >= messages.length) return;
    const missing = [...waiting].map((id) => `"${id}"`).join(', ');
    problems.push(
      `assistant message at index ${index}: tool call(s) ${missing} have no result directly after it (found ${next < messages.length ? describeAt(messages, next) : 'the end of the list'})`,
    );
  });
  messages.forEach((message, index) => {
    if (message.role !== 'toolResult' || paired.has(index)) return;
    const call = callIds.get(message.toolCallId);
    const why =
      call === undefined
        ? 'has no matching tool call'
        : call > index
          ? `comes before its call at index ${call}`
          : `is not in the block of results right after its call at index ${call} (misplaced or a second result)`;
    problems.push(`${describeAt(messages, index)} ${why}`);
  });
  return problems;
}

/**
 * Checks that cutting a conversation into `old` and `recent` kept every tool call in the same part
 * as its results: no result in `recent` answers a call in `old`. (A result that comes before its
 * call, or has none, is an orphan and places no constraint.)
 *
 * @param old - The older part.
 * @param recent - The newer part.
 * @returns The problems found; empty when no call was parted from its results.
 *
 * @example
 * ```ts
 * const { old, recent } = splitByTokenBudget(messages, { budget: 2000 });
 * expect(checkSplitKeepsToolPairs(old, recent)).toEqual([]);
 * ```
 */
export function checkSplitKeepsToolPairs(old: readonly Message[], recent: readonly Message[]): string[] {
  assertMessages(old, 'checkSplitKeepsToolPairs');
  assertMessages(recent, 'checkSplitKeepsToolPairs');
  const oldCalls = new Set<string>();
  for (const message of old) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) if (part.type === 'toolCall') oldCalls.add(part.id);
  }
  const oldRequests = new Set<string>();
  for (const message of old) {
    if (message.role === 'assistant')
      for (const request of approvalRequests(message)) oldRequests.add(request.approvalId);
  }
  const recentCalls = new Set<string>();
  const problems: string[] = [];
  recent.forEach((message, index) => {
    for (const id of approvalResponseIds(message) ?? []) {
      if (oldRequests.has(id))
        problems.push(
          `approval response "${id}" at index ${index} of recent answers a request in old: the cut parts them`,
        );
    }
    if (message.role === 'assistant') {
      for (const part of message.content) if (part.type === 'toolCall') recentCalls.add(part.id);
    } else if (
      message.role === 'toolResult' &&
      oldCalls.has(message.toolCallId) &&
      !recentCalls.has(message.toolCallId)
    ) {
      problems.push(
        `tool result "${message.toolCallId}" at index ${index} of recent answers a call in old: the cut parts them`,
      );
    }
  });
  return problems;
}
