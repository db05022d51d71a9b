import { oneLine } from '../../internal/one-line.js';
import { pairToolResults } from '../../internal/tool-pairing.js';
import { ctxkitMessageKind } from '../../messages/ctxkit-message-kind.js';
import { summaryText } from '../../messages/summary-text.js';
import type { Message, ToolCall } from '../../types.js';
import { assertMessages } from '../../validation/assert-messages.js';
import * as v from '../../validation/light-schema.js';
import { parseOptions } from '../../validation/parse-options.js';
import { contentText } from '../serialize-conversation.js';
import { type Anchor, anchorSchema } from './anchor.js';
import { AnchorList } from './anchor-list.js';
import { parsePinnedAnchors } from './pinned-section.js';
import { boundRecallAnchors, recallAnchor } from './recall-anchors.js';
import { type CommandState, toolResultAnchors } from './tool-result-anchors.js';
import {
  clipWords,
  identifiersIn,
  isAside,
  isConstraint,
  isDecision,
  isDoneWith,
  isOpenItem,
  KEY_CHARS,
  sentencesOf,
  TEXT_CHARS,
} from './user-words.js';

/**
 * Options of {@link extractAnchors}.
 *
 * @example
 * ```ts
 * const anchors = extractAnchors(newMessages, { previous: earlier.anchors });
 * ```
 */
export interface ExtractAnchorsOptions {
  /** Anchors carried from an earlier checkpoint; they come first and keep their `required` flag. */
  previous?: readonly Anchor[];
}

const STILL_FAILING = 'still failing: ';

/** Anchors an earlier checkpoint carries: on its message (`meta.anchors`), else its pinned lines. */
function carriedAnchors(message: Message, text: string): Anchor[] {
  const carried = (message.meta as { anchors?: unknown } | undefined)?.anchors;
  if (Array.isArray(carried)) {
    const valid = carried.flatMap((value) => {
      const parsed = anchorSchema.safeParse(value);
      return parsed.success ? [parsed.data] : [];
    });
    if (valid.length > 0) return valid;
  }
  return parsePinnedAnchors(text);
}

/** The user's goal, constraints, identifiers and numbers, in their own words. */
function userAnchors(text: string, isFirstGoal: boolean, list: AnchorList): boolean {
  const line = oneLine(text);
  if (!line) return false;
  // An aside (a question by the way) is not a goal; the identifiers in it still count.
  const aside = isAside(line);
  if (!aside)
    list.add({
      category: 'goal',
      text: clipWords(line, TEXT_CHARS),
      keys: [clipWords(line, TEXT_CHARS)],
      ...(isFirstGoal ? { required: true } : {}),
    });
  for (const sentence of sentencesOf(text)) {
    if (!isConstraint(sentence)) continue;
    list.add({
      category: 'constraint',
      text: clipWords(sentence, TEXT_CHARS),
      keys: [clipWords(sentence, TEXT_CHARS)],
      required: true,
    });
  }
  for (const identifier of identifiersIn(text))
    list.add({ category: 'identifier', text: identifier, keys: [identifier] });
  return !aside;
}

/** Decisions and open items in the assistant's text; an item it reports done leaves. */
function assistantAnchors(text: string, list: AnchorList): void {
  for (const sentence of sentencesOf(text)) {
    list.deleteWhere((anchor) => anchor.category === 'open-item' && isDoneWith(sentence, anchor.text));
    const category = isDecision(sentence) ? 'decision' : isOpenItem(sentence) ? 'open-item' : undefined;
    if (category) list.add({ category, text: clipWords(sentence, TEXT_CHARS), keys: [clipWords(sentence, KEY_CHARS)] });
  }
}

const extractAnchorsOptionsSchema = /* @__PURE__ */ (() =>
  v.object(
    {
      previous: v
        .array(anchorSchema, { error: 'must be an array of anchors, as extractAnchors returns them' })
        .optional(),
    },
    { error: 'must be an object: { previous? }' },
  ))();

