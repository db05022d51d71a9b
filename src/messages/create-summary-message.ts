import { ContextError } from '../errors.js';
import type { Anchor } from '../summarizing/anchors/anchor.js';
import type { UserMessage } from '../types.js';
import { SUMMARY_PREFIX } from './wire-strings.js';

/**
 * The user message that carries a compaction summary.
 *
 * @param summary - The checkpoint text.
 * @param options - `keptMessages`: how many messages that follow it were kept from before the
 *   compaction (their stale usage is then ignored by token estimates); `anchors`: the facts the
 *   checkpoint keeps, carried to the next compaction.
 * @returns A user message of kind `compaction_summary`, prefixed `[Previous conversation summary]`.
 *
 * @example
 * ```ts
 * createSummaryMessage('## Goal\nShip the parser'); // { role: 'user', content: '[Previous conversation summary]\n## Goal…' }
 * ```
 */
export function createSummaryMessage(
  summary: string,
  options: { keptMessages?: number; anchors?: readonly Anchor[] } = {},
): UserMessage {
  if (typeof summary !== 'string') {
    throw new ContextError({
      message: `createSummaryMessage: summary must be a string, received ${summary === null ? 'null' : typeof summary}.`,
      code: 'INPUT_INVALID',
    });
  }
  const kept = options?.keptMessages;
  if (
    options !== undefined &&
    (typeof options !== 'object' || options === null || (kept !== undefined && !(Number.isInteger(kept) && kept >= 0)))
  ) {
    throw new ContextError({
      message: 'createSummaryMessage: options.keptMessages must be a whole number ≥ 0 (or left out).',
      code: 'INPUT_INVALID',
    });
  }
  return {
    role: 'user',
    content: `${SUMMARY_PREFIX}\n${summary}`,
    meta: {
      agentVisible: true,
      userVisible: true,
      kind: 'compaction_summary',
      ...(options.keptMessages ? { keptMessages: options.keptMessages } : {}),
      ...(options.anchors && options.anchors.length > 0 ? { anchors: [...options.anchors] } : {}),
    },
  };
}
