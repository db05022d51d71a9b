import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import {
  CompactionError,
  createInMemorySessionStore,
  isAgentVisible,
  type Message,
  prepareModelMessages,
  referenceCounter,
} from '../../src/index.js';
import { compactSession } from '../../src/session/index.js';
import { arbitraryConversation, checkToolPairing, createScriptedSummarizer } from '../../src/testing/index.js';

/** Conversations appended in rounds, with a compaction attempted after each round. */
const rounds = fc.array(arbitraryConversation({ minLength: 1, maxLength: 16 }), { minLength: 1, maxLength: 5 });
const keepRecentTokens = fc.integer({ min: 1, max: 3_000 });

test.prop([rounds, keepRecentTokens], { numRuns: 60 })(
  'repeated session compactions never drop what an earlier one kept, and never delete history',
  async (conversationRounds, keep) => {
    const store = createInMemorySessionStore();
    const { id } = await store.createSession();
    const summarizer = createScriptedSummarizer(Array.from({ length: 10 }, (_, index) => `summary ${index + 1}`));
    let appended = 0;
    let covered: Message[] = []; // what the latest context holds: its summary's reach is checked below
    for (const [round, conversation] of conversationRounds.entries()) {
      // Tool call ids must be unique across the whole session.
      const renamed = structuredClone(conversation).map((message) => rename(message, `r${round}_`));
      for (const message of renamed) await store.appendEntry(id, { type: 'message', message });
      appended += renamed.length;
      const requestsBefore = summarizer.requests.length;
      try {
        const { context } = await compactSession({
          store,
          sessionId: id,
          summarizer,
          config: { keepRecentTokens: keep },
          counter: referenceCounter,
        });
        const request = summarizer.requests[requestsBefore]!;
        // Every visible message of the previous context (or of this round) is either summarized or kept.
        const kept = new Set(context.messages);
        for (const message of [...covered, ...renamed].filter(isAgentVisible)) {
          if (message.meta?.kind === 'compaction_summary') continue;
          const summarized = request.messages.some((item) => sameMessage(item, message));
          expect(summarized || kept.has(message) || [...kept].some((item) => sameMessage(item, message))).toBe(true);
        }
        expect(checkToolPairing(prepareModelMessages(context.messages))).toEqual([]);
        covered = context.messages;
      } catch (error) {
        if (!CompactionError.isInstance(error)) throw error;
        covered = [...covered, ...renamed];
      }
      // History is never deleted: the transcript holds every message ever appended.
      const entries = await store.getEntries(id);
      expect(entries.filter((entry) => entry.type === 'message')).toHaveLength(appended);
      expect(await store.getMessages(id)).toHaveLength(entries.length);
    }
  },
);

function rename(message: Message, prefix: string): Message {
  if (message.role === 'toolResult') return { ...message, toolCallId: prefix + message.toolCallId };
  if (message.role === 'assistant') {
    return {
      ...message,
      content: message.content.map((part) => (part.type === 'toolCall' ? { ...part, id: prefix + part.id } : part)),
    };
  }
  return message;
}

/** The summarizer sees tool results cut to 1,800 code points; match on role and call id or content. */
function sameMessage(a: Message, b: Message): boolean {
  if (a === b) return true;
  if (a.role !== b.role) return false;
  if (a.role === 'toolResult' && b.role === 'toolResult') return a.toolCallId === b.toolCallId;
  return JSON.stringify(a.content) === JSON.stringify(b.content);
}
