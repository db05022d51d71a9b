import type { Message } from '../types.js';

/**
 * Whether a message is shown in a transcript UI (`meta.userVisible` defaults to `true`).
 *
 * @param message - Any message. Takes trusted input: a `Message` as ctxkit's types describe it (one
 *   that came through a store or a checked function); it is not validated here.
 * @returns `false` only when `meta.userVisible` is explicitly `false`.
 *
 * @example
 * ```ts
 * isUserVisible({ role: 'user', content: 'x', meta: { userVisible: false } }); // false
 * ```
 */
export function isUserVisible(message: Message): boolean {
  return message.meta?.userVisible !== false;
}
