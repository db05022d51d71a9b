import { SessionError } from '../errors.js';
import { createSummaryMessage } from '../messages/create-summary-message.js';
import { nativeSummaryMessage, withoutCompactionParts } from '../pipeline/resolve-native-compactions.js';
import type { CompactionEntry, SessionEntry } from '../session-entry.js';
import { storedAnchors } from '../summarizing/anchors/carried-anchors.js';
import type { Message } from '../types.js';
import { checkOptionsObject } from './check-entries.js';
import { backToCall } from './context-branch.js';
import { entryToMessage } from './entry-to-message.js';
import { keepToolPairs } from './keep-tool-pairs.js';
import { type SessionEntries, walkCheckedBranch } from './walk-branch.js';

/**
 * Which messages of the branch reach the model:
 * - `'default'` — user, assistant and tool-result messages, custom messages and summaries (the
 *   reference behaviour: hidden messages stay in the list for `prepareModelMessages` to handle);
 * - `'user-assistant'` — the stricter filter of the durable-session seed: user and assistant
 *   messages plus compaction and branch summaries; tool results and custom messages are dropped,
 *   and so are the tool calls they answered;
 * - a function — your own rule, given each message and the entry it came from.
 *
 * `'default'` gives the path's messages as they are (a turn interrupted in the middle of the branch
 * keeps its unanswered call; `prepareModelMessages` gives it an error result when it is sent). The
 * other filters keep calls and results paired: a result belongs to the nearest earlier unanswered call with
 * its id; a call whose results were all filtered out, or that has none, is removed from its
 * assistant message (an assistant message left empty is dropped), except the calls of a pending
 * turn at the end under a custom filter; a result whose call was filtered out is dropped too. A
 * compaction whose first kept entry is a tool result keeps from the call it answers.
 *
 * @example
 * ```ts
 * const noCustom: ModelFacingFilter = (message, entry) => entry.type !== 'custom_message';
 * ```
 */
export type ModelFacingFilter = 'default' | 'user-assistant' | ((message: Message, entry: SessionEntry) => boolean);

/**
 * Options of {@link buildContextFromBranch}.
 *
 * @example
 * ```ts
 * const options: BuildContextFromBranchOptions = { leafId: await store.getLeaf(sessionId), modelFacing: 'default' };
 * ```
 */
export interface BuildContextFromBranchOptions {
  /** The leaf to build from; `null` gives an empty context. @default the newest entry */
  leafId?: string | null;
  /** Which messages reach the model. @default 'default' */
  modelFacing?: ModelFacingFilter;
}

/**
 * The context a branch projects to.
 *
 * @example
 * ```ts
 * const { messages, entryIds, model } = buildContextFromBranch(entries);
 * ```
 */
export interface SessionContext {
  /** What the model sees from this branch, in order. */
  messages: Message[];
  /** For each message, the id of the entry it came from (parallel to `messages`). */
  entryIds: string[];
  /** The model of the latest model change on the path. */
  model: string | undefined;
  /** The provider of the latest model change on the path. */
  provider: string | undefined;
  /** The latest thinking level on the path. */
  thinkingLevel: string | undefined;
  /**
   * Every entry from the root to the leaf; built from a context branch (`store.getBranch(id,
   * leafId, { from: 'context' })`), the entries of that context branch.
   */
  path: SessionEntry[];
  /** The leaf the context was built from. */
  leafId: string | null;
  /** The latest compaction on the path, if any. */
  compaction: CompactionEntry | undefined;
}

const USER_ASSISTANT_KINDS = new Set(['compaction', 'branch_summary']);

function keepUserAssistant(message: Message, entry: SessionEntry): boolean {
  if (entry.type === 'message') return message.role !== 'toolResult';
  return USER_ASSISTANT_KINDS.has(entry.type);
}

/** Path entries that contribute messages: the latest compaction, its kept entries, what follows. */
const summaries = new WeakMap<CompactionEntry, Message>();

/**
 * The summary message of a compaction, memoized per entry (its kept count is fixed by its
 * ancestors). A native compaction's carries its payload in `meta.native`, for the maker to get.
 */
function summaryOf(compaction: CompactionEntry, keptMessages: number): Message {
  let message = summaries.get(compaction);
  if (message === undefined) {
    const anchors = storedAnchors(compaction.details);
    const { native } = compaction;
    if (native === undefined) {
      message = createSummaryMessage(compaction.summary, { keptMessages, anchors });
    } else {
      const summarized = compaction.summary === '' ? native : { ...native, summary: compaction.summary };
      const made = nativeSummaryMessage(summarized, anchors ? { anchors } : {});
      message = keptMessages > 0 ? { ...made, meta: { ...made.meta, keptMessages } } : made;
    }
    summaries.set(compaction, message);
  }
  return message;
}

/**
 * The message of an entry the latest compaction kept: without the compaction blocks or items it
 * carried, which the compaction took over (memoized per entry, so token counts stay cached).
 */
const keptCopies = new WeakMap<SessionEntry, Message | null>();
function keptMessageOf(entry: SessionEntry): Message | undefined {
  const message = entryToMessage(entry);
  if (message === undefined || message.role !== 'assistant') return message;
  let kept = keptCopies.get(entry);
  if (kept === undefined) {
    kept = withoutCompactionParts(message) ?? null;
    keptCopies.set(entry, kept);
  }
  return kept ?? undefined;
}

