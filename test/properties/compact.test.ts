import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import {
  CompactionError,
  compact,
  heuristicSummarizer,
  isAgentVisible,
  type Message,
  prepareModelMessages,
  type Summarizer,
  sumMessageTokens,
} from '../../src/index.js';
import { DIGEST_PREFIX } from '../../src/schemas/index.js';
import {
  arbitraryConversation,
  checkNothingLost,
  checkNotMutated,
  checkToolPairing,
  createScriptedSummarizer,
  deepFreeze,
} from '../../src/testing/index.js';

const settings = fc.record({
  maxTokens: fc.integer({ min: 100, max: 4_000 }),
  keepRecentTokens: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2_000 })),
  keepRecent: fc.integer({ min: 1, max: 8 }),
  toolCallCutoff: fc.integer({ min: 0, max: 6 }),
});
const summarizers = fc.constantFrom('scripted', 'heuristic');

function summarizerFor(kind: string): Summarizer {
  return kind === 'heuristic'
    ? heuristicSummarizer
    : createScriptedSummarizer([(request) => `Goal: continue. ${request.messages.length} messages summarized.`]);
}

/** Runs compact; `undefined` when it declined with one of its expected, documented refusals. */
async function compactOrDecline(messages: readonly Message[], config: object, summarizer: Summarizer) {
  try {
    return await compact(messages, { summarizer, config });
  } catch (error) {
    if (CompactionError.isInstance(error) && ['NOTHING_TO_COMPACT', 'NOT_SMALLER'].includes(error.code))
      return undefined;
    throw error;
  }
}

/** Well-formed conversations, and broken ones: any subset of one, in any order. */
const conversations = fc.oneof(
  arbitraryConversation({ minLength: 4, maxLength: 40 }),
  arbitraryConversation({ minLength: 4, maxLength: 30 }).chain((messages) => fc.shuffledSubarray(messages)),
);

test.prop([conversations, settings, summarizers])(
  'compact: smaller, recent tail kept verbatim (or archived), input untouched, projection paired',
  async (messages, config, kind) => {
    const snapshot = structuredClone(messages);
    const input = deepFreeze(messages);
    const summarizer = summarizerFor(kind);
    const result = await compactOrDecline(input, config, summarizer);
    expect(checkNotMutated(snapshot, input)).toEqual([]);
    if (result === undefined) return;

    expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
    expect(sumMessageTokens(result.messages)).toBeLessThan(sumMessageTokens(input));
    expect(result.messages[0]?.meta?.kind).toBe('compaction_summary');

    const tail = input.slice(result.firstKeptIndex);
    const kept = result.messages.slice(1, 1 + tail.length);
    tail.forEach((message, index) => {
      const after = kept[index]!;
      if (after === message) return;
      expect(message.role).toBe('toolResult');
      expect(after).toEqual({
        ...message,
        meta: { ...message.meta, agentVisible: false, kind: 'tool_result_archived' },
      });
    });
    expect(checkNothingLost(tail, result.messages.slice(1), { allowArchived: true })).toEqual([]);
    const extra = result.messages.slice(1 + tail.length);
    expect(extra.length).toBe(result.archivedCount > 0 ? 1 : 0);
    for (const digest of extra) expect(String(digest.content).startsWith(DIGEST_PREFIX)).toBe(true);

    expect(checkToolPairing(prepareModelMessages(result.messages))).toEqual([]);
    expect(result.summarizedCount).toBe(
      input.slice(0, result.firstKeptIndex).filter(isAgentVisible).length -
        countSummaries(input.slice(0, result.firstKeptIndex)),
    );
  },
);

function countSummaries(messages: readonly Message[]): number {
  return messages.filter((message) => isAgentVisible(message) && message.meta?.kind === 'compaction_summary').length;
}

test.prop([arbitraryConversation({ minLength: 4, maxLength: 30 }), settings])(
  'compact: the summarizer only sees visible messages, and a failing summarizer changes nothing',
  async (messages, config) => {
    const input = deepFreeze(messages);
    const summarizer = createScriptedSummarizer([new Error('provider down')]);
    const error = await compact(input, { summarizer, config }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(CompactionError.isInstance(error)).toBe(true);
    for (const request of summarizer.requests)
      for (const message of request.messages) expect(isAgentVisible(message)).toBe(true);
  },
);
