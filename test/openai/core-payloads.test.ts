// What the core sends after its operations (pairing repair, truncation, tool-result archiving,
// compaction) is a request OpenAI accepts, in both wire formats, checked by OpenAI's rules.

import { fc, test } from '@fast-check/vitest';
import { createContextManager, heuristicSummarizer, type Message, prepareModelMessages } from 'ctxkit';
import { fromOpenAIChat, fromOpenAIResponses, toOpenAIChat, toOpenAIResponses } from 'ctxkit/openai';
import { arbitraryConversation } from 'ctxkit/testing';
import { describe, expect } from 'vitest';
import { chatMessages, responsesItems } from './arbitraries.js';
import { checkChatRequest, checkResponsesRequest } from './openai-rules.js';

/** Well-formed conversations, and broken ones: any subset of one, in any order. */
const conversations = fc.oneof(
  arbitraryConversation({ maxLength: 30 }),
  arbitraryConversation({ maxLength: 20 }).chain((messages) => fc.shuffledSubarray(messages)),
);

/** A conversation that ends with a user message, as a request does. */
const withQuestion = (messages: Message[]): Message[] => [...messages, { role: 'user', content: 'Go on.' }];

const isInstruction = (message: { role: string }) => message.role === 'system' || message.role === 'developer';
const hasText = (message: { content?: unknown }) =>
  typeof message.content === 'string'
    ? message.content.trim() !== ''
    : Array.isArray(message.content) && message.content.length > 0;
const isModelItem = (item: { type?: string | null; role?: unknown } | undefined) =>
  item !== undefined && (item.type === 'function_call' || item.role === 'assistant');

/** The items whose `id` no earlier item has, as any history the API returned has them. */
function uniqueItemIds<T>(items: readonly T[]): T[] {
  const seen = new Set<unknown>();
  return items.filter((item) => {
    const id = (item as { id?: unknown }).id;
    if (id === undefined || id === null) return true;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

function checkBoth(messages: Message[]): void {
  expect(
    checkChatRequest({ messages: toOpenAIChat({ systemPrompt: 'Be careful.', messages }).messages }),
  ).toBeUndefined();
  expect(checkResponsesRequest({ input: toOpenAIResponses({ messages }).items, store: false })).toBeUndefined();
}

describe('payloads after the core', () => {
  test.prop([conversations])('prepareModelMessages output is accepted', (messages) => {
    checkBoth(prepareModelMessages(withQuestion(messages)));
  });

  test.prop([chatMessages])('a Chat Completions history, repaired by prepareModelMessages, is accepted', (wire) => {
    // The system prompt is the host's own and sent as given; an empty one is the host's to fix.
    const { systemPrompt, messages } = fromOpenAIChat(
      wire.filter((message) => !isInstruction(message) || hasText(message)),
    );
    const sent = toOpenAIChat({ systemPrompt, messages: prepareModelMessages(withQuestion(messages)) }).messages;
    expect(checkChatRequest({ messages: sent })).toBeUndefined();
  });

  test.prop([responsesItems])('a Responses history, repaired by prepareModelMessages, is accepted', (items) => {
    // An output message with no content parts is carried verbatim (ctxkit cannot tell it is empty).
    // As the API returns them: an output message has content, and a reasoning item is followed by
    // what it produced, and no two items share an id (ctxkit carries all of these verbatim, so it
    // cannot repair them).
    const withContent = items.filter(
      (item) => !('id' in item && 'content' in item && Array.isArray(item.content) && item.content.length === 0),
    );
    const realistic = uniqueItemIds(withContent).filter(
      (item, index, kept) => item.type !== 'reasoning' || isModelItem(kept[index + 1]),
    );
    const { messages } = fromOpenAIResponses(realistic);
    const input = toOpenAIResponses({ messages: prepareModelMessages(withQuestion(messages)) }).items;
    // Reasoning items the wire arbitrary made without encrypted content are store: true items.
    expect(checkResponsesRequest({ input, store: true })).toBeUndefined();
  });

  test.prop([arbitraryConversation({ minLength: 10, maxLength: 40 })], { numRuns: 40 })(
    "the manager's truncation, tool-result archiving and compaction give accepted payloads",
    async (messages) => {
      const manager = createContextManager({
        contextWindow: 3_000,
        summarizer: heuristicSummarizer,
        config: {
          reserveTokens: 600,
          keepRecentTokens: 800,
          toolCallCutoff: 2,
          toolSummaryStrategy: 'heuristic',
          toolOutput: { maxLines: 20, maxBytes: 1_024 },
        },
      });
      try {
        const { messages: sent } = await manager.prepare(withQuestion(messages));
        checkBoth(sent);
      } catch (error) {
        // A history whose kept tail alone exceeds the tiny window may not compact; never a bad payload.
        expect(String(error)).toMatch(/compact|shrink|window/i);
      }
    },
  );
});
