import { estimateMessageTokens } from '../counting/estimate-message-tokens.js';
import { isAgentVisible } from '../counting/is-agent-visible.js';
import { isUserVisible } from '../counting/is-user-visible.js';
import { referenceCounter } from '../counting/token-counter.js';
import { entryToMessage } from '../session/entry-to-message.js';
import type { SessionEntry } from '../session-entry.js';
import { contentText } from '../summarizing/serialize-conversation.js';
import type { Message } from '../types.js';

/** How far up the branch a tool result's call is looked for. */
const CALL_SEARCH_DEPTH = 256;

/**
 * The column values of a `session_entries` row, in the order of {@link ENTRY_COLUMNS}.
 *
 * @internal
 */
export const ENTRY_COLUMNS = [
  'id',
  'session_id',
  'parent_id',
  'entry_type',
  'role',
  'content',
  'provider',
  'model',
  'custom_type',
  'data_json',
  'summary',
  'created_at',
  'tool_name',
  'tool_status',
  'tool_args_json',
  'token_estimate',
  'model_facing',
  'display',
  'compaction_first_kept_entry_id',
  'compaction_tokens_before',
  'branch_from_entry_id',
] as const;

/** The columns of a `session_messages` row. @internal */
export const MESSAGE_COLUMNS = [
  'id',
  'session_id',
  'entry_id',
  'sender',
  'role',
  'content',
  'provider',
  'model',
  'created_at',
] as const;

type Value = string | number | null;

/** Entries by id (a `Map` or the store's session index). @internal */
interface EntryLookup {
  get(id: string): SessionEntry | undefined;
}

/** Flattened text of a message, for queries and simple transcripts. */
function messageText(message: Message): string {
  if (message.role !== 'assistant') return contentText(message.content);
  return message.content
    .map((part) => {
      if (part.type === 'text') return part.text;
      if (part.type === 'thinking') return '';
      return `[tool call ${part.name} ${JSON.stringify(part.arguments)}]`;
    })
    .filter((text) => text.length > 0)
    .join('\n');
}

/** The role column: a message's role, or the kind of the message an entry stands for. */
function roleOf(entry: SessionEntry, message: Message): string {
  if (entry.type === 'message') return message.role;
  return message.meta?.kind ?? message.role;
}

function senderOf(entry: SessionEntry, message: Message): string {
  if (entry.type === 'custom_message') return entry.customType;
  if (entry.type !== 'message') return 'ctxkit';
  return message.role === 'toolResult' ? 'tool' : message.role;
}

/** The JSON arguments of the call a tool result answers, found up its branch. */
function callArguments(entry: SessionEntry, byId: EntryLookup): string | null {
  if (entry.type !== 'message' || entry.message.role !== 'toolResult') return null;
  const callId = entry.message.toolCallId;
  let current = entry.parentId === null ? undefined : byId.get(entry.parentId);
  for (let depth = 0; current !== undefined && depth < CALL_SEARCH_DEPTH; depth++) {
    if (current.type === 'message' && current.message.role === 'assistant') {
      for (const part of current.message.content) {
        if (part.type === 'toolCall' && part.id === callId) return JSON.stringify(part.arguments);
      }
    }
    current = current.parentId === null ? undefined : byId.get(current.parentId);
  }
  return null;
}

/**
 * The typed columns of an entry's rows: `session_entries` always, `session_messages` when the
 * entry carries a message.
 *
 * @internal
 */
export function entryRows(
  sessionId: string,
  entry: SessionEntry,
  byId: EntryLookup,
): { entry: Value[]; message: Value[] | undefined } {
  const message = entryToMessage(entry);
  const createdAt = new Date(entry.timestamp).toISOString();
  const text = message === undefined ? null : messageText(message);
  const provider =
    entry.type === 'model_change' ? entry.provider : message?.role === 'assistant' ? (message.provider ?? null) : null;
  const model =
    entry.type === 'model_change' ? entry.modelId : message?.role === 'assistant' ? (message.model ?? null) : null;
  const toolResult = message?.role === 'toolResult' && entry.type === 'message' ? message : undefined;
  const row: Record<(typeof ENTRY_COLUMNS)[number], Value> = {
    id: entry.id,
    session_id: sessionId,
    parent_id: entry.parentId,
    entry_type: entry.type,
    role: message === undefined ? null : roleOf(entry, message),
    content: text,
    provider,
    model,
    custom_type: entry.type === 'custom_message' || entry.type === 'custom' ? entry.customType : null,
    data_json: JSON.stringify(entry),
    summary: entry.type === 'compaction' || entry.type === 'branch_summary' ? entry.summary : null,
    created_at: createdAt,
    tool_name: toolResult?.toolName ?? null,
    tool_status: toolResult === undefined ? null : toolResult.isError ? 'error' : 'ok',
    tool_args_json: callArguments(entry, byId),
    token_estimate: message === undefined ? 0 : estimateMessageTokens(message, referenceCounter),
    model_facing: message !== undefined && isAgentVisible(message) ? 1 : 0,
    display: message !== undefined && isUserVisible(message) ? 1 : 0,
    compaction_first_kept_entry_id: entry.type === 'compaction' ? entry.firstKeptEntryId : null,
    compaction_tokens_before: entry.type === 'compaction' ? entry.tokensBefore : null,
    branch_from_entry_id: entry.type === 'branch_summary' ? entry.fromId : null,
  };
  const messageRow =
    message === undefined
      ? undefined
      : [
          entry.id,
          sessionId,
          entry.id,
          senderOf(entry, message),
          roleOf(entry, message),
          text ?? '',
          provider,
          model,
          createdAt,
        ];
  return { entry: ENTRY_COLUMNS.map((column) => row[column]), message: messageRow };
}
