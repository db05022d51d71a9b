import type { Message } from '../types.js';
import { assertObjectArgument } from '../validation/assert-argument.js';

/**
 * Whether a message is sent to the model. Messages with `meta.agentVisible === false` are not,
 * and count zero tokens.
 *
 * @param message - Any message. Takes trusted input: a `Message` as ctxkit's types describe it (one
 *   that came through a store or a checked function); only its being an object is checked
 *   (a `ContextError` with code `INPUT_INVALID` otherwise).
 * @returns `false` only when `meta.agentVisible` is explicitly `false`.
 *
 * @example
 * ```ts
 * isAgentVisible({ role: 'user', content: 'x', meta: { agentVisible: false } }); // false
 * ```
 */
export function isAgentVisible(message: Message): boolean {
  assertObjectArgument(message, 'isAgentVisible', 'message', 'a message object');
  return message.meta?.agentVisible !== false;
}
