import { z } from 'zod';
import { ctxkitMessageKind } from '../../messages/ctxkit-message-kind.js';
import { summaryText } from '../../messages/summary-text.js';
import { assertMessages } from '../../pipeline/internal/assert-messages.js';
import { pairToolResults } from '../../pipeline/internal/tool-pairing.js';
import type { Message, ToolCall, ToolResultMessage } from '../../types.js';
import { parseOptions } from '../../validation/parse-options.js';
import { contentText } from '../serialize-conversation.js';
import { parseToolOutput } from '../tool-output/parse-tool-output.js';
import type { ToolOutputFormat } from '../tool-output/parsed-tool-output.js';
import { type Anchor, anchorIdentity, anchorSchema } from './anchor.js';
import { parsePinnedAnchors } from './pinned-section.js';
import { commandOf, isModifying, outcomeOf, pathsOf } from './tool-facts.js';
import {
  clipWords,
  identifiersIn,
  isConstraint,
  isDecision,
  isOpenItem,
  KEY_CHARS,
  oneLine,
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

/** Outputs whose diagnostics are facts even when the command exited 0 (a linter's warnings are not). */
const DIAGNOSTIC_FORMATS = new Set<ToolOutputFormat>([
  'tsc',
  'eslint',
  'biome',
  'node-test',
  'vitest',
  'jest',
  'pytest',
  'go-test',
  'cargo',
  'npm',
  'pip',
]);
const LINTERS = new Set<ToolOutputFormat>(['eslint', 'biome', 'cargo']);
const STILL_FAILING = 'still failing: ';
const ERRORS_PER_RESULT = 40;

/** Collects anchors once each, in first-mention order; a later mention of a file or command updates it. */
class AnchorList {
  private readonly byIdentity = new Map<string, Anchor>();
  add(anchor: Anchor): void {
    const identity = anchorIdentity(anchor);
    const known = this.byIdentity.get(identity);
    if (!known) this.byIdentity.set(identity, anchor);
    else if (anchor.required) known.required = true;
  }
  replace(anchor: Anchor): void {
    this.byIdentity.set(anchorIdentity(anchor), anchor);
  }
  has(anchor: Anchor): boolean {
    return this.byIdentity.has(anchorIdentity(anchor));
  }
  delete(anchor: Anchor): void {
    this.byIdentity.delete(anchorIdentity(anchor));
  }
  values(): Anchor[] {
    return [...this.byIdentity.values()];
  }
}

function leafName(test: string): string {
  const parts = test.split(/ > | › |::/);
  const leaf = parts[parts.length - 1]!.trim();
  return leaf.length >= 6 ? leaf : test;
}

function bare(path: string): string {
  return path.replace(/^\.\//, '');
}

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
function userAnchors(text: string, isFirstGoal: boolean, list: AnchorList): void {
  const line = oneLine(text);
  if (!line) return;
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
}

/** Decisions and open items in the assistant's text. */
function assistantAnchors(text: string, list: AnchorList): void {
  for (const sentence of sentencesOf(text)) {
    const category = isDecision(sentence) ? 'decision' : isOpenItem(sentence) ? 'open-item' : undefined;
    if (category) list.add({ category, text: clipWords(sentence, TEXT_CHARS), keys: [clipWords(sentence, KEY_CHARS)] });
  }
}

/** The errors and failing tests of one tool result. */
function resultAnchors(output: string, command: string | undefined, failed: boolean, list: AnchorList): void {
  const parsed = parseToolOutput(output, command === undefined ? {} : { command });
  if (!failed && !DIAGNOSTIC_FORMATS.has(parsed.format)) return;
  let added = 0;
  for (const problem of parsed.problems) {
    if (added >= ERRORS_PER_RESULT) break;
    if (problem.severity === 'failure') {
      const test = problem.test ?? problem.message;
      if (!test) continue;
      const where = problem.location ? ` (${problem.location})` : '';
      const why = problem.message ? ` — ${clipWords(problem.message, 100)}` : '';
      list.add({ category: 'failing-test', text: `✗ ${test}${where}${why}`, keys: [leafName(test)] });
      added++;
      continue;
    }
    // Warnings count where they are the tool's verdict (a linter's), not beside errors of a failed build.
    if (problem.severity === 'warning' && (failed || !LINTERS.has(parsed.format))) continue;
    const keys = [problem.code, problem.location].filter((key): key is string => Boolean(key));
    if (keys.length === 0 && problem.message) keys.push(clipWords(problem.message, 100));
    if (keys.length === 0) continue;
    const head = [problem.location, problem.code].filter(Boolean).join(' ');
    const message = problem.message ? clipWords(problem.message, 120) : '';
    list.add({ category: 'error', text: head && message ? `${head}: ${message}` : head || message, keys });
    added++;
  }
}

const extractAnchorsOptionsSchema = z.object(
  {
    previous: z
      .array(anchorSchema, { error: 'must be an array of anchors, as extractAnchors returns them' })
      .optional(),
  },
  { error: 'must be an object: { previous? }' },
);

/**
 * Reads, deterministically and without I/O, the facts a checkpoint of these messages must keep: the
 * user's goal (the first request, `required`) and later requests, their constraints (`required`), the
 * identifiers and numbers they gave, files read and files changed (changed only when a write or edit
 * call succeeded: its result is there and not `isError`), commands with how they ended, errors with
 * their code and location, failing tests, the assistant's decisions and open items, and a
 * `still failing` item for a command whose latest run failed. Earlier checkpoints' anchors are carried
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
  const commands = new Map<string, { text: string; ok: boolean }>();
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
      userAnchors(text, !goalSeen, list);
      goalSeen = true;
    } else if (message.role === 'assistant') {
      const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
      assistantAnchors(text, list);
      if (message.errorMessage) {
        const said = oneLine(message.errorMessage);
        list.add({ category: 'error', text: clipWords(said, TEXT_CHARS), keys: [clipWords(said, 60)] });
      }
    } else {
      toolResultAnchors(message, calls.get(index), { list, files, commands });
    }
  });
  for (const [path, changed] of files) {
    const read: Anchor = { category: 'file-read', text: path, keys: [path] };
    const written: Anchor = { category: 'file-changed', text: path, keys: [path] };
    if (changed) list.delete(read);
    if (changed || !list.has(written)) list.add(changed ? written : read);
  }
  for (const [key, command] of commands) {
    list.replace({ category: 'command', text: command.text, keys: [key] });
    const open: Anchor = { category: 'open-item', text: `${STILL_FAILING}\`${key}\``, keys: [key] };
    if (command.ok) list.delete(open);
    else list.add(open);
  }
  return list.values();
}

function toolResultAnchors(
  message: ToolResultMessage,
  call: ToolCall | undefined,
  state: { list: AnchorList; files: Map<string, boolean>; commands: Map<string, { text: string; ok: boolean }> },
): void {
  const output = contentText(message.content);
  const outcome = outcomeOf(message, output);
  const command = call ? commandOf(call) : undefined;
  if (call) {
    const changed = isModifying(call) && outcome.ok;
    for (const path of pathsOf(call).map(bare)) state.files.set(path, changed || state.files.get(path) === true);
  }
  if (command !== undefined) {
    const key = clipWords(oneLine(command), KEY_CHARS);
    state.commands.delete(key);
    state.commands.set(key, { text: `\`${clipWords(oneLine(command), 160)}\` → ${outcome.label}`, ok: outcome.ok });
  }
  resultAnchors(output, command, !outcome.ok, state.list);
}