function contributing(path: readonly SessionEntry[]): {
  entries: SessionEntry[];
  compaction: CompactionEntry | undefined;
  keptMessages: number;
  kept: ReadonlySet<SessionEntry>;
} {
  let latest = -1;
  for (let index = path.length - 1; index >= 0 && latest < 0; index--)
    if (path[index]!.type === 'compaction') latest = index;
  if (latest < 0) return { entries: [...path], compaction: undefined, keptMessages: 0, kept: new Set() };
  const compaction = path[latest] as CompactionEntry;
  let first = -1;
  for (let index = 0; index <= latest && first < 0; index++)
    if (path[index]!.id === compaction.firstKeptEntryId) first = index;
  if (first < 0) {
    throw new SessionError({
      message: `Compaction "${compaction.id}" keeps the context from entry "${compaction.firstKeptEntryId}", which is not on its branch before it. The compaction entry is corrupt; move the leaf to an entry before it.`,
      code: 'ENTRY_NOT_FOUND',
    });
  }
  // A cut that lands on a tool result (a hand-made entry) moves back to the call it answers.
  first = backToCall(path, first);
  const entries: SessionEntry[] = [compaction];
  const kept = new Set<SessionEntry>();
  let keptMessages = 0;
  for (let index = first; index < path.length; index++) {
    const entry = path[index]!;
    if (entry.type === 'compaction') continue;
    entries.push(entry);
    if (index < latest) {
      kept.add(entry);
      if (keptMessageOf(entry) !== undefined) keptMessages++;
    }
  }
  return { entries, compaction, keptMessages, kept };
}

/**
 * Projects one branch of a session tree to the context a model sees. It walks the leaf back to the
 * root, then applies the path in order: messages append; custom messages and branch summaries
 * become user messages of their own kinds; the latest compaction contributes its summary (a user
 * message `[Previous conversation summary]`, kind `compaction_summary`) followed by the path
 * entries from its `firstKeptEntryId` up to it, then everything after it; model and thinking
 * changes set the metadata; labels, session info and custom entries never reach the model.
 *
 * Messages of message entries are the entries' own message objects, and derived messages are
 * memoized per entry, so repeated calls return identical objects and token counts stay cached.
 *
 * `entries` may also be a context branch (`store.getBranch(sessionId, leafId, { from: 'context' })`):
 * only the part of the path the context is built from, which gives the same messages, entry ids
 * and metadata as the whole path at a fraction of the read. An array whose walk stops at a missing
 * parent is accepted as one only when the walk has passed the latest compaction's kept range and
 * every entry ahead of where it stopped is a `model_change` or `thinking_level_change`; otherwise
 * the missing parent is an error as before.
 *
 * @param entries - The session's entries, as an array (append order) or a map by id; not mutated.
 * @param options - The leaf and the model-facing filter.
 * @returns The messages with their entry ids, the model metadata and the path.
 * @throws `SessionError` with `ENTRY_NOT_FOUND` (unknown leaf, or a compaction keeping from an
 * entry not on its branch), `PARENT_MISSING` or `TREE_CYCLE`; with `INPUT_INVALID` when `entries`
 * is not an array or Map, an entry on the path is not a valid entry (naming it and the field), or
 * an option has the wrong type.
 *
 * @example
 * ```ts
 * const context = buildContextFromBranch(await store.getEntries(sessionId), { leafId: await store.getLeaf(sessionId) });
 * const request = prepareModelMessages(context.messages);
 * ```
 */
export function buildContextFromBranch(
  entries: SessionEntries,
  options: BuildContextFromBranchOptions = {},
): SessionContext {
  checkOptionsObject('buildContextFromBranch', options);
  const path = walkCheckedBranch(
    'buildContextFromBranch',
    entries,
    options?.leafId === undefined ? {} : { leafId: options.leafId },
    true,
  );
  let model: string | undefined;
  let provider: string | undefined;
  let thinkingLevel: string | undefined;
  for (const entry of path) {
    if (entry.type === 'model_change') {
      model = entry.modelId;
      provider = entry.provider;
    } else if (entry.type === 'thinking_level_change') {
      thinkingLevel = entry.thinkingLevel;
    }
  }
  const { entries: sources, compaction, keptMessages, kept: keptEntries } = contributing(path);
  const candidates: Message[] = [];
  const candidateEntries: SessionEntry[] = [];
  for (const entry of sources) {
    const message =
      entry === compaction
        ? summaryOf(compaction, keptMessages)
        : keptEntries.has(entry)
          ? keptMessageOf(entry)
          : entryToMessage(entry);
    if (message === undefined) continue;
    candidates.push(message);
    candidateEntries.push(entry);
  }
  const filter = options?.modelFacing ?? 'default';
  if (filter !== 'default' && filter !== 'user-assistant' && typeof filter !== 'function') {
    throw new SessionError({
      message: `buildContextFromBranch: options.modelFacing must be 'default', 'user-assistant' or a function (message, entry) => boolean.`,
      code: 'INPUT_INVALID',
    });
  }
  let messages = candidates;
  let kept = candidateEntries;
  if (filter !== 'default') {
    // A filter pairs every call it keeps with its results; 'user-assistant' sends no tool traffic
    // at all, not even the calls of a pending turn.
    const test = filter === 'user-assistant' ? keepUserAssistant : filter;
    const keep = candidates.map((message, index) => test(message, candidateEntries[index]!));
    const paired = keepToolPairs(candidates, keep, { pending: filter !== 'user-assistant' });
    messages = paired.filter((_, index) => keep[index]);
    kept = candidateEntries.filter((_, index) => keep[index]);
  }
  return {
    messages,
    entryIds: kept.map((entry) => entry.id),
    model,
    provider,
    thinkingLevel,
    path,
    leafId: path.length === 0 ? null : path[path.length - 1]!.id,
    compaction,
  };
}
