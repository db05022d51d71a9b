import type { Message } from '../types.js';
import { assertMessageShape } from '../validation/assert-argument.js';
import { textOf } from './internal/message-text.js';
import { SUMMARY_PREFIX } from './wire-strings.js';

/**
 * The text of a compaction summary message, without its prefix; `undefined` for other messages. A
 * summary is a user message of kind `compaction_summary`, or a user message without a kind whose
 * text starts with `[Previous conversation summary]` (its `meta` lost in a host's storage round trip).
 *
 * @param message - Any message. Takes trusted input: a `Message` as ctxkit's types describe it (one
 *   that came through a store or a checked function); it is not validated here.
 * @returns The summary text, or `undefined`.
 *
 * @example
 * ```ts
 * summaryText(result.messages[0]!); // the checkpoint text
 * ```
 */
export function summaryText(message: Message): string | undefined {
  assertMessageShape(message, 'summaryText');
  if (message.role !== 'user') return undefined;
  const kind = message.meta?.kind;
  if (kind !== 'compaction_summary' && kind !== undefined) return undefined;
  const text = textOf(message);
  if (text.startsWith(SUMMARY_PREFIX)) return text.slice(SUMMARY_PREFIX.length).trimStart();
  return kind === 'compaction_summary' ? text : undefined;
}
