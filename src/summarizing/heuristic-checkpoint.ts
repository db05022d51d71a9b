/**
 * The facts the heuristic summarizer reads out of a conversation, and the checkpoint it writes from
 * them with the same headings as the model prompts. Internal.
 */

import { clipText } from '../pipeline/internal/clip-text.js';
import type { Message, ToolCall, ToolResultMessage } from '../types.js';
import { isModifying, pathsOf } from './anchors/tool-facts.js';
import { argumentsText, contentText } from './serialize-conversation.js';
import type { SummaryKind } from './summarizer-types.js';
import { SUMMARY_SECTIONS } from './summary-prompts.js';
import { findPaths, highlightOutput } from './tool-output-highlights.js';

/** How much detail a rendering keeps; lower levels keep less. @internal */
export interface Detail {
  /** Items kept per list (the first third and the newest rest). */
  items: number;
  /** Code points kept of each item. */
  itemChars: number;
}

/** What the heuristic knows about a conversation. @internal */
export interface ConversationFacts {
  requests: string[];
  constraints: string[];
  commands: string[];
  files: string[];
  errors: string[];
  decisions: string[];
  notes: string[];
  lastAssistant: string | undefined;
  blocked: string | undefined;
  /** Calls (as {@link describeCall} writes them) whose latest run ended ok: they clear earlier Blocked items. */
  passed: string[];
  summaries: string[];
  /** The user's focus instructions, listed first under Critical Context. */
  focus: string | undefined;
}

/** The first line of a heuristic checkpoint. @internal */
export const CHECKPOINT_NOTE = 'Checkpoint written without a model';

