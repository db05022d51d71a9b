// The tool-batch serializer and its fair shares, pinned against their plain definitions (callbacks
// over arrays) after they were written as loops.
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

/** The definition of the shares: water-filling, as first written with map and filter. */
function referenceShares(needs: readonly number[], total: number): number[] {
  const shares = needs.map(() => 0);
  let left = Math.max(0, Math.floor(total));
  let open = needs.map((_, index) => index).filter((index) => needs[index]! > 0);
  while (open.length > 0 && left > 0) {
    const each = Math.floor(left / open.length);
    if (each === 0) {
      for (const index of open) {
        if (left === 0) break;
        shares[index]!++;
        left--;
      }
      break;
    }
    const still: number[] = [];
    for (const index of open) {
      const give = Math.min(each, needs[index]! - shares[index]!);
      shares[index]! += give;
      left -= give;
      if (shares[index]! < needs[index]!) still.push(index);
    }
    open = still;
  }
  return shares;
}

/** The definition of the batch text, as first written with callbacks. */
function referenceBatch(pairs: readonly Message[], maxChars: number): string {
  const groups: Message[][] = [];
  for (const message of pairs) {
    const last = groups[groups.length - 1];
    if (message.role === 'toolResult' && last && last[last.length - 1]?.role === 'assistant') last.push(message);
    else groups.push([message]);
  }
  const full = groups.map((group) => serializeMessages(group));
  const shares = referenceShares(full.map(codePointLength), maxChars - Math.max(0, groups.length - 1) * 2);
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
  'shareBudget gives the shares of its definition',
  (needs, total) => {
    expect(shareBudget(needs, total)).toEqual(referenceShares(needs, total));
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
