import type { Message } from '../types.js';
import { assertMessageShape } from '../validation/assert-argument.js';
import { onlyText, textOf } from './internal/message-text.js';
import {
  ARCHIVED_RESULT_PATTERN,
  ARCHIVED_RESULT_PLACEHOLDER,
  BRANCH_SUMMARY_PREFIX,
  CLEARED_RESULT_KIND,
  CLEARED_RESULT_PLACEHOLDER,
  DIGEST_PREFIX,
  MISSING_RESULT_TEXT,
  SUMMARY_PREFIX,
  TOOL_SUMMARY_PREFIX,
} from './wire-strings.js';

/**
 * Which kind of message ctxkit wrote, as {@link ctxkitMessageKind} reports it:
 * - `compaction_summary` — the checkpoint that replaces compacted history (a user message);
 * - `tool_summary` — the summary of a run of tool results (a user message, hidden from the user);
 * - `tool_digest` — the one-line-per-result digest of tool results archived during compaction;
 * - `branch_summary` — the summary of an abandoned branch of the session tree;
 * - `archived_result` — a tool result archived after summarization, or its placeholder;
 * - `missing_result` — the error result added for a tool call that has none;
 * - `cleared_result` — a tool result emptied by `clearToolUses`.
 *
 * @example
 * ```ts
 * const kind: CtxkitMessageKind = 'compaction_summary';
 * ```
 */
export type CtxkitMessageKind =
  | 'compaction_summary'
  | 'tool_summary'
  | 'tool_digest'
  | 'branch_summary'
  | 'archived_result'
  | 'missing_result'
  | 'cleared_result';

/**
 * Says which kind of ctxkit message a message is, or `undefined` for the host's own messages. It
 * reads `meta.kind` first and falls back to the text ctxkit writes, so a message whose `meta` was
 * lost in a storage round trip is still recognised.
 *
 * @param message - Any message. Takes trusted input: a `Message` as ctxkit's types describe it (one
 *   that came through a store or a checked function); it is not validated here.
 * @returns The kind of ctxkit message, or `undefined`.
 *
 * @example
 * ```ts
 * const own = history.filter((message) => ctxkitMessageKind(message) !== undefined);
 * ```
 */
export function ctxkitMessageKind(message: Message): CtxkitMessageKind | undefined {
  assertMessageShape(message, 'ctxkitMessageKind');
  const kind = message.meta?.kind;
  if (message.role === 'toolResult') {
    if (kind === 'tool_result_archived') return 'archived_result';
    if (kind === CLEARED_RESULT_KIND) return 'cleared_result';
    const text = onlyText(message);
    if (text === ARCHIVED_RESULT_PLACEHOLDER || (text !== undefined && ARCHIVED_RESULT_PATTERN.test(text)))
      return 'archived_result';
    if (text === MISSING_RESULT_TEXT) return 'missing_result';
    if (text === CLEARED_RESULT_PLACEHOLDER) return 'cleared_result';
    return undefined;
  }
  if (message.role !== 'user') return undefined;
  if (kind !== undefined && kind !== 'compaction_summary' && kind !== 'tool_summary' && kind !== 'branch_summary')
    return undefined;
  const text = textOf(message);
  if (text.startsWith(DIGEST_PREFIX)) return 'tool_digest';
  if (kind === 'compaction_summary' || text.startsWith(SUMMARY_PREFIX)) return 'compaction_summary';
  if (kind === 'tool_summary' || text.startsWith(TOOL_SUMMARY_PREFIX)) return 'tool_summary';
  if (kind === 'branch_summary' || text.startsWith(BRANCH_SUMMARY_PREFIX)) return 'branch_summary';
  return undefined;
}
