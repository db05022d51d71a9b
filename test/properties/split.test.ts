import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import {
  estimateMessageTokens,
  isAgentVisible,
  type Message,
  referenceCounter,
  splitByCount,
  splitByTokenBudget,
} from '../../src/index.js';
import { arbitraryConversation, checkSplitKeepsToolPairs, deepFreeze } from '../../src/testing/index.js';

/** Well-formed conversations, and broken ones: any subset of one, in any order. */
const conversations = fc.oneof(
  arbitraryConversation({ maxLength: 40 }),
  arbitraryConversation({ maxLength: 30 }).chain((messages) => fc.shuffledSubarray(messages)),
);

/** Boundaries that keep every call with its later results, computed independently of the core. */
function validCuts(messages: readonly Message[]): boolean[] {
  const callAt = new Map<string, number>();
  const valid = Array.from({ length: messages.length + 1 }, () => true);
  messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      for (const part of message.content) if (part.type === 'toolCall') callAt.set(part.id, index);
    } else if (message.role === 'toolResult') {
      const call = callAt.get(message.toolCallId);
      if (call !== undefined) for (let cut = call + 1; cut <= index; cut++) valid[cut] = false;
    }
  });
  return valid;
}

function visibleTokens(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages)
    if (isAgentVisible(message)) total += estimateMessageTokens(message, referenceCounter);
  return total;
}

test.prop([conversations, fc.integer({ min: 0, max: 3_000 })])(
  'splitByTokenBudget: old ++ recent is the input, the cut keeps tool pairs, the budget holds unless recent is the smallest valid tail',
  (messages, budget) => {
    const input = deepFreeze(messages);
    const { old, recent, recentTokens, cutIndex } = splitByTokenBudget(input, { budget });
    expect([...old, ...recent]).toEqual(input);
    for (const [index, message] of [...old, ...recent].entries()) expect(message).toBe(input[index]);
    expect(cutIndex).toBe(old.length);
    if (input.length > 0) expect(recent.length).toBeGreaterThan(0);
    expect(checkSplitKeepsToolPairs(old, recent)).toEqual([]);
    expect(validCuts(input)[cutIndex]).toBe(true);
    expect(recentTokens).toBe(visibleTokens(recent));
    if (recentTokens > budget) {
      const valid = validCuts(input);
      let smallest = input.length - 1;
      while (smallest > 0 && !valid[smallest]) smallest--;
      expect(cutIndex).toBe(smallest);
    }
  },
);

test.prop([conversations, fc.integer({ min: 0, max: 12 })])(
  'splitByCount: old ++ recent is the input, the cut keeps tool pairs, at least `keep` visible messages are kept',
  (messages, keep) => {
    const input = deepFreeze(messages);
    const { old, recent, cutIndex } = splitByCount(input, { keep });
    expect([...old, ...recent]).toEqual(input);
    if (input.length > 0) expect(recent.length).toBeGreaterThan(0);
    expect(checkSplitKeepsToolPairs(old, recent)).toEqual([]);
    expect(validCuts(input)[cutIndex]).toBe(true);
    const visible = input.filter(isAgentVisible).length;
    expect(recent.filter(isAgentVisible).length).toBeGreaterThanOrEqual(Math.min(Math.max(1, keep), visible));
  },
);