/** Code points kept of a remembered request or note; renderings clip further. */
const ITEM_CHARS = 1000;
/** Files remembered at most; a listing of thousands of paths is not a list of files worked on. */
const MAX_FILES = 300;
const INJECTED_KINDS = new Set(['compaction_summary', 'branch_summary', 'tool_summary']);
const CONSTRAINT = /\b(must|should(?:n't)?|don't|do not|never|always|prefer|avoid|without|make sure)\b/i;
const DECISION =
  /\b(decided|decide|instead|i'll use|we'll use|going with|chose|choose|switch(?:ed)? to|root cause|because)\b/i;
const ARGUMENT_KEYS = ['command', 'cmd', 'path', 'file_path', 'filePath', 'file', 'pattern', 'query', 'url', 'name'];
const PLACEHOLDER = /^[-*\s]*\(?(none|none recorded|not stated|unknown)\)?\.?$/i;

/** Text on one line, spaces collapsed. @internal */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A tool call in a few words: the tool and its main argument (`bash npm test`). @internal */
export function describeCall(call: ToolCall): string {
  const args = typeof call.arguments === 'object' && call.arguments !== null ? call.arguments : {};
  for (const key of ARGUMENT_KEYS) {
    const value = (args as Record<string, unknown>)[key];
    if (typeof value === 'string' && value.trim()) return `${call.name} \`${clipText(oneLine(value), 160, 'head')}\``;
  }
  const json = argumentsText(call);
  return json === '{}' ? String(call.name) : `${call.name} ${clipText(oneLine(json), 160, 'head')}`;
}

/** The exit code a tool output reports, if any. @internal */
export function exitCode(text: string): string | undefined {
  return /\bexit(?:ed)?(?:\s+with)?(?:\s+(?:code|status))?\s*[:=]?\s*(-?\d+)\b/i.exec(text)?.[1];
}

/** `ok`, `error` or `failed (exit code N)` for one tool result. @internal */
export function outcome(result: ToolResultMessage | undefined, text: string): string {
  if (result === undefined) return 'no result';
  const code = exitCode(text);
  const status = result.isError ? 'error' : code !== undefined && code !== '0' ? 'failed' : 'ok';
  return code === undefined ? status : `${status} (exit code ${code})`;
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map(oneLine)
    .filter((sentence) => sentence.length > 0);
}

/** Adds a value once, keeping first-mention order. */
function addUnique(list: string[], value: string): void {
  if (value && !list.includes(value)) list.push(value);
}

/**
 * Reads the goal, requests, constraints, commands and their outcomes, files, errors and decisions out
 * of the messages, in order.
 *
 * @internal
 */
export function gatherFacts(messages: readonly Message[]): ConversationFacts {
  const facts: ConversationFacts = {
    requests: [],
    constraints: [],
    commands: [],
    files: [],
    errors: [],
    decisions: [],
    notes: [],
    lastAssistant: undefined,
    blocked: undefined,
    passed: [],
    summaries: [],
    focus: undefined,
  };
  const files = new Map<string, boolean>();
  const addFiles = (text: string, modified = false) => {
    for (const path of findPaths(text)) {
      const bare = path.replace(/:\d+(:\d+)?$/, '');
      if (files.size >= MAX_FILES && !files.has(bare)) return;
      files.set(bare, modified || files.get(bare) === true);
    }
  };
  const calls = new Map<string, ToolCall>();
  const results = new Map<string, ToolResultMessage>();
  for (const message of messages) if (message.role === 'toolResult') results.set(message.toolCallId, message);
  for (const message of messages) {
    if (message.meta?.agentVisible === false) continue;
    if (message.role === 'user') {
      const text = contentText(message.content);
      if (INJECTED_KINDS.has(message.meta?.kind ?? '')) {
        facts.summaries.push(text);
        continue;
      }
      addUnique(facts.requests, clipText(oneLine(text), ITEM_CHARS, 'head'));
      for (const sentence of sentences(text)) if (CONSTRAINT.test(sentence)) addUnique(facts.constraints, sentence);
      addFiles(text);
    } else if (message.role === 'assistant') {
      const text = message.content
        .map((part) => (part.type === 'text' ? part.text : ''))
        .join('\n')
        .trim();
      if (text) {
        if (facts.lastAssistant !== undefined) facts.notes.push(facts.lastAssistant);
        facts.lastAssistant = clipText(oneLine(text), ITEM_CHARS, 'head');
        for (const sentence of sentences(text)) if (DECISION.test(sentence)) addUnique(facts.decisions, sentence);
        addFiles(text);
      }
      if (message.errorMessage) addUnique(facts.errors, `assistant: ${oneLine(message.errorMessage)}`);
      for (const part of message.content) {
        if (part.type !== 'toolCall') continue;
        const result = results.get(part.id);
        const output = result ? contentText(result.content) : '';
        const ended = outcome(result, output);
        calls.set(part.id, part);
        facts.commands.push(`${describeCall(part)} → ${ended}`);
        addFiles(argumentsText(part));
        // Only the paths an edit names, and only when it succeeded, are files it changed.
        if (isModifying(part) && ended.startsWith('ok'))
          for (const path of pathsOf(part)) files.set(path.replace(/^\.\//, ''), true);
      }
    } else {
      const output = contentText(message.content);
      const { topError, topRank, excerpt } = highlightOutput(output, { lines: 6, head: 0, tail: 0, lineChars: 240 });
      // A failed call blocks until a later call succeeds; an error line in a successful output (a
      // source file that throws, a log) is only worth noting when it states an error outright.
      const failed = !outcome(message, output).startsWith('ok');
      const call = calls.get(message.toolCallId);
      const what = call ? describeCall(call) : String(message.toolName);
      const line = `${what}: ${topError ?? excerpt.find((entry) => entry !== '…') ?? 'failed'}`;
      if (failed || topRank >= 6) addUnique(facts.errors, line);
      facts.blocked = failed ? line : undefined;
      if (!failed) addUnique(facts.passed, what);
      addFiles(excerpt.join('\n'));
    }
  }
  facts.files = fileList(files);
  return facts;
}

/** Files in order of first mention, `(modified)` where a tool changed them; a bare name is dropped when a path ends with it. */
function fileList(files: ReadonlyMap<string, boolean>): string[] {
  const paths = [...files.keys()];
  return paths
    .filter((path) => !paths.some((other) => other !== path && other.endsWith(`/${path}`)))
    .map((path) => (files.get(path) ? `${path} (modified)` : path));
}

/** Splits an earlier checkpoint into its sections by title (lower-cased); other lines go under `''`. */
function parseSections(summary: string): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let current = '';
  for (const line of summary.split(/\r?\n/)) {
    const heading = /^#{1,4}\s+(.+?)\s*$/.exec(line);
    if (heading) {
      current = heading[1]!.toLowerCase();
      continue;
    }
    if (!line.trim() || PLACEHOLDER.test(line) || line.startsWith(CHECKPOINT_NOTE)) continue;
    sections.set(current, [...(sections.get(current) ?? []), line.trimEnd()]);
  }
  return sections;
}

/** Keeps the first third and the newest rest of a list, noting how many were left out. */
function pick(items: readonly string[], detail: Detail): string[] {
  const clipped = items.map((item) => clipText(item, detail.itemChars, 'head'));
  if (clipped.length <= detail.items) return clipped;
  // The oldest item (the first goal) is kept at every detail level, then the newest.
  const first = Math.max(detail.items > 1 ? 1 : 0, Math.floor(detail.items / 3));
  const last = detail.items - first;
  const skipped = clipped.length - detail.items;
  const tail = clipped.slice(clipped.length - last);
  const indent = /^\s*/.exec(tail[0] ?? '')?.[0] ?? '';
  return [...clipped.slice(0, first), `${indent}- … ${skipped} more`, ...tail];
}

type Sections = Record<string, string[]>;

function sectionsFor(kind: SummaryKind, facts: ConversationFacts): Sections {
  const list = (values: readonly string[]) => values.map((value) => `- ${value}`);
  const requests = facts.requests.length > 1 ? list(facts.requests.slice(1)).map((line) => `  ${line}`) : [];
  const goal = facts.requests[0] === undefined ? [] : [`- ${facts.requests[0]}`, ...requests];
  const last = facts.lastAssistant === undefined ? [] : [`- ${oneLine(facts.lastAssistant)}`];
  const focus = facts.focus?.trim() ? [`- Focus requested: ${oneLine(facts.focus)}`] : [];
  const critical = [
    ...focus,
    ...list(facts.errors),
    ...facts.summaries.map((text) => `- Earlier summary: ${oneLine(text)}`),
  ];
  if (kind === 'branch') {
    return {
      Goal: goal,
      'What Was Tried': list(facts.commands),
      'What Was Learned': [...list(facts.decisions), ...last],
      'Why It Was Left': [
        `- Not stated; the branch ended with: ${oneLine(facts.lastAssistant ?? facts.requests.at(-1) ?? 'nothing')}`,
      ],
      'Files & Commands': list(facts.files),
      'Critical Context': critical,
    };
  }
  const latest = facts.requests.at(-1);
  return {
    Goal: goal,
    'Constraints & Preferences': list(facts.constraints),
    Done: list(facts.notes),
    'In Progress': last.map((line) => line.replace(/^- /, '- [ ] ')),
    Blocked: facts.blocked === undefined ? [] : [`- ${facts.blocked}`],
    'Key Decisions': list(facts.decisions),
    'Files & Commands': [...list(facts.files), ...list(facts.commands)],
    'Next Steps': [
      ...(facts.blocked === undefined ? [] : [`1. Resolve: ${facts.blocked}`]),
      ...(latest === undefined
        ? []
        : [`${facts.blocked === undefined ? 1 : 2}. Continue the latest request: ${latest}`]),
    ],
    'Critical Context': critical,
  };
}

const STEP = /^\s*\d+\.\s+/;
const CONTINUE_STEP = /^\s*\d+\.\s+Continue the latest request:/;

/**
 * The earlier checkpoint's lines of a section that still hold: a Blocked item or a `Resolve:` step
 * is dropped once the call it names has passed; a `Continue the latest request` step is dropped when
 * a newer one is written; a step already written afresh is not repeated.
 */
function carriedLines(
  carried: ReadonlyMap<string, string[]>,
  title: string,
  fresh: Sections,
  facts: ConversationFacts,
): string[] {
  const lines = carried.get(title.toLowerCase()) ?? [];
  if (title !== 'Blocked' && title !== 'Next Steps') return lines;
  const cleared = (line: string) => facts.passed.some((call) => line.includes(`${call}:`));
  const freshSteps = new Set((fresh[title] ?? []).map((line) => line.replace(STEP, '')));
  const freshContinue = (fresh[title] ?? []).some((line) => CONTINUE_STEP.test(line));
  return lines.filter(
    (line) =>
      !cleared(line) &&
      !(
        title === 'Next Steps' &&
        (freshSteps.has(line.replace(STEP, '')) || (freshContinue && CONTINUE_STEP.test(line)))
      ),
  );
}

/** Numbers the steps 1, 2, 3… in place. */
function renumber(lines: string[]): void {
  let step = 0;
  for (let index = 0; index < lines.length; index++)
    if (STEP.test(lines[index]!)) lines[index] = `${++step}. ${lines[index]!.replace(STEP, '')}`;
}

/**
 * Writes the checkpoint: each section's lines carried over from the earlier summary first, then the new
 * ones, at the given detail.
 *
 * @internal
 */
export function renderCheckpoint(
  kind: SummaryKind,
  facts: ConversationFacts,
  options: { previousSummary: string | undefined; messageCount: number; detail: Detail },
): string {
  const fresh = sectionsFor(kind, facts);
  const carried = parseSections(options.previousSummary ?? '');
  const titles = kind === 'branch' ? SUMMARY_SECTIONS.branch : SUMMARY_SECTIONS.compaction;
  const known = new Set<string>([...titles, ...SUMMARY_SECTIONS.progress].map((title) => title.toLowerCase()));
  const unplaced = [...carried].filter(([title]) => !known.has(title)).flatMap(([, lines]) => lines);
  const body = (title: string) => {
    const extra = title === 'Critical Context' ? unplaced : [];
    const lines: string[] = [];
    for (const line of [...carriedLines(carried, title, fresh, facts), ...extra, ...(fresh[title] ?? [])])
      addUnique(lines, line);
    if (title === 'Next Steps') renumber(lines);
    return lines.length === 0 ? ['- (none recorded)'] : pick(lines, options.detail);
  };
  const out = [`${CHECKPOINT_NOTE} from ${options.messageCount} messages.`];
  for (const title of titles) {
    out.push('', `## ${title}`);
    if (title === 'Progress') for (const part of SUMMARY_SECTIONS.progress) out.push(`### ${part}`, ...body(part));
    else out.push(...body(title));
  }
  return out.join('\n');
}
