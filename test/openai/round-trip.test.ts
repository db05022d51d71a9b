import { test } from '@fast-check/vitest';
import { fromOpenAIChat, fromOpenAIResponses, toOpenAIChat, toOpenAIResponses } from 'ctxkit/openai';
import { messageSchema } from 'ctxkit/schemas';
import { deepFreeze } from 'ctxkit/testing';
import { describe, expect } from 'vitest';
import { chatMessages, responsesItems } from './arbitraries.js';

/** JSON in, JSON out: what a session store would persist between the two conversions. */
const throughJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('Chat Completions round trip', () => {
  test.prop([chatMessages], { numRuns: 150 })('toOpenAIChat(fromOpenAIChat(x)) equals x', (messages) => {
    deepFreeze(messages);
    const conversation = fromOpenAIChat(messages);
    expect(toOpenAIChat(conversation).messages).toStrictEqual(messages);
    expect(toOpenAIChat(throughJson(conversation)).messages).toStrictEqual(messages);
  });

  test.prop([chatMessages], { numRuns: 50 })('every converted message fits the message model', (messages) => {
    for (const message of fromOpenAIChat(messages).messages)
      expect(messageSchema.safeParse(message).success).toBe(true);
  });
});

describe('Responses round trip', () => {
  test.prop([responsesItems], { numRuns: 150 })('toOpenAIResponses(fromOpenAIResponses(x)) equals x', (items) => {
    deepFreeze(items);
    const conversation = fromOpenAIResponses(items);
    expect(toOpenAIResponses(conversation).items).toStrictEqual(items);
    expect(toOpenAIResponses(throughJson(conversation)).items).toStrictEqual(items);
  });

  test.prop([responsesItems], { numRuns: 50 })('every converted message fits the message model', (items) => {
    for (const message of fromOpenAIResponses(items).messages)
      expect(messageSchema.safeParse(message).success).toBe(true);
  });
});
