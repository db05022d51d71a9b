import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { messageSchema } from '../../src/schemas/index.js';
import {
  arbitraryConversation,
  arbitraryMessage,
  arbitraryToolOutput,
  arbitraryToolOutputLimits,
  checkWellFormedText,
} from '../../src/testing/index.js';

test.prop([arbitraryConversation({ minLength: 3, maxLength: 12, withReusedIds: false })])(
  'arbitraryConversation: valid messages within the length bounds, unique call ids with withReusedIds: false',
  (messages) => {
    expect(messages.length).toBeGreaterThanOrEqual(3);
    expect(messages.length).toBeLessThanOrEqual(12);
    const ids: string[] = [];
    for (const message of messages) {
      expect(messageSchema.safeParse(message).success).toBe(true);
      if (message.role === 'assistant')
        for (const part of message.content) if (part.type === 'toolCall') ids.push(part.id);
    }
    expect(new Set(ids).size).toBe(ids.length);
  },
);

test('arbitraryConversation: by default, now and then reuses a call id, across turns and within one', () => {
  let acrossTurns = 0;
  let withinOne = 0;
  for (const messages of fc.sample(arbitraryConversation({ minLength: 20, maxLength: 40 }), {
    numRuns: 200,
    seed: 7,
  })) {
    const seen = new Set<string>();
    for (const message of messages) {
      if (message.role !== 'assistant') continue;
      const ids = message.content.flatMap((part) => (part.type === 'toolCall' ? [part.id] : []));
      if (new Set(ids).size < ids.length) withinOne++;
      if (ids.some((id) => seen.has(id))) acrossTurns++;
      for (const id of ids) seen.add(id);
    }
  }
  expect(acrossTurns).toBeGreaterThan(0);
  expect(withinOne).toBeGreaterThan(0);
});

test.prop([
  arbitraryConversation({ withImages: false, withHidden: false, withSummaries: false, withToolCalls: false }),
])('arbitraryConversation: the with* options leave out their kinds of message', (messages) => {
  for (const message of messages) {
    expect(message.role).not.toBe('toolResult');
    expect(message.meta).toBeUndefined();
    if (message.role === 'user') expect(typeof message.content).toBe('string');
    if (message.role === 'assistant') expect(message.content.some((part) => part.type === 'toolCall')).toBe(false);
  }
});

test.prop([arbitraryMessage()])('arbitraryMessage: a valid message', (message) => {
  expect(messageSchema.safeParse(message).success).toBe(true);
});

test.prop([arbitraryToolOutput(), arbitraryToolOutputLimits()])(
  'arbitraryToolOutput: well-formed text; limits are whole numbers above 0',
  (text, limits) => {
    expect(checkWellFormedText(text)).toEqual([]);
    for (const value of [limits.maxLines, limits.maxChars, limits.maxBytes, limits.largeOutputThreshold]) {
      expect(Number.isInteger(value) && value > 0).toBe(true);
    }
  },
);

test('arbitraryConversation: produces every shape it documents', () => {
  const seen = new Set<string>();
  for (const messages of fc.sample(arbitraryConversation({ maxLength: 40 }), { numRuns: 300, seed: 7 })) {
    for (const message of messages) {
      if (message.meta?.agentVisible === false) seen.add(message.role === 'toolResult' ? 'archived' : 'hidden');
      if (message.meta?.kind) seen.add(message.meta.kind);
      if (message.role === 'assistant' && message.content.filter((part) => part.type === 'toolCall').length > 1)
        seen.add('parallel');
      if (message.role === 'assistant' && message.stopReason) seen.add(message.stopReason);
      if (Array.isArray(message.content) && message.content.some((part) => part.type === 'image')) seen.add('image');
    }
  }
  for (const shape of [
    'archived',
    'hidden',
    'compaction_summary',
    'tool_summary',
    'parallel',
    'aborted',
    'error',
    'image',
  ])
    expect(seen).toContain(shape);
});
