import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { isAgentVisible, type Message, prepareModelMessages } from '../../src/index.js';
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

/** The text of a user message, with empty parts as they are left out. */
const userText = (message: Message) =>
  message.role !== 'user'
    ? ''
    : typeof message.content === 'string'
      ? message.content.trim()
      : message.content.map((part) => (part.type === 'text' ? part.text.trim() : `[${part.mimeType}]`)).join('');

test.prop([conversations])(
  'prepareModelMessages: every visible user message with content is kept, in order',
  (messages) => {
    const users = messages.filter(
      (message) => message.role === 'user' && isAgentVisible(message) && userText(message) !== '',
    );
    const sent = prepareModelMessages(messages).filter((message) => message.role === 'user');
    expect(sent.map(userText)).toEqual(users.map(userText));
  },
);

/** Conversations with empty messages and empty parts in them, as hosts and providers produce them. */
const withEmptyParts = conversations.chain((messages) =>
  fc.array(fc.nat(messages.length), { maxLength: 4 }).map((positions) => {
    const result = [...messages];
    for (const [index, position] of positions.entries()) {
      const empty: Message[] = [
        { role: 'user', content: index % 2 === 0 ? '' : [{ type: 'text', text: ' ' }] },
        { role: 'assistant', content: [{ type: 'text', text: '' }], stopReason: 'stop' },
        { role: 'assistant', content: [], stopReason: 'stop' },
      ];
      result.splice(position, 0, empty[index % empty.length]!);
    }
    return result.map((message) =>
      message.role === 'assistant' && message.content.some((part) => part.type === 'toolCall')
        ? { ...message, content: [{ type: 'text' as const, text: '  ' }, ...message.content] }
        : message,
    );
  }),
);

test.prop([withEmptyParts])(
  'prepareModelMessages: no empty message or text part is sent, and pairing holds',
  (messages) => {
    const sent = prepareModelMessages(deepFreeze(messages));
    for (const message of sent) {
      if (message.role === 'toolResult') continue;
      const parts =
        typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
      expect(parts.length).toBeGreaterThan(0);
      for (const part of parts) if (part.type === 'text') expect(part.text.trim()).not.toBe('');
    }
    expect(checkToolPairing(sent)).toEqual([]);
    expect(prepareModelMessages(sent)).toEqual(sent);
  },
);
