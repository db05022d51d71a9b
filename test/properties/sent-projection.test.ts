import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import {
  estimateMessageTokens,
  type Message,
  prepareModelMessages,
  referenceCounter,
  sumMessageTokens,
  type ToolResultMessage,
} from '../../src/index.js';
import { SentProjection } from '../../src/manager/sent-projection.js';
import { arbitraryConversation } from '../../src/testing/index.js';

const count = (message: Message) => estimateMessageTokens(message, referenceCounter);

/** Builds the projection of `messages` one message at a time (from scratch, seeded with every id, when it asks for a rebuild). */
function project(messages: readonly Message[]): SentProjection {
  let projection = new SentProjection(count);
  for (const message of messages) {
    if (!projection.append(message)) {
      projection = new SentProjection(count);
      projection.seedIds(messages);
      for (const again of messages) expect(projection.append(again)).toBe(true);
      return projection;
    }
  }
  return projection;
}

/** Where each message of `messages` is sent (its `lastPosition` once appended), by history index. */
function positionsIn(messages: readonly Message[]): number[] {
  const projection = new SentProjection(count);
  projection.seedIds(messages);
  return messages.map((message) => {
    expect(projection.append(message)).toBe(true);
    return projection.lastPosition;
  });
}

test.prop([arbitraryConversation({ maxLength: 40 })], { numRuns: 150 })(
  'built one message at a time, the projection equals prepareModelMessages at every length, with the same token sum',
  (conversation) => {
    let projection = new SentProjection(count);
    for (let length = 1; length <= conversation.length; length++) {
      const prefix = conversation.slice(0, length);
      if (!projection.append(conversation[length - 1]!)) projection = project(prefix);
      const expected = prepareModelMessages(prefix);
      expect(projection.sent).toEqual(expected);
      expect(projection.estimate).toBe(sumMessageTokens(expected, referenceCounter));
    }
  },
);

test.prop([arbitraryConversation({ maxLength: 40 }), fc.array(fc.nat(), { maxLength: 6 })], { numRuns: 150 })(
  'archiving tool results in place equals projecting the changed history from scratch',
  (conversation, picks) => {
    const history = [...conversation];
    const projection = project(history);
    const positions = positionsIn(history);
    const results = history.flatMap((message, index) => (message.role === 'toolResult' ? [index] : []));
    for (const pick of picks) {
      if (results.length === 0) break;
      const index = results[pick % results.length]!;
      const archived: ToolResultMessage = {
        ...(history[index] as ToolResultMessage),
        meta: { ...history[index]!.meta, agentVisible: false, kind: 'tool_result_archived' },
      };
      history[index] = archived;
      projection.replaceResult(positions[index]!, archived);
      const expected = prepareModelMessages(history);
      expect(projection.sent).toEqual(expected);
      expect(projection.estimate).toBe(sumMessageTokens(expected, referenceCounter));
    }
  },
);

test.prop([fc.integer({ min: 1, max: 120 })], { numRuns: 30 })(
  'reused ids are renamed as prepareModelMessages renames them',
  (turns) => {
    const history: Message[] = [];
    for (let turn = 0; turn < turns; turn++) {
      history.push(
        { role: 'assistant', content: [{ type: 'toolCall', id: 'call_0', name: 'ls', arguments: {} }] },
        { role: 'toolResult', toolCallId: 'call_0', toolName: 'ls', content: [{ type: 'text', text: `out ${turn}` }] },
      );
    }
    expect(project(history).sent).toEqual(prepareModelMessages(history));
  },
);

test('a raw id equal to a fresh id made earlier asks for a rebuild, which then matches', () => {
  const call = (id: string): Message => ({
    role: 'assistant',
    content: [{ type: 'toolCall', id, name: 'ls', arguments: {} }],
  });
  const result = (id: string): Message => ({
    role: 'toolResult',
    toolCallId: id,
    toolName: 'ls',
    content: [{ type: 'text', text: id }],
  });
  const history = [
    call('call_0'),
    result('call_0'),
    call('call_0'),
    result('call_0'),
    call('call_0_2'),
    result('call_0_2'),
  ];
  const projection = new SentProjection(count);
  const accepted = history.map((message) => projection.append(message));
  expect(accepted.slice(0, 5)).toEqual([true, true, true, true, false]);
  expect(project(history).sent).toEqual(prepareModelMessages(history));
});

/** Steps of calls whose ids come from a small pool (reused, some equal to renamed ones, some twice in one message) or are new. */
const arbitraryIdSteps = fc.array(
  fc.record({
    ids: fc.array(
      fc.oneof(fc.constantFrom('a', 'b', 'a_2', 'a_3', 'b_2', 'abcdefgh2', 'abcdefgh3'), fc.constant('new')),
      {
        minLength: 1,
        maxLength: 3,
      },
    ),
    answered: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    stopReason: fc.constantFrom('toolUse' as const, 'toolUse' as const, 'aborted' as const),
  }),
  { minLength: 30, maxLength: 120 },
);

test.prop([arbitraryIdSteps], { numRuns: 60 })(
  'with reused, marked and many unique ids, the projection equals prepareModelMessages and sends each id once',
  (steps) => {
    const history: Message[] = [];
    let next = 0;
    for (const step of steps) {
      const ids = step.ids.map((id) => (id === 'new' ? `call_${next++}` : id));
      history.push({
        role: 'assistant',
        content: ids.map((id) => ({ type: 'toolCall' as const, id, name: 'ls', arguments: {} })),
        stopReason: step.stopReason,
      });
      ids.forEach((id, rank) => {
        if (step.answered[rank])
          history.push({ role: 'toolResult', toolCallId: id, toolName: 'ls', content: [{ type: 'text', text: id }] });
      });
    }
    const sent = project(history).sent;
    expect(sent).toEqual(prepareModelMessages(history));
    const callIds = sent.flatMap((message) =>
      message.role === 'assistant'
        ? message.content.flatMap((part) => (part.type === 'toolCall' ? [part.id] : []))
        : [],
    );
    expect(new Set(callIds).size).toBe(callIds.length);
  },
);
