import { fc, test } from '@fast-check/vitest';
import { type Message, prepareModelMessages } from 'ctxkit';
import { toOpenAIChat } from 'ctxkit/openai';
import { checkToolPairing } from 'ctxkit/testing';
import { expect } from 'vitest';
import { checkChatRequest } from '../openai/openai-rules.js';

// A reused tool-call id is sent renamed: the renamed ids are unique, the call and its result carry
// the same one, and each is valid wherever the id it renames is (Anthropic and Bedrock:
// `^[a-zA-Z0-9_-]+$`, Bedrock up to 64 characters; OpenAI Chat Completions up to 40; Mistral:
// exactly nine letters and digits).

const ANTHROPIC = /^[a-zA-Z0-9_-]+$/;
const MISTRAL = /^[a-zA-Z0-9]{9}$/;

/** Ids as hosts and providers make them, ids that look like renames, long ones, and any string. */
const arbitraryId = fc.oneof(
  fc.constantFrom('call_0', 'call_1', 'call_0_2', 'call_0_3', 'x', 'toolu_01A', 'aB3dE5gH9', 'aB3dE5gH2', 'abcdefgh3'),
  fc.stringMatching(/^[a-zA-Z0-9]{9}$/),
  fc.constantFrom(
    `call_${'a'.repeat(35)}`,
    `call_${'b'.repeat(34)}`,
    `tooluse_${'c'.repeat(56)}`,
    `id.${'d'.repeat(45)}`,
  ),
  fc.string({ minLength: 1, maxLength: 12 }),
);

const arbitraryTurns = fc.array(
  fc.record({
    ids: fc.array(fc.nat({ max: 5 }), { minLength: 1, maxLength: 3 }),
    answered: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
  }),
  { minLength: 1, maxLength: 12 },
);

test.prop([fc.array(arbitraryId, { minLength: 6, maxLength: 6 }), arbitraryTurns])(
  'renamed ids are unique, the same in a call and its result, and valid wherever the original id is',
  (pool, turns) => {
    const history: Message[] = [];
    const originals: string[] = [];
    turns.forEach((turn, index) => {
      history.push({ role: 'user', content: `turn ${index}` });
      const ids = turn.ids.map((pick) => pool[pick]!);
      originals.push(...ids);
      history.push({
        role: 'assistant',
        content: ids.map((id) => ({ type: 'toolCall' as const, id, name: 'bash', arguments: {} })),
        stopReason: 'toolUse',
      });
      ids.forEach((id, call) => {
        if (turn.answered[call])
          history.push({ role: 'toolResult', toolCallId: id, toolName: 'bash', content: [{ type: 'text', text: id }] });
      });
    });
    const sent = prepareModelMessages(history);
    expect(checkToolPairing(sent)).toEqual([]);
    const calls = sent.flatMap((message) =>
      message.role === 'assistant'
        ? message.content.flatMap((part) => (part.type === 'toolCall' ? [part.id] : []))
        : [],
    );
    const results = sent.flatMap((message) => (message.role === 'toolResult' ? [message.toolCallId] : []));
    expect(calls).toHaveLength(originals.length);
    expect(new Set(calls).size).toBe(calls.length);
    // Each call's result follows it, in call order, under the same id.
    expect(results).toEqual(calls);
    const seen = new Set<string>();
    calls.forEach((id, index) => {
      const original = originals[index]!;
      // The first use of an id is sent as it is.
      if (!seen.has(original)) expect(id).toBe(original);
      seen.add(original);
      expect(id.length).toBeLessThanOrEqual(Math.max(original.length, 40));
      if (ANTHROPIC.test(original)) expect(id).toMatch(ANTHROPIC);
      if (MISTRAL.test(original)) expect(id).toMatch(MISTRAL);
    });
  },
);

test('a local model reusing call_0 every turn: its calls go out as call_0, call_0_2, call_0_3', () => {
  const history: Message[] = [];
  for (let turn = 0; turn < 3; turn++)
    history.push(
      { role: 'user', content: `turn ${turn}` },
      {
        role: 'assistant',
        content: [{ type: 'toolCall', id: 'call_0', name: 'ls', arguments: {} }],
        stopReason: 'toolUse',
      },
      { role: 'toolResult', toolCallId: 'call_0', toolName: 'ls', content: [{ type: 'text', text: `${turn}` }] },
    );
  const ids = prepareModelMessages(history).flatMap((message) =>
    message.role === 'toolResult' ? [message.toolCallId] : [],
  );
  expect(ids).toEqual(['call_0', 'call_0_2', 'call_0_3']);
});

test('a Mistral id stays nine letters and digits, and a 40-character id stays within 40', () => {
  const step = (id: string): Message[] => [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: [{ type: 'toolCall', id, name: 'ls', arguments: {} }], stopReason: 'toolUse' },
    { role: 'toolResult', toolCallId: id, toolName: 'ls', content: [{ type: 'text', text: 'ok' }] },
  ];
  const long = `call_${'a'.repeat(35)}`;
  const ids = prepareModelMessages([...step('aB3dE5gH9'), ...step('aB3dE5gH9'), ...step(long), ...step(long)]).flatMap(
    (message) => (message.role === 'toolResult' ? [message.toolCallId] : []),
  );
  expect(ids).toEqual(['aB3dE5gH9', 'aB3dE5gH2', long, `call_${'a'.repeat(33)}_2`]);
});

test('a reused 40-character id goes to Chat Completions within its 40-character limit', () => {
  const id = `call_${'a'.repeat(35)}`;
  const history: Message[] = [];
  for (let turn = 0; turn < 3; turn++)
    history.push(
      { role: 'user', content: `turn ${turn}` },
      { role: 'assistant', content: [{ type: 'toolCall', id, name: 'ls', arguments: {} }], stopReason: 'toolUse' },
      { role: 'toolResult', toolCallId: id, toolName: 'ls', content: [{ type: 'text', text: `${turn}` }] },
    );
  const { messages } = toOpenAIChat({ messages: prepareModelMessages(history) });
  expect(checkChatRequest({ messages })).toBeUndefined();
});
