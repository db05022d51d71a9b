import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { isAgentVisible, prepareModelMessages, summarizeToolResults } from '../../src/index.js';
import { TOOL_SUMMARY_PREFIX } from '../../src/schemas/index.js';
import {
  arbitraryConversation,
  checkNothingLost,
  checkNotMutated,
  checkToolPairing,
  createScriptedSummarizer,
  deepFreeze,
} from '../../src/testing/index.js';

/** Well-formed conversations, and broken ones: any subset of one, in any order. */
const conversations = fc.oneof(
  arbitraryConversation({ maxLength: 40 }),
  arbitraryConversation({ maxLength: 30 }).chain((messages) => fc.shuffledSubarray(messages)),
);
const cutoffs = fc.integer({ min: 0, max: 8 });

test.prop([conversations, cutoffs])(
  "summarizeToolResults 'heuristic': nothing lost, at most `cutoff` visible results, paired projection, input untouched",
  async (messages, cutoff) => {
    const snapshot = structuredClone(messages);
    const input = deepFreeze(messages);
    const result = await summarizeToolResults(input, { batch: 0, strategy: 'heuristic', cutoff });
    expect(checkNotMutated(snapshot, input)).toEqual([]);
    expect(checkNothingLost(input, result.messages, { allowArchived: true })).toEqual([]);

    const visibleResults = (list: typeof input) =>
      list.filter((message) => message.role === 'toolResult' && isAgentVisible(message)).length;
    const before = visibleResults(input);
    expect(visibleResults(result.messages)).toBe(Math.min(before, cutoff));
    expect(result.archived.length).toBe(Math.max(0, before - cutoff));
    if (result.archived.length === 0) {
      expect(result.messages).toEqual(input);
    } else {
      expect(result.messages.length).toBe(input.length + 1);
      const summary = result.messages[result.messages.length - 1]!;
      expect(summary.meta).toMatchObject({ kind: 'tool_summary', agentVisible: true, userVisible: false });
      expect(String(summary.content).startsWith(TOOL_SUMMARY_PREFIX)).toBe(true);
    }
    expect(result.fallback).toBe(false);
    expect(checkToolPairing(prepareModelMessages(result.messages))).toEqual([]);
  },
);

test.prop([conversations, cutoffs])(
  "summarizeToolResults 'off' returns the messages unchanged",
  async (messages, cutoff) => {
    const result = await summarizeToolResults(deepFreeze(messages), { batch: 0, strategy: 'off', cutoff });
    expect(result.messages).toEqual(messages);
    expect(result.archived).toEqual([]);
  },
);

test.prop([conversations, cutoffs])(
  "summarizeToolResults 'llm': a failing summarizer falls back to the heuristic and loses nothing",
  async (messages, cutoff) => {
    const summarizer = createScriptedSummarizer([new Error('provider down')]);
    const result = await summarizeToolResults(deepFreeze(messages), { batch: 0, strategy: 'llm', summarizer, cutoff });
    expect(checkNothingLost(messages, result.messages, { allowArchived: true })).toEqual([]);
    expect(result.fallback).toBe(result.archived.length > 0);
    expect(summarizer.requests.length).toBe(result.archived.length > 0 ? 1 : 0);
    expect(checkToolPairing(prepareModelMessages(result.messages))).toEqual([]);
  },
);
