// The tool-batch serializer, pinned against its plain definition (callbacks over arrays) after it
// was written as loops, and the fair shares it gives each group, by their properties.
import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { clipText, codePointLength } from '../../src/internal/clip-text.js';
import { withCallIds } from '../../src/manager/internal/sent-messages.js';
import { withTheirCalls } from '../../src/pipeline/tool-summary-input.js';
import { commandOf, outcomeOf } from '../../src/summarizing/anchors/tool-facts.js';
import { contentText, serializeMessages } from '../../src/summarizing/serialize-conversation.js';
import { serializeToolBatch } from '../../src/summarizing/tool-output/serialize-tool-batch.js';
import { shareBudget } from '../../src/summarizing/tool-output/share-budget.js';
import { digestToolOutput } from '../../src/summarizing/tool-output/summarize-tool-output.js';
import { arbitraryConversation } from '../../src/testing/index.js';
import type { AssistantMessage, Message, ToolCall, ToolResultMessage } from '../../src/types.js';

/** The definition of the batch text, as first written with callbacks. */
function referenceBatch(pairs: readonly Message[], maxChars: number): string {
  const groups: Message[][] = [];
  for (const message of pairs) {
    const last = groups[groups.length - 1];
    if (message.role === 'toolResult' && last && last[last.length - 1]?.role === 'assistant') last.push(message);
    else groups.push([message]);
  }
  // A pair whose call and result an earlier pair had reads as a note instead of the output again.
  const keys = groups.map((group) => {
    const [assistant, result] = group;
    if (group.length !== 2 || assistant?.role !== 'assistant' || result?.role !== 'toolResult') return undefined;
    const call = assistant.content.find((part) => part.type === 'toolCall' && part.id === result.toolCallId);
    if (call?.type !== 'toolCall') return undefined;
    return JSON.stringify([call.name, call.arguments, result.isError === true, contentText(result.content)]);
  });
  keys.forEach((key, index) => {
    if (key === undefined || keys.indexOf(key) === index) return;
    groups[index] = groups[index]!.map((message) =>
      message.role === 'toolResult'
        ? { ...message, content: [{ type: 'text' as const, text: '(the same output as the same call above)' }] }
        : message,
    );
  });
  const full = groups.map((group) => serializeMessages(group));
  const failed = (group: Message[]) => {
    const result = group.at(-1)!;
    return result.role === 'toolResult' && !outcomeOf(result, contentText(result.content)).ok;
  };
  const shares = shareBudget(
    full.map(codePointLength),
    maxChars - Math.max(0, groups.length - 1) * 2,
    groups.map((group) => (failed(group) ? 4 : 1)),
  );
  return groups
    .map((group, index) => {
      if (codePointLength(full[index]!) <= shares[index]!) return full[index]!;
      const empty = (message: Message) =>
        message.role === 'toolResult' ? { ...message, content: [{ type: 'text' as const, text: '' }] } : message;
      const room = Math.max(200, shares[index]! - codePointLength(serializeMessages(group.map(empty))));
      const result = group.at(-1)!;
      if (result.role !== 'toolResult') return serializeMessages(group, { toolResultMaxChars: room });
      const output = contentText(result.content);
      const call =
        group[0]!.role === 'assistant' ? group[0]!.content.find((part) => part.type === 'toolCall') : undefined;
      const command = call && commandOf(call);
      const digest = digestToolOutput(output, { maxChars: Math.floor(room * 0.6), command, exit: 'known' });
      const label = '\n[output, head and tail:]\n';
      const rest = room - codePointLength(digest) - codePointLength(label);
      const text = rest > 0 ? digest + label + clipText(output, rest, 'head_tail') : digest;
      return serializeMessages(
        group.map((message) =>
          message === result ? { ...result, content: [{ type: 'text' as const, text }] } : message,
        ),
      );
    })
    .join('\n\n');
}

