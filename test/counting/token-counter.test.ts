import { describe, expect, it } from 'vitest';
import { describeContextTokens } from '../../src/counting/estimate-context-tokens.js';
import {
  type AssistantMessage,
  contextUsage,
  estimateContextTokens,
  estimateMessageTokens,
  type Message,
  referenceCounter,
  resolveConfig,
  shouldCompact,
  type TokenCounter,
} from '../../src/index.js';
import { assistantMessage, userMessage } from '../../src/testing/index.js';

const user = (text: string, meta?: Message['meta']) => userMessage(text, meta);
const assistant = (text: string, extra: Partial<AssistantMessage> = {}): AssistantMessage => ({
  ...assistantMessage(text),
  ...extra,
});

describe('referenceCounter', () => {
  it('is exactly ceil(code points / 4)', () => {
    expect(referenceCounter.count('')).toBe(0);
    expect(referenceCounter.count('abcd')).toBe(1);
    expect(referenceCounter.count('abcde')).toBe(2);
    expect(referenceCounter.count('😀😀😀😀')).toBe(1);
  });
});

describe('estimateMessageTokens', () => {
  it('counts text, thinking and tool-call name and JSON arguments together', () => {
    const message: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'aaaa' },
        { type: 'text', text: 'bbbb' },
        { type: 'toolCall', id: 'c1', name: 'ls', arguments: { p: 1 } },
      ],
    };
    // 4 + 4 + 'ls' (2) + '{"p":1}' (7) = 17 characters
    expect(estimateMessageTokens(message)).toBe(Math.ceil(17 / 4));
  });

  it('charges 1200 per image and adds the per-message overhead', () => {
    const message: Message = {
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        { type: 'image', data: 'xx', mimeType: 'image/png' },
      ],
    };
    expect(estimateMessageTokens(message)).toBe(1 + 1200);
    const counter: TokenCounter = { name: 'c', count: (text) => text.length, imageTokens: 10, messageOverhead: 3 };
    expect(estimateMessageTokens(message, counter)).toBe(4 + 10 + 3);
  });

  it('caches per message object and counter', () => {
    let calls = 0;
    const counter: TokenCounter = {
      name: 'spy',
      count: (text) => {
        calls++;
        return text.length;
      },
    };
    const message = user('hello');
    estimateMessageTokens(message, counter);
    estimateMessageTokens(message, counter);
    expect(calls).toBe(1);
    estimateMessageTokens(user('hello'), counter);
    expect(calls).toBe(2);
  });
});

describe('estimateContextTokens', () => {
  it('estimates every visible message when no usage is reported; hidden messages count zero', () => {
    const messages = [user('aaaa'), user('bbbbbbbb', { agentVisible: false }), assistant('cccc')];
    expect(estimateContextTokens(messages)).toBe(2);
    expect(estimateContextTokens(messages, { systemPrompt: 'dddd' })).toBe(3);
  });

  it('anchors on the last valid assistant usage and estimates what follows', () => {
    const messages = [user('a'.repeat(400)), assistant('ok', { usage: { input: 1000, output: 50 } }), user('bbbb')];
    const estimate = describeContextTokens(messages, { systemPrompt: 'x'.repeat(400) });
    expect(estimate).toMatchObject({
      tokens: 1051,
      source: 'mixed',
      usageIndex: 1,
      usageTokens: 1050,
      estimatedTokens: 1,
    });
  });

  it('counts cache reads and writes in the usage total', () => {
    const messages = [assistant('ok', { usage: { input: 10, output: 5, cacheRead: 100, cacheWrite: 20 } })];
    expect(describeContextTokens(messages)).toMatchObject({ tokens: 135, source: 'usage' });
  });

  it('ignores usage from aborted or errored turns', () => {
    const messages = [user('aaaa'), assistant('x', { usage: { input: 9000, output: 1 }, stopReason: 'aborted' })];
    expect(describeContextTokens(messages).source).toBe('estimate');
    const errored = [user('aaaa'), assistant('x', { usage: { input: 9000, output: 1 }, stopReason: 'error' })];
    expect(describeContextTokens(errored).source).toBe('estimate');
  });

  it('ignores usage older than the latest compaction summary', () => {
    const messages: Message[] = [
      assistant('old', { usage: { input: 90_000, output: 100 } }),
      user('[Previous conversation summary]\nshort', { kind: 'compaction_summary' }),
      user('next'),
    ];
    const estimate = describeContextTokens(messages);
    expect(estimate.source).toBe('estimate');
    expect(estimate.tokens).toBeLessThan(100);
  });
});

describe('contextUsage and shouldCompact', () => {
  const big = (tokens: number) => user('x'.repeat(tokens * 4));

  it('compacts exactly when the estimate reaches the limit', () => {
    const config = resolveConfig({ contextWindow: 100_000, reserveTokens: 10_000 });
    expect(shouldCompact([big(89_999)], { config })).toBe(false);
    expect(shouldCompact([big(90_000)], { config })).toBe(true);
  });

  it('warns from the warning threshold of the window', () => {
    const config = resolveConfig({ contextWindow: 100_000, reserveTokens: 10_000 });
    expect(contextUsage([big(79_999)], { config }).level).toBe('ok');
    expect(contextUsage([big(80_000)], { config })).toMatchObject({ level: 'warning', ratio: 0.8, limit: 90_000 });
  });

  it('uses maxTokens without a window', () => {
    expect(shouldCompact([big(7999)])).toBe(false);
    expect(shouldCompact([big(8000)])).toBe(true);
  });

  it('falls back to the visible message count when no token limit exists', () => {
    const config = resolveConfig({ maxTokens: 0, maxMessages: 3 });
    const three = [user('a'), user('b'), user('c')];
    expect(shouldCompact(three, { config })).toBe(false);
    expect(shouldCompact([...three, user('d')], { config })).toBe(true);
    expect(shouldCompact([...three, user('d', { agentVisible: false })], { config })).toBe(false);
  });

  it('never compacts with autoCompact off', () => {
    expect(shouldCompact([big(100_000)], { config: { autoCompact: false } })).toBe(false);
  });
});
