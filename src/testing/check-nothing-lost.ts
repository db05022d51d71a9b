import { archiveToolResult } from '../messages/kept-tool-results.js';
import type { Message } from '../types.js';
import { assertOptionalObjectArgument } from '../validation/assert-argument.js';
import { assertMessages } from '../validation/assert-messages.js';
import { deepEqual } from './deep-differences.js';

/**
 * Options of {@link checkNothingLost}.
 *
 * @example
 * ```ts
 * const options: CheckNothingLostOptions = { allowArchived: true };
 * ```
 */
export interface CheckNothingLostOptions {
  /**
   * Also accept a tool result that differs only by having been archived (`meta.agentVisible`
   * `false`, `meta.kind` `'tool_result_archived'`), as `summarizeToolResults` does. @default false
   */
  allowArchived?: boolean;
}

function archived(message: Message): Message | undefined {
  if (message.role !== 'toolResult') return undefined;
  return archiveToolResult(message);
}

function preview(message: Message): string {
  const text =
    message.role === 'toolResult'
      ? `tool result "${message.toolCallId}"`
      : typeof message.content === 'string'
        ? JSON.stringify(message.content.slice(0, 30))
        : `${message.content.length} part(s)`;
  return `${message.role} message ${text}`;
}

/**
 * Checks that every message of `before` is still in `after`, in the same order (other messages may
 * be added in between). A message matches when it is the same object or deeply equal, or, with
 * `allowArchived`, its archived form.
 *
 * @param before - The messages that must be kept.
 * @param after - The list to search.
 * @param options - Whether archived tool results count as kept.
 * @returns One problem per message lost or out of order; empty when nothing was lost.
 *
 * @example
 * ```ts
 * const result = await summarizeToolResults(messages, { strategy: 'heuristic', cutoff: 2 });
 * expect(checkNothingLost(messages, result.messages, { allowArchived: true })).toEqual([]);
 * ```
 */
export function checkNothingLost(
  before: readonly Message[],
  after: readonly Message[],
  options: CheckNothingLostOptions = {},
): string[] {
  assertMessages(before, 'checkNothingLost');
  assertMessages(after, 'checkNothingLost');
  assertOptionalObjectArgument(options, 'checkNothingLost', 'options');
  const problems: string[] = [];
  let position = 0;
  before.forEach((message, index) => {
    const alternative = options.allowArchived ? archived(message) : undefined;
    const matches = (candidate: Message) =>
      candidate === message ||
      deepEqual(message, candidate) ||
      (alternative !== undefined && deepEqual(alternative, candidate));
    let found = position;
    while (found < after.length && !matches(after[found]!)) found++;
    if (found < after.length) {
      position = found + 1;
      return;
    }
    const anywhere = after.some(matches);
    problems.push(
      `${preview(message)} at index ${index} of before ${anywhere ? 'is in after, but out of order' : 'is missing from after'}`,
    );
  });
  return problems;
}