/**
 * Reads, deterministically and without I/O, the facts a checkpoint of these messages must keep: the
 * user's goal (the first request, `required`) and later requests, their constraints (`required`), the
 * identifiers and numbers they gave, files read and files changed (changed only when a write or edit
 * call succeeded: its result is there and not `isError`), commands with how they ended, errors with
 * their code and location, failing tests, the assistant's decisions and open items, and a
 * `still failing` item for a command whose latest run failed, and the recall id of each archived or
 * spilled tool result (`recall`, the newest 64), so the model can read it back after a compaction. Earlier checkpoints' anchors are carried
 * (from `options.previous`, a summary message's `meta.anchors`, or its pinned section).
 *
 * @param messages - The messages a checkpoint will replace (archived tool results included); not mutated.
 * @param options - Anchors carried from an earlier checkpoint.
 * @returns The anchors, earlier ones first, then in order of first mention.
 *
 * @example
 * ```ts
 * const anchors = extractAnchors(messages);
 * const { lost } = checkAnchors(summary, anchors);
 * ```
 */
export function extractAnchors(messages: readonly Message[], options: ExtractAnchorsOptions = {}): Anchor[] {
  assertMessages(messages, 'extractAnchors');
  const { previous } = parseOptions('extractAnchors', extractAnchorsOptionsSchema, options ?? {});
  const list = new AnchorList();
  for (const anchor of previous ?? []) list.add({ ...anchor, keys: [...anchor.keys] });
  const calls = new Map<number, ToolCall>();
  for (const [index, site] of pairToolResults(messages)) {
    const owner = messages[site.message];
    const part = owner?.role === 'assistant' ? owner.content[site.part] : undefined;
    if (part?.type === 'toolCall') calls.set(index, part);
  }
  const files = new Map<string, boolean>();
  const commands = new Map<string, CommandState>();
  let goalSeen = (previous ?? []).some((anchor) => anchor.category === 'goal' && anchor.required);
  messages.forEach((message, index) => {
    const own = ctxkitMessageKind(message);
    // Archived tool results are history the checkpoint must still account for; other hidden
    // messages and ctxkit's own digests are not facts of the conversation.
    if (message.meta?.agentVisible === false && own !== 'archived_result') return;
    if (own !== undefined && own !== 'archived_result' && own !== 'compaction_summary') return;
    if (message.role === 'user') {
      const text = contentText(message.content);
      const summary = summaryText(message);
      if (summary !== undefined) {
        const carried = carriedAnchors(message, summary);
        for (const anchor of carried) list.add(anchor);
        if (carried.some((anchor) => anchor.category === 'goal' && anchor.required)) goalSeen = true;
        return;
      }
      if (userAnchors(text, !goalSeen, list)) goalSeen = true;
    } else if (message.role === 'assistant') {
      const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
      assistantAnchors(text, list);
      if (message.errorMessage) {
        const said = oneLine(message.errorMessage);
        list.add({ category: 'error', text: clipWords(said, TEXT_CHARS), keys: [clipWords(said, 60)] });
      }
    } else {
      toolResultAnchors(message, calls.get(index), { list, files, commands });
      const recall = recallAnchor(message, calls.get(index), own === 'archived_result');
      if (recall) list.add(recall);
    }
  });
  for (const [path, changed] of files) {
    const read: Anchor = { category: 'file-read', text: path, keys: [path] };
    const written: Anchor = { category: 'file-changed', text: path, keys: [path] };
    // An edit that succeeded makes the file changed for good (not only while git reports it).
    if (changed) {
      list.delete(read);
      list.replace(written);
    } else if (!list.has(written)) list.add(read);
  }
  for (const [key, command] of commands) {
    // The latest run is the command's state: an earlier checkpoint's anchor of it (another exit
    // status, other counts) goes.
    list.deleteWhere((anchor) => anchor.category === 'command' && anchor.keys[0] === key);
    list.add({ category: 'command', text: command.text, keys: command.keys });
    const open: Anchor = { category: 'open-item', text: `${STILL_FAILING}\`${key}\``, keys: [key] };
    if (command.ok) list.delete(open);
    else list.add(open);
  }
  boundRecallAnchors(list);
  return list.values();
}
