import type { Message } from '../types.js';

/**
 * Whether a message is sent to the model. Messages with `meta.agentVisible === false` are not,
 * and count zero tokens.
 *
 * @param message - Any message. Takes trusted input: a `Message` as ctxkit's types describe it (one
 *   that came through a store or a checked function); it is not validated here.
 * @returns `false` only when `meta.agentVisible` is explicitly `false`.
 *
 * @example
 * ```ts
 * isAgentVisible({ role: 'user', content: 'x', meta: { agentVisible: false } }); // false
 * ```
 */
export function isAgentVisible(message: Message): boolean {
  return message.meta?.agentVisible !== false;
}
