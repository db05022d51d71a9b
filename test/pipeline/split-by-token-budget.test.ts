import { describe, expect, it } from 'vitest';
import { type Message, splitByCount, splitByTokenBudget } from '../../src/index.js';
import { toolCallMessage, toolResultMessage, userMessage } from '../../src/testing/index.js';

// Each character is a quarter token under the reference counter: text of 4n characters costs n tokens.
const user = (tokens: number, meta?: Message['meta']) => userMessage('u'.repeat(tokens * 4), meta);
const call = (ids: string[]) => toolCallMessage(ids.map((id) => ({ id, name: 't' })));
const result = (id: string, tokens: number) => toolResultMessage(id, 'r'.repeat(tokens * 4), { toolName: 't' });

describe('splitByTokenBudget', () => {
  it('keeps the newest messages that fit the budget', () => {
    const messages = [user(10), user(10), user(10)];
    const split = splitByTokenBudget(messages, { budget: 20 });
    expect(split.cutIndex).toBe(1);
    expect(split.recent).toEqual(messages.slice(1));
    expect(split.recentTokens).toBe(20);
    expect([...split.old, ...split.recent]).toEqual(messages);
  });

  it('moves the cut forward rather than start the tail with an orphaned result', () => {
    // call(a) costs 1 token ('t{}' = 3 chars); result(a) 10; user 5.
    const messages = [user(5), call(['a']), result('a', 10), user(5)];
    const split = splitByTokenBudget(messages, { budget: 15 });
    expect(split.recent).toEqual([messages[3]]);
  });

  it('keeps parallel calls with all their results', () => {
    const messages = [user(5), call(['a', 'b']), result('a', 3), result('b', 3), user(1)];
    const split = splitByTokenBudget(messages, { budget: 5 });
    expect(split.recent[0]?.role).not.toBe('toolResult');
    const whole = splitByTokenBudget(messages, { budget: 9 });
    expect(whole.recent).toEqual(messages.slice(1));
  });

  it('returns the smallest valid tail when nothing fits, never an empty one', () => {
    const messages = [user(5), call(['a']), result('a', 100)];
    const split = splitByTokenBudget(messages, { budget: 10 });
    expect(split.recent).toEqual(messages.slice(1));
    expect(split.recentTokens).toBeGreaterThan(10);
    expect(splitByTokenBudget([user(50)], { budget: 0 }).recent).toHaveLength(1);
    expect(splitByTokenBudget([], { budget: 10 })).toMatchObject({ old: [], recent: [], recentTokens: 0 });
  });

  it('counts hidden messages as zero', () => {
    const messages = [user(10), user(1000, { agentVisible: false }), user(10)];
    expect(splitByTokenBudget(messages, { budget: 20 }).cutIndex).toBe(0);
  });

  it('rejects a negative budget', () => {
    expect(() => splitByTokenBudget([], { budget: -1 })).toThrow(
      'splitByTokenBudget: options.budget must be a finite number ≥ 0 (got -1)',
    );
  });
});

describe('splitByCount', () => {
  it('keeps the newest visible messages, extending back to keep calls with results', () => {
    const messages = [user(1), call(['a']), result('a', 1), user(1)];
    expect(splitByCount(messages, { keep: 1 }).cutIndex).toBe(3);
    expect(splitByCount(messages, { keep: 2 }).cutIndex).toBe(1);
    expect(splitByCount(messages, { keep: 0 }).recent).toHaveLength(1);
  });

  it('does not count hidden messages toward keep', () => {
    const messages = [user(1), user(1), user(1, { agentVisible: false })];
    expect(splitByCount(messages, { keep: 1 }).cutIndex).toBe(1);
  });
});
