/** Small builders for session-tree tests. */
import { fc } from '@fast-check/vitest';
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

/**
 * A random session tree made of whole turns (a user message; or an assistant message with tool
 * calls followed by one result per call; or a plain assistant reply), each attached after the
 * end of a random earlier turn, with the occasional compaction, branch summary, label or model
 * change. Every root-to-turn-end path is a well-paired conversation.
 */
export const sessionTreeArbitrary = fc
  .array(
    fc.record({
      parent: fc.nat(),
      kind: fc.constantFrom(
        'user',
        'reply',
        'tools',
        'tools',
        'compaction',
        'branch_summary',
        'label',
        'model',
        'custom_message',
      ),
      calls: fc.integer({ min: 1, max: 3 }),
      keep: fc.nat(),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .map((turns) => {
    const entries: SessionEntry[] = [];
    const turnEnds: (string | null)[] = [null];
    const turnStarts = new Map<string, string[]>();
    let next = 0;
    const add = (parentId: string | null, body: Record<string, unknown>): string => {
      const id = `n${next++}`;
      entries.push({ id, parentId, timestamp: next, ...body } as SessionEntry);
      return id;
    };
    for (const turn of turns) {
      const parent = turnEnds[turn.parent % turnEnds.length]!;
      const starts = parent === null ? [] : (turnStarts.get(parent) ?? []);
      const firstIndex = entries.length;
      let end: string;
      switch (turn.kind) {
        case 'user':
          end = add(parent, { type: 'message', message: user(`u${next}`) });
          break;
        case 'reply':
          end = add(parent, { type: 'message', message: assistant(`a${next}`) });
          break;
        case 'tools': {
          const ids = Array.from({ length: turn.calls }, (_, index) => `c${next}-${index}`);
          end = add(parent, { type: 'message', message: call(ids, turn.calls > 1 ? 'working' : undefined) });
          for (const id of ids) end = add(end, { type: 'message', message: result(id) });
          break;
        }
        case 'compaction': {
          if (starts.length === 0 || parent === null) continue;
          end = add(parent, {
            type: 'compaction',
            summary: `summary ${next}`,
            firstKeptEntryId: starts[turn.keep % starts.length]!,
            tokensBefore: 100,
          });
          break;
        }
        case 'branch_summary':
          end = add(parent, { type: 'branch_summary', fromId: parent ?? 'none', summary: `left ${next}` });
          break;
        case 'label':
          end = add(parent, { type: 'label', targetId: parent ?? 'none', label: 'mark' });
          break;
        case 'model':
          end = add(parent, { type: 'model_change', provider: 'p', modelId: `m${next}` });
          break;
        default:
          end = add(parent, { type: 'custom_message', customType: 'note', content: `note ${next}` });
      }
      // Turn starts on the path to this turn's end: valid places for a compaction to keep from.
      const startId = entries[firstIndex]!.id;
      turnStarts.set(end, [...starts, ...(turn.kind === 'compaction' ? [] : [startId])]);
      turnEnds.push(end);
    }
    return entries;
  })
  .filter((entries) => entries.length > 0);
