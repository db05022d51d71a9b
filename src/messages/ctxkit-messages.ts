import { ContextError } from '../errors.js';
// Every message ctxkit writes into a history, and the one predicate that recognises them. The
// wire strings live here and nowhere else; the pipeline, the session tree and the manager build
// their messages through these functions.
import type { Anchor } from '../summarizing/anchors/anchor.js';
import type { Message, ToolCall, ToolResultMessage, UserMessage } from '../types.js';

/** First line of a compaction summary message. */
export const SUMMARY_PREFIX = '[Previous conversation summary]';
/** First line of a tool-result summary message. */
export const TOOL_SUMMARY_PREFIX = '[Tool result summary]';
/** First line of the digest of tool results archived during compaction. */
export const DIGEST_PREFIX = '[Compaction tool digest]';
/** First line of a branch summary message. */
export const BRANCH_SUMMARY_PREFIX = '[Summary of an abandoned branch]';
/** Content sent in place of an archived tool result. */
export const ARCHIVED_RESULT_PLACEHOLDER =
  '[Tool result archived: its output was summarized earlier in the conversation]';
/** Content of the error result added for a tool call without one. */
export const MISSING_RESULT_TEXT = '[No result: this tool call did not complete, so no output is available]';
/** Default text of a cleared tool result. */
export const CLEARED_RESULT_PLACEHOLDER = '[Tool result cleared to save context. Call the tool again if you need it.]';
/** `meta.kind` of a cleared tool result. */
export const CLEARED_RESULT_KIND = 'tool_result_cleared';

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

function textOf(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

function onlyText(message: ToolResultMessage): string | undefined {
  const only = message.content.length === 1 ? message.content[0] : undefined;
  return only?.type === 'text' ? only.text : undefined;
}

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
  const kind = message.meta?.kind;
  if (message.role === 'toolResult') {
    if (kind === 'tool_result_archived') return 'archived_result';
    if (kind === CLEARED_RESULT_KIND) return 'cleared_result';
    const text = onlyText(message);
    if (text === ARCHIVED_RESULT_PLACEHOLDER) return 'archived_result';
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
  if (message.role !== 'user') return undefined;
  const kind = message.meta?.kind;
  if (kind !== 'compaction_summary' && kind !== undefined) return undefined;
  const text = textOf(message);
  if (text.startsWith(SUMMARY_PREFIX)) return text.slice(SUMMARY_PREFIX.length).trimStart();
  return kind === 'compaction_summary' ? text : undefined;
}

/** The user message that carries a tool-result summary (hidden from the user). @internal */
export function createToolSummaryMessage(summary: string): UserMessage {
  return {
    role: 'user',
    content: `${TOOL_SUMMARY_PREFIX}\n${summary}`,
    meta: { agentVisible: true, userVisible: false, kind: 'tool_summary' },
  };
}

/** The digest message of tool results archived during compaction, one line each. @internal */
export function createDigestMessage(lines: readonly string[]): UserMessage {
  return {
    role: 'user',
    content: `${DIGEST_PREFIX}\n${lines.join('\n')}`,
    meta: { agentVisible: true, userVisible: false, kind: 'tool_summary' },
  };
}

/** The user message a branch summary entry stands for. @internal */
export function createBranchSummaryMessage(summary: string): UserMessage {
  return { role: 'user', content: `${BRANCH_SUMMARY_PREFIX}\n${summary}`, meta: { kind: 'branch_summary' } };
}

/** Archives a tool result: hidden from the model, `userVisible` kept, kind `tool_result_archived`. @internal */
export function archiveToolResult(result: ToolResultMessage): ToolResultMessage {
  return { ...result, meta: { ...result.meta, agentVisible: false, kind: 'tool_result_archived' } };
}

/** What the model sees in place of an archived tool result. @internal */
export function createArchivedPlaceholder(result: ToolResultMessage): ToolResultMessage {
  return {
    role: 'toolResult',
    toolCallId: result.toolCallId,
    toolName: result.toolName,
    content: [{ type: 'text', text: ARCHIVED_RESULT_PLACEHOLDER }],
    ...(result.isError === undefined ? {} : { isError: result.isError }),
    meta: { ...result.meta, agentVisible: true, kind: 'tool_result_archived' },
  };
}

/** The error result added for a tool call that has none. @internal */
export function createMissingResult(call: ToolCall): ToolResultMessage {
  return {
    role: 'toolResult',
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: 'text', text: MISSING_RESULT_TEXT }],
    isError: true,
    meta: { kind: 'tool_result', userVisible: false },
  };
}

/** A tool result emptied down to `placeholder`, of kind `tool_result_cleared`. @internal */
export function clearToolResult(message: ToolResultMessage, placeholder: string): ToolResultMessage {
  return {
    ...message,
    content: [{ type: 'text', text: placeholder }],
    meta: { ...message.meta, kind: CLEARED_RESULT_KIND },
  };
}

/** Whether a tool result was already cleared (by kind, or by its text when `meta` was lost). @internal */
export function isClearedToolResult(message: ToolResultMessage, placeholder: string): boolean {
  return message.meta?.kind === CLEARED_RESULT_KIND || onlyText(message) === placeholder;
}
