import { fc, test } from '@fast-check/vitest';
import { modelMessageSchema } from 'ai';
import { modelMessageSchema as modelMessageSchema6 } from 'ai-v6';
import {
  CompactionError,
  clearToolUses,
  compact,
  heuristicSummarizer,
  type Message,
  prepareModelMessages,
  summarizeToolResults,
} from 'ctxkit';
import { fromModelMessages, toModelMessages } from 'ctxkit/ai-sdk';
import { arbitraryConversation } from 'ctxkit/testing';
import { describe, expect } from 'vitest';
import { modelMessages } from './ai-sdk-arbitraries.js';

type Wire = { role: string; content: string | { type: string; [key: string]: unknown }[] };

/**
 * The first rule a ModelMessage[] breaks: the SDK's own schema (`ai` 7's and 6's), no empty or blank text, no empty
 * message, and every tool call answered by exactly one result in the tool messages right after it.
 */
function findViolation(messages: Wire[]): string | undefined {
  for (const [index, message] of messages.entries()) {
    if (!modelMessageSchema.safeParse(message).success) return `messages[${index}] fails the SDK's schema (ai 7)`;
    if (!modelMessageSchema6.safeParse(message).success) return `messages[${index}] fails the SDK's schema (ai 6)`;
    if (typeof message.content === 'string') {
      if (message.content.trim() === '' && message.role !== 'system') return `messages[${index}] is empty`;
      continue;
    }
    if (message.content.length === 0) return `messages[${index}] has no content`;
    for (const part of message.content) {
      if (part.type === 'text' && String(part['text']).trim() === '') return `messages[${index}] has a blank text part`;
    }
    const calls = message.role === 'assistant' ? message.content.filter((part) => part.type === 'tool-call') : [];
    if (calls.length === 0) continue;
    // The tool messages right after the call (consecutive ones are one turn to every provider).
    const results: unknown[] = [];
    for (let next = index + 1; messages[next]?.role === 'tool'; next++) {
      const content = messages[next]!.content;
      if (Array.isArray(content)) results.push(...content.map((part) => part['toolCallId']));
    }
    for (const call of calls) {
      if (results.filter((id) => id === call['toolCallId']).length !== 1) {
        return `messages[${index}]: tool call ${String(call['toolCallId'])} is not answered once by the tool messages right after it`;
      }
    }
  }
  return undefined;
}

function sent(messages: readonly Message[]): string | undefined {
  return findViolation(toModelMessages({ messages: prepareModelMessages(messages) }).messages as Wire[]);
}

const histories = fc.oneof(
  arbitraryConversation({ minLength: 1, maxLength: 30 }),
  modelMessages.map((messages) => fromModelMessages(messages as never).messages),
);

describe('ModelMessage payloads after each core operation', () => {
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
      let compacted: readonly Message[] = messages;
      try {
        compacted = (
          await compact(messages, {
            summarizer: heuristicSummarizer,
            config: { maxTokens, keepRecentTokens: Math.floor(maxTokens / 4) },
          })
        ).messages;
      } catch (error) {
        if (!CompactionError.isInstance(error)) throw error;
      }
      expect(sent(compacted)).toBeUndefined();
    },
  );

  test.prop([histories, fc.integer({ min: 0, max: 3 })], { numRuns: 60 })(
    'after clearing tool uses',
    (messages, keep) => {
      expect(sent(clearToolUses(messages, { trigger: 0, keep, clearAtLeast: 0 }).messages)).toBeUndefined();
    },
  );

  test.prop([histories.chain((messages) => fc.shuffledSubarray(messages))], { numRuns: 60 })(
    'after pairing repair of a broken history',
    (messages) => {
      expect(sent(messages)).toBeUndefined();
    },
  );
});
