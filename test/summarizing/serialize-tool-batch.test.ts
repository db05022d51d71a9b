// The tool-batch serializer, pinned against its plain definition (callbacks over arrays) after it
// was written as loops, and the fair shares it gives each group, by their properties.
import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { codePointLength } from '../../src/internal/clip-text.js';
import { withCallIds } from '../../src/manager/internal/sent-messages.js';
import { withTheirCalls } from '../../src/pipeline/internal/tool-summary-input.js';
import { serializeMessages } from '../../src/summarizing/serialize-conversation.js';
import { serializeToolBatch } from '../../src/summarizing/tool-output/serialize-tool-batch.js';
import { shareBudget } from '../../src/summarizing/tool-output/share-budget.js';
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
  const full = groups.map((group) => serializeMessages(group));
  const shares = shareBudget(full.map(codePointLength), maxChars - Math.max(0, groups.length - 1) * 2);
  return groups
    .map((group, index) => {
      if (codePointLength(full[index]!) <= shares[index]!) return full[index]!;
      const frame = codePointLength(
        serializeMessages(
          group.map((message) =>
            message.role === 'toolResult' ? { ...message, content: [{ type: 'text' as const, text: '' }] } : message,
          ),
        ),
      );
      return serializeMessages(group, { toolResultMaxChars: Math.max(200, shares[index]! - frame) });
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
