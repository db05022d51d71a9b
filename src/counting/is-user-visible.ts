import type { Message } from '../types.js';
import { assertObjectArgument } from '../validation/assert-argument.js';

/**
 * Whether a message is shown in a transcript UI (`meta.userVisible` defaults to `true`).
 *
 * @param message - Any message. Takes trusted input: a `Message` as ctxkit's types describe it (one
 *   that came through a store or a checked function); only its being an object is checked
 *   (a `ContextError` with code `INPUT_INVALID` otherwise).
 * @returns `false` only when `meta.userVisible` is explicitly `false`.
 *
 * @example
 * ```ts
 * isUserVisible({ role: 'user', content: 'x', meta: { userVisible: false } }); // false
 * ```
 */
export function isUserVisible(message: Message): boolean {
  assertObjectArgument(message, 'isUserVisible', 'message', 'a message object');
  return message.meta?.userVisible !== false;
}
