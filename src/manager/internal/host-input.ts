/** How the manager tells that the host's array continues what it saw before. */
import { ContextError } from '../../errors.js';
import type { Message } from '../../types.js';
import { assertMessage } from '../../validation/assert-messages.js';

/**
 * Whether `input` starts with every message of `previous`, object for object: a walk without
 * allocation, in proportion to `previous` (a comparison of references: tens of microseconds at
 * 14,000 messages, about a millisecond at 100,000). Every position is compared, so a host may change its array anywhere between calls
 * (replace, remove or reorder messages) and the manager sees it; `ContextManager.append`
 * skips the walk for hosts that say what is new.
 *
 * @internal
 */
export function continues(input: readonly Message[], previous: readonly Message[]): boolean {
  const length = previous.length;
  if (length > input.length) return false;
  for (let index = 0; index < length; index++) if (input[index] !== previous[index]) return false;
  return true;
}

/**
 * Checks a list the host passed, without keeping a record of its messages.
 *
 * @throws {@link ContextError} with code `INPUT_INVALID`.
 * @internal
 */
export function checkList(input: unknown, where: string): asserts input is readonly Message[] {
  if (!Array.isArray(input)) {
    throw new ContextError({
      message: `${where}: messages must be an array of messages, received ${input === null ? 'null' : typeof input}.`,
      code: 'INPUT_INVALID',
    });
  }
  for (let index = 0; index < input.length; index++) assertMessage(input[index], where, index);
}

/** A user message the host wrote (not a summary ctxkit made): it starts a turn. @internal */
export function isHostTurn(message: Message): boolean {
  const kind = message.meta?.kind;
  return message.role === 'user' && kind !== 'tool_summary' && kind !== 'compaction_summary';
}
