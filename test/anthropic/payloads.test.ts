import { fc, test } from '@fast-check/vitest';
import {
  CompactionError,
  clearToolUses,
  compact,
  heuristicSummarizer,
  type Message,
  prepareModelMessages,
  summarizeToolResults,
} from 'ctxkit';
import { fromAnthropic, toAnthropic } from 'ctxkit/anthropic';
import { arbitraryConversation } from 'ctxkit/testing';
import { describe, expect } from 'vitest';
import { anthropicMessages } from './anthropic-arbitraries.js';
import { findRequestViolation } from './anthropic-request-rules.js';

/** The rule the request breaks when the host sends what an operation left (nothing to send is no request). */
function sent(messages: readonly Message[]): string | undefined {
  const payload = toAnthropic({ messages: prepareModelMessages(messages) }).messages;
  return payload.length === 0 ? undefined : findRequestViolation(payload);
}

async function compactOrKeep(messages: readonly Message[], maxTokens: number): Promise<readonly Message[]> {
  try {
    return (
      await compact(messages, {
        summarizer: heuristicSummarizer,
        config: { maxTokens, keepRecentTokens: Math.floor(maxTokens / 4) },
      })
    ).messages;
  } catch (error) {
    if (CompactionError.isInstance(error)) return messages;
    throw error;
  }
}

/** ctxkit conversations, and Anthropic conversations read into ctxkit. */
const histories = fc.oneof(
  arbitraryConversation({ minLength: 1, maxLength: 30 }),
  anthropicMessages.map((messages) => fromAnthropic({ messages: messages as never }).messages),
);

describe('payloads the Messages API accepts after each core operation', () => {
  test.prop([histories], { numRuns: 60 })('the projection', (messages) => {
    expect(sent(messages)).toBeUndefined();
  });

  test.prop([histories, fc.integer({ min: 0, max: 4 })], { numRuns: 60 })(
    'after archiving tool results',
    async (messages, cutoff) => {
      const { messages: archived } = await summarizeToolResults(messages, { cutoff, strategy: 'heuristic' });
      expect(sent(archived)).toBeUndefined();
    },
  );

  test.prop([histories, fc.integer({ min: 200, max: 4_000 })], { numRuns: 60 })(
    'after compaction',
    async (messages, maxTokens) => {
      expect(sent(await compactOrKeep(messages, maxTokens))).toBeUndefined();
    },
  );

  test.prop([histories, fc.integer({ min: 0, max: 3 })], { numRuns: 60 })(
    'after clearing tool uses',
    (messages, keep) => {
      const { messages: cleared } = clearToolUses(messages, { trigger: 0, keep, clearAtLeast: 0 });
      expect(sent(cleared)).toBeUndefined();
    },
  );

  test.prop([histories.chain((messages) => fc.shuffledSubarray(messages))], { numRuns: 60 })(
    'after pairing repair of a broken history (any subset, any order)',
    (messages) => {
      expect(sent(messages)).toBeUndefined();
    },
  );
});
