import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import {
  CompactionError,
  createContextManager,
  heuristicSummarizer,
  isAgentVisible,
  type Message,
  prepareModelMessages,
  referenceCounter,
  sumMessageTokens,
} from '../../src/index.js';
import { arbitraryConversation, checkNotMutated, checkToolPairing, deepFreeze } from '../../src/testing/index.js';

const settings = fc.record({
  contextWindow: fc.integer({ min: 1_500, max: 20_000 }),
  keepRecentTokens: fc.integer({ min: 0, max: 3_000 }),
  toolCallCutoff: fc.integer({ min: 0, max: 8 }),
  toolSummaryStrategy: fc.constantFrom('heuristic' as const, 'off' as const),
  chunk: fc.integer({ min: 1, max: 12 }),
});

test.prop([arbitraryConversation({ maxLength: 60 }), settings], { numRuns: 60 })(
  'feeding a conversation through prepare() keeps every request valid and never touches the input',
  async (conversation, options) => {
    const input = deepFreeze(structuredClone(conversation));
    const snapshot = structuredClone(input);
    const manager = createContextManager({
      summarizer: heuristicSummarizer,
      contextWindow: options.contextWindow,
      counter: referenceCounter,
      config: {
        reserveTokens: Math.floor(options.contextWindow / 4),
        keepRecentTokens: options.keepRecentTokens,
        toolCallCutoff: options.toolCallCutoff,
        toolSummaryStrategy: options.toolSummaryStrategy,
        toolOutput: { maxBytes: 4_096, maxLines: 200 },
      },
    });
    let history: Message[] = [];
    for (let start = 0; start < input.length; start += options.chunk) {
      const next = [...history, ...input.slice(start, start + options.chunk)];
      let prepared: Awaited<ReturnType<typeof manager.prepare>>;
      try {
        prepared = await manager.prepare(next);
      } catch (error) {
        // Only an abort may escape prepare(); every other compaction failure is reported as an event.
        expect(CompactionError.isInstance(error)).toBe(false);
        throw error;
      }
      // What is sent is already a valid projection: paired calls and results, visible messages only.
      expect(checkToolPairing(prepared.messages, { allowPendingTail: true })).toEqual([]);
      expect(prepared.messages.every(isAgentVisible)).toBe(true);
      expect(prepareModelMessages(prepared.history)).toEqual(prepared.messages);
      // The newest message the host added is always still there, unchanged or cut only as tool output.
      const newest = next[next.length - 1]!;
      if (newest.role !== 'toolResult') expect(prepared.history).toContain(newest);
      history = prepared.history;
    }
    expect(checkNotMutated(snapshot, input)).toEqual([]);
  },
);

test.prop([arbitraryConversation({ maxLength: 50 }), settings], { numRuns: 60 })(
  'overflow recovery calls the provider at most twice and either fits or fails with the history intact',
  async (conversation, options) => {
    const manager = createContextManager({
      summarizer: heuristicSummarizer,
      contextWindow: options.contextWindow,
      counter: referenceCounter,
      config: {
        reserveTokens: Math.floor(options.contextWindow / 4),
        keepRecentTokens: options.keepRecentTokens,
        toolCallCutoff: options.toolCallCutoff,
        toolSummaryStrategy: options.toolSummaryStrategy,
        autoCompact: false, // leave the compaction to the overflow path
      },
    });
    // A provider that rejects anything over half the window (a smaller window than the manager knows).
    const limit = Math.floor(options.contextWindow / 2);
    let history: Message[] = [];
    for (let start = 0; start < conversation.length; start += options.chunk) {
      const next = [...history, ...conversation.slice(start, start + options.chunk)];
      const sent: Message[][] = [];
      const provider = async (messages: Message[]) => {
        sent.push(messages);
        expect(checkToolPairing(messages, { allowPendingTail: true })).toEqual([]);
        if (sumMessageTokens(messages, referenceCounter) > limit) {
          throw Object.assign(new Error('prompt is too long: too many tokens'), { status: 400 });
        }
        return 'ok';
      };
      try {
        const outcome = await manager.runWithOverflowRecovery(next, provider);
        expect(outcome.result).toBe('ok');
        expect(sent.length).toBe(outcome.recovered ? 2 : 1);
        history = outcome.history;
      } catch (error) {
        expect(CompactionError.isInstance(error) && error.code).toBe('OVERFLOW_UNRECOVERED');
        expect(sent.length).toBeLessThanOrEqual(2);
        return; // the caller keeps `next`, which the manager never changed
      }
    }
  },
);
