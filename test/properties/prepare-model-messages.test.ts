import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { isAgentVisible, prepareModelMessages } from '../../src/index.js';
import { arbitraryConversation, checkNotMutated, checkToolPairing, deepFreeze } from '../../src/testing/index.js';

/** Well-formed conversations, and broken ones: any subset of one, in any order. */
const conversations = fc.oneof(
  arbitraryConversation({ maxLength: 40 }),
  arbitraryConversation({ maxLength: 30 }).chain((messages) => fc.shuffledSubarray(messages)),
);

test.prop([conversations])('prepareModelMessages: the output pairs every tool call with one result', (messages) => {
  expect(checkToolPairing(prepareModelMessages(deepFreeze(messages)))).toEqual([]);
});

test.prop([conversations])('prepareModelMessages: the output holds only messages the model may see', (messages) => {
  for (const message of prepareModelMessages(messages)) {
    expect(isAgentVisible(message)).toBe(true);
    if (message.role === 'assistant') expect(['aborted', 'error']).not.toContain(message.stopReason);
  }
});

test.prop([conversations])('prepareModelMessages: the input is not mutated', (messages) => {
  const snapshot = structuredClone(messages);
  prepareModelMessages(deepFreeze(messages));
  expect(checkNotMutated(snapshot, messages)).toEqual([]);
});

test.prop([conversations])('prepareModelMessages: preparing twice changes nothing more', (messages) => {
  const once = prepareModelMessages(messages);
  const twice = prepareModelMessages(once);
  expect(twice).toEqual(once);
  for (const [index, message] of twice.entries()) expect(message).toBe(once[index]);
});

test.prop([conversations])('prepareModelMessages: every visible user message is kept, in order', (messages) => {
  const users = messages.filter((message) => message.role === 'user' && isAgentVisible(message));
  expect(prepareModelMessages(messages).filter((message) => message.role === 'user')).toEqual(users);
});
