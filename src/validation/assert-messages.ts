import { ContextError } from '../errors.js';
import type { Message } from '../types.js';
import { describeValue } from './describe-value.js';
import { messageProblem } from './is-well-formed-message.js';

/** Message objects already found valid; each object is checked once, so repeated calls stay cheap. */
const checked = new WeakSet<object>();

/**
 * Checks messages handed in by a host against the message model, so a malformed message fails at
 * the boundary with the index and field named, not as a `TypeError` deep inside.
 *
 * @param messages - What the host passed.
 * @param where - The function the host called, for the message.
 * @throws {@link ContextError} with code `INPUT_INVALID`.
 * @internal
 */
export function assertMessages(messages: unknown, where: string): asserts messages is readonly Message[] {
  if (!Array.isArray(messages)) {
    throw new ContextError({
      message: `${where}: messages must be an array of messages, received ${describeValue(messages)}.`,
      code: 'INPUT_INVALID',
    });
  }
  for (let index = 0; index < messages.length; index++) {
    const message: unknown = messages[index];
    if (typeof message === 'object' && message !== null && checked.has(message)) continue;
    assertMessage(message, where, index);
    checked.add(message as object);
  }
}

/**
 * Checks one message (the `index`-th of what the host passed) without remembering it: the
 * manager checks each new message once as it arrives, so it needs no record of the old ones.
 * The check is hand-written, kept equal to `messageSchema` (see `is-well-formed-message.ts`).
 *
 * @throws {@link ContextError} with code `INPUT_INVALID`.
 * @internal
 */
export function assertMessage(message: unknown, where: string, index: number): asserts message is Message {
  checkMessage(message, where, `messages[${index}]`);
}

function checkMessage(message: unknown, where: string, label: string): asserts message is Message {
  const problem = messageProblem(message);
  if (problem === undefined) return;
  throw new ContextError({
    message: `${where}: ${label}${problem}. Each message needs a role of 'user', 'assistant' or 'toolResult' and content of that role's shape (see the Message type).`,
    code: 'INPUT_INVALID',
  });
}
