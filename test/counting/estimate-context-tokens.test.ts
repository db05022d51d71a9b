import { describe, expect, it } from 'vitest';
import { describeContextTokens, findUsageAnchor, isValidUsage } from '../../src/counting/estimate-context-tokens.js';
import {
  type AssistantMessage,
  ContextError,
  contextUsage,
  estimateContextTokens,
  shouldCompact,
  type Usage,
} from '../../src/index.js';
import { createSummaryMessage } from '../../src/summarizing/index.js';
import { assistantMessage, userMessage } from '../../src/testing/index.js';

const user = (text: string) => userMessage(text);
const assistant = (usage: Usage) => assistantMessage('ok', { usage });

describe('usage that cannot anchor an estimate', () => {
  it.each([
    ['an infinite total', { input: 10, output: 5, total: Number.POSITIVE_INFINITY }],
    ['a NaN total', { input: 10, output: 5, total: Number.NaN }],
    ['a negative total', { input: 10, output: 5, total: -1 }],
    ['an infinite input', { input: Number.POSITIVE_INFINITY, output: 5 }],
  ])('is not valid with %s, so the estimate falls back to counting', (_, usage) => {
    const messages = [user('aaaa'), assistant(usage)];
    expect(isValidUsage(messages[1] as AssistantMessage)).toBe(false);
    expect(findUsageAnchor(messages)).toBe(-1);
  });

  it('is rejected at the public boundary with INPUT_INVALID naming the field, never returned as Infinity', () => {
    const messages = [user('aaaa'), assistant({ input: 10, output: 5, total: Number.POSITIVE_INFINITY })];
    expect(() => estimateContextTokens(messages)).toThrow(/messages\[1\]\.usage\.total/);
  });

  it('a finite total above the parts is still used', () => {
    const messages = [user('aaaa'), assistant({ input: 10, output: 5, total: 40 })];
    expect(describeContextTokens(messages)).toMatchObject({ tokens: 40, source: 'usage' });
  });
});

describe('input checks', () => {
  const functions: [string, (messages: never) => unknown][] = [
    ['estimateContextTokens', (messages) => estimateContextTokens(messages)],
    ['describeContextTokens', (messages) => describeContextTokens(messages)],
    ['contextUsage', (messages) => contextUsage(messages)],
    ['shouldCompact', (messages) => shouldCompact(messages)],
  ];
  it.each(functions)('%s rejects malformed messages with INPUT_INVALID naming the index and field', (name, call) => {
    for (const [bad, where] of [
      [null, 'messages must be an array'],
      [[null], 'messages[0]'],
      [[user('ok'), { role: 'user', content: 5 }], 'messages[1].content'],
    ] as const) {
      let caught: unknown;
      try {
        call(bad as never);
      } catch (error) {
        caught = error;
      }
      expect(ContextError.isInstance(caught)).toBe(true);
      expect((caught as ContextError).code).toBe('INPUT_INVALID');
      expect((caught as ContextError).message).toContain(`${name}: ${where}`);
    }
  });
});

describe('a summary whose meta was lost', () => {
  it('still marks older usage as stale', () => {
    const { meta: _, ...stripped } = createSummaryMessage('Goal: ship');
    const messages = [user('a'.repeat(400)), assistant({ input: 90_000, output: 100 }), stripped, user('bbbb')];
    expect(describeContextTokens(messages)).toMatchObject({ source: 'estimate', usageIndex: -1 });
  });
});
