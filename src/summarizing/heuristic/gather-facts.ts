// The facts the heuristic summarizer reads out of a conversation. Internal.
import { clipText } from '../../internal/clip-text.js';
import type { Message, ToolCall, ToolResultMessage } from '../../types.js';
import { isModifying, pathsOf } from '../anchors/tool-facts.js';
import { argumentsText, contentText } from '../serialize-conversation.js';
import { findPaths, highlightOutput } from '../tool-output-highlights.js';
import { describeCall, oneLine, outcome } from './describe-call.js';

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

/** Code points kept of a remembered request or note; renderings clip further. */
const ITEM_CHARS = 1000;
/** Files remembered at most; a listing of thousands of paths is not a list of files worked on. */
const MAX_FILES = 300;
const INJECTED_KINDS = new Set(['compaction_summary', 'branch_summary', 'tool_summary']);
const CONSTRAINT = /\b(must|should(?:n't)?|don't|do not|never|always|prefer|avoid|without|make sure)\b/i;
const DECISION =
  /\b(decided|decide|instead|i'll use|we'll use|going with|chose|choose|switch(?:ed)? to|root cause|because)\b/i;

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map(oneLine)
    .filter((sentence) => sentence.length > 0);
}

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
