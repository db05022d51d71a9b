// The facts the heuristic summarizer reads out of a conversation. Internal.
import { clipText } from '../../internal/clip-text.js';
import { oneLine } from '../../internal/one-line.js';
import type { Message, ToolCall, ToolResultMessage } from '../../types.js';
import { commandOf, isModifying, pathsOf } from '../anchors/tool-facts.js';
import { CJK_CONSTRAINT, isAside, isOpenItem, sentencesOf as sentences } from '../anchors/user-words.js';
import { argumentsText, contentText } from '../serialize-conversation.js';
import { parseToolOutput } from '../tool-output/parse-tool-output.js';
import { findPaths, highlightOutput } from '../tool-output-highlights.js';
import { clipItem } from './clip-item.js';
import { describeCall, outcome } from './describe-call.js';

/** What the heuristic knows about a conversation. @internal */
export interface ConversationFacts {
  requests: string[];
  /** The user's asides (questions by the way): not requests to continue. */
  asides: string[];
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

/** Code points kept of a remembered request or note; renderings clip further. */
const ITEM_CHARS = 1000;
/** Files remembered at most; a listing of thousands of paths is not a list of files worked on. */
const MAX_FILES = 300;
const INJECTED_KINDS = new Set(['compaction_summary', 'branch_summary', 'tool_summary']);
const CONSTRAINT = /\b(must|should(?:n't)?|don't|do not|never|always|prefer|avoid|without|make sure)\b/i;
const DECISION =
  /\b(decided|decide|instead|i'll use|we'll use|going with|chose|choose|switch(?:ed)? to|root cause|because)\b/i;

/**
 * Adds a value once, keeping first-mention order.
 *
 * @internal
 */
export function addUnique(list: string[], value: string): void {
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
    asides: [],
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
  let failedSinceLast = false;
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
      // An aside is not a request: it is neither the goal nor the request to continue.
      if (isAside(text) && facts.requests.length > 0)
        addUnique(facts.asides, clipText(oneLine(text), ITEM_CHARS, 'head'));
      else addUnique(facts.requests, clipText(oneLine(text), ITEM_CHARS, 'head'));
      for (const sentence of sentences(text))
        if (CONSTRAINT.test(sentence) || CJK_CONSTRAINT.test(sentence)) addUnique(facts.constraints, sentence);
      addFiles(text);
    } else if (message.role === 'assistant') {
      const text = message.content
        .map((part) => (part.type === 'text' ? part.text : ''))
        .join('\n')
        .trim();
      if (text) {
        // What the assistant said is Done only when no call after it failed (a failed edit it
        // announced was not done).
        if (facts.lastAssistant !== undefined && !failedSinceLast) {
          // Nor is what it left open (a TODO): an item still open is pinned by its anchor.
          const done = sentences(facts.lastAssistant).filter((sentence) => !isOpenItem(sentence));
          if (done.length > 0) facts.notes.push(done.join(' '));
        }
        failedSinceLast = false;
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
        // A call without its result here had it archived (a compaction sees visible messages
        // only): its outcome is not known, so none is stated.
        facts.commands.push(result ? `${describeCall(part)} → ${ended}` : describeCall(part));
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
      const said = problemsLine(output, call) ?? topError ?? excerpt.find((entry) => entry !== '…') ?? 'failed';
      const line = `${what}: ${said}`;
      // A run states its call's problems afresh: what an earlier run of the same call reported is
      // replaced, and a clean run clears it.
      removeWhere(facts.errors, (error) => error.startsWith(`${what}: `));
      if (failed || topRank >= 6) addUnique(facts.errors, line);
      if (failed) {
        failedSinceLast = true;
        removeWhere(facts.passed, (call) => call === what);
      }
      facts.blocked = failed ? line : undefined;
      if (!failed) addUnique(facts.passed, what);
      addFiles(excerpt.join('\n'));
    }
  }
  facts.files = fileList(files);
  return facts;
}

/** Removes, in place, the items `matches` picks. */
function removeWhere(list: string[], matches: (item: string) => boolean): void {
  for (let index = list.length - 1; index >= 0; index--) if (matches(list[index]!)) list.splice(index, 1);
}

/** Code points of a problem's message on an error line: longer ones are cut between words, marked ` …`. */
const PROBLEM_CHARS = 120;
/** Problems shown on one error line at most. */
const PROBLEMS_PER_LINE = 3;

/**
 * A tool output's problems on one line, as the parsers read them (`✗ test — message`, `TS2339
 * src/a.ts:3:7: message`), or `undefined` when they read none.
 */
function problemsLine(output: string, call: ToolCall | undefined): string | undefined {
  const command = call ? commandOf(call) : undefined;
  const parsed = parseToolOutput(output, command === undefined ? {} : { command });
  const shown: string[] = [];
  let count = 0;
  for (const problem of parsed.problems) {
    if (problem.severity === 'warning') continue;
    count++;
    if (shown.length >= PROBLEMS_PER_LINE) continue;
    const message = problem.message ? clipItem(oneLine(problem.message), PROBLEM_CHARS) : '';
    if (problem.severity === 'failure') {
      const test = problem.test ?? message;
      shown.push(`✗ ${test}${problem.test && message ? ` — ${message}` : ''}`);
    } else {
      const head = [problem.location, problem.code].filter(Boolean).join(' ');
      shown.push(head && message ? `${head}: ${message}` : head || message);
    }
  }
  if (shown.length === 0) return undefined;
  return `${shown.join('; ')}${count > shown.length ? ` (+${count - shown.length} more)` : ''}`;
}

/** Files in order of first mention, `(modified)` where a tool changed them; a bare name is dropped when a path ends with it. */
function fileList(files: ReadonlyMap<string, boolean>): string[] {
  const paths = [...files.keys()];
  return paths
    .filter((path) => !paths.some((other) => other !== path && other.endsWith(`/${path}`)))
    .map((path) => (files.get(path) ? `${path} (modified)` : path));
}