test.prop([fc.array(fc.nat({ max: 5_000 }), { maxLength: 30 }), fc.integer({ min: -10, max: 20_000 })])(
  'shareBudget fills the needs evenly: nobody over its need, nothing left while a need is open, no share above an open one but by the one unit handed out in order',
  (needs, total) => {
    const shares = shareBudget(needs, total);
    const budget = Math.max(0, total);
    const needed = needs.reduce((sum, need) => sum + need, 0);
    expect(shares).toHaveLength(needs.length);
    shares.forEach((share, index) => {
      expect(Number.isInteger(share) && share >= 0 && share <= needs[index]!).toBe(true);
    });
    expect(shares.reduce((sum, share) => sum + share, 0)).toBe(Math.min(budget, needed));
    const open = shares.flatMap((share, index) => (share < needs[index]! ? [index] : []));
    for (const index of open) {
      // Water-filling: an item still short of its need got at least what any other got, less the
      // one unit of the remainder, which goes to the earlier items.
      shares.forEach((share, other) => {
        expect(share).toBeLessThanOrEqual(shares[index]! + (other < index ? 1 : 0));
      });
    }
  },
);

test.prop([
  fc.array(fc.record({ need: fc.nat({ max: 5_000 }), weight: fc.integer({ min: 1, max: 5 }) }), { maxLength: 30 }),
  fc.integer({ min: -10, max: 20_000 }),
])('shareBudget with weights spends what is needed or all it has, nobody over its need', (items, total) => {
  const needs = items.map((item) => item.need);
  const shares = shareBudget(
    needs,
    total,
    items.map((item) => item.weight),
  );
  const needed = needs.reduce((sum, need) => sum + need, 0);
  expect(shares.reduce((sum, share) => sum + share, 0)).toBe(Math.min(Math.max(0, total), needed));
  shares.forEach((share, index) => {
    expect(Number.isInteger(share) && share >= 0 && share <= needs[index]!).toBe(true);
  });
});

test.prop([arbitraryConversation({ maxLength: 30 }), fc.integer({ min: 0, max: 4_000 })], { numRuns: 150 })(
  'serializeToolBatch writes the text of its definition, cut or not',
  (conversation, maxChars) => {
    const results = conversation.filter(
      (message): message is ToolResultMessage => message.role === 'toolResult' && message.meta?.agentVisible !== false,
    );
    const pairs = withTheirCalls(conversation, results);
    expect(serializeToolBatch(pairs, maxChars)).toBe(referenceBatch(pairs, maxChars));
  },
);

/** Tool calls of other shapes than the usual four keys: provider data, another key order, a key ctxkit does not model. */
const reshaped = (message: AssistantMessage): AssistantMessage[] => [
  message,
  ...[
    (call: ToolCall): ToolCall => ({ ...call, providerData: { openai: { status: 'completed' } } }),
    (call: ToolCall): ToolCall => ({ id: call.id, type: call.type, name: call.name, arguments: call.arguments }),
    (call: ToolCall): ToolCall => Object.assign({ ...call }, { extra: 1 }),
  ].map((reshape) => ({
    ...message,
    content: message.content.map((part) => (part.type === 'toolCall' ? reshape(part) : part)),
  })),
];

test.prop([arbitraryConversation({ maxLength: 20 })])(
  'withCallIds renames the calls in order and keeps every other part and key, in order',
  (conversation) => {
    for (const original of conversation) {
      if (original.role !== 'assistant') continue;
      for (const message of reshaped(original)) {
        const calls = message.content.filter((part) => part.type === 'toolCall');
        const ids = calls.map((_, rank) => ({ id: `renamed_${rank}` }));
        let rank = 0;
        const expected: AssistantMessage = {
          ...message,
          content: message.content.map((part) => (part.type === 'toolCall' ? { ...part, id: ids[rank++]!.id } : part)),
        };
        const actual = withCallIds(message, ids);
        expect(actual).toEqual(expected);
        expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
        expect(actual.content.map((part) => Object.keys(part))).toEqual(
          expected.content.map((part) => Object.keys(part)),
        );
      }
    }
  },
);
