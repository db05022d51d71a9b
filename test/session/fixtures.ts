/** Small builders for session-tree tests. */
import type { Message, SessionEntry } from '../../src/index.js';
import {
  assistantMessage,
  createScriptedSummarizer,
  type ScriptedSummarizer,
  toolCallMessage,
  toolResultMessage,
  userMessage,
} from '../../src/testing/index.js';

let counter = 0;

/** A message entry with an explicit id and parent. */
export function messageEntry(id: string, parentId: string | null, message: Message): SessionEntry {
  return { type: 'message', id, parentId, timestamp: ++counter, message };
}

export const user = (text: string): Message => userMessage(text);
export const assistant = (text: string): Message => assistantMessage(text);
export const call = (ids: string[], text?: string): Message =>
  toolCallMessage(
    ids.map((id) => ({ id, name: 'run', arguments: { id } })),
    text,
  );
export const result = (id: string, text = `output of ${id}`): Message =>
  toolResultMessage(id, text, { toolName: 'run' });

/** Builds a linear chain of entries `e0…` from messages, each the child of the one before. */
export function chain(messages: Message[], prefix = 'e', parentId: string | null = null): SessionEntry[] {
  const entries: SessionEntry[] = [];
  let parent = parentId;
  messages.forEach((message, index) => {
    const entry = messageEntry(`${prefix}${index}`, parent, message);
    entries.push(entry);
    parent = entry.id;
  });
  return entries;
}

/**
 * Checks provider pairing: every result follows its call, no call has two results, and a call
 * without a result is only allowed in the trailing (pending) turn.
 */
export function pairingProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  const calls = new Map<string, { index: number; results: number }>();
  messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      for (const part of message.content) if (part.type === 'toolCall') calls.set(part.id, { index, results: 0 });
    } else if (message.role === 'toolResult') {
      const found = calls.get(message.toolCallId);
      if (found === undefined) problems.push(`result ${message.toolCallId} at ${index} has no call before it`);
      else if (++found.results > 1) problems.push(`call ${message.toolCallId} has two results`);
    }
  });
  for (const [id, { index, results }] of calls) {
    if (results > 0) continue;
    const pending = messages.slice(index + 1).every((message) => message.role === 'toolResult');
    if (!pending) problems.push(`call ${id} at ${index} has no result`);
  }
  return problems;
}

/** A summarizer that records its requests and answers with a short deterministic text. */
export function recordingSummarizer(): ScriptedSummarizer {
  const summarizer: ScriptedSummarizer = createScriptedSummarizer([], {
    afterScript: (request) =>
      `summary ${summarizer.requests.length} of ${request.messages.length} messages${request.previousSummary ? ` after [${request.previousSummary}]` : ''}`,
  });
  return summarizer;
}

export { sessionTreeArbitrary } from '../../src/testing/session-tree-arbitrary.js';
