import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  type AssistantMessage,
  CLEARED_RESULT_PLACEHOLDER,
  ConfigError,
  clearToolUses,
  type Message,
  prepareModelMessages,
  referenceCounter,
  sumMessageTokens,
  type ToolResultMessage,
} from '../../src/index.js';

const call = (
  id: string,
  name = 'bash',
  args: Record<string, unknown> = { command: `run ${id}` },
): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'toolCall', id, name, arguments: args }],
  stopReason: 'toolUse',
});
const result = (id: string, text: string, name = 'bash'): ToolResultMessage => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: name,
  content: [{ type: 'text', text }],
});
const user = (text: string): Message => ({ role: 'user', content: text });

/** Six bash calls of 1,000 tokens each and one memory call. */
function history(): Message[] {
  const messages: Message[] = [user('start')];
  for (let index = 1; index <= 6; index++) messages.push(call(`c${index}`), result(`c${index}`, 'x'.repeat(4_000)));
  messages.splice(
    3,
    0,
    call('m1', 'memory', { command: 'view', path: '/memories' }),
    result('m1', 'm'.repeat(4_000), 'memory'),
  );
  return messages;
}
const textOf = (message: Message | undefined) =>
  message?.role === 'toolResult' && message.content[0]?.type === 'text' ? message.content[0].text : undefined;

describe('clearToolUses', () => {
  it('does nothing below the trigger', () => {
    const messages = history();
    const cleared = clearToolUses(messages, { trigger: 100_000 });
    expect(cleared.cleared).toEqual([]);
    expect(cleared.messages).toEqual(messages);
  });

  it('clears the oldest results past the trigger, keeping the newest and the memory tool', () => {
    const messages = history();
    const output = clearToolUses(messages, { trigger: 5_000, keep: 2 });
    expect(output.cleared.map((item) => item.toolCallId)).toEqual(['c1', 'c2', 'c3', 'c4']);
    expect(textOf(output.messages.find((m) => m.role === 'toolResult' && m.toolCallId === 'c1'))).toBe(
      CLEARED_RESULT_PLACEHOLDER,
    );
    expect(textOf(output.messages.find((m) => m.role === 'toolResult' && m.toolCallId === 'm1'))).toBe(
      'm'.repeat(4_000),
    );
    expect(textOf(output.messages.find((m) => m.role === 'toolResult' && m.toolCallId === 'c6'))).toBe(
      'x'.repeat(4_000),
    );
    expect(output.tokensFreed).toBeGreaterThan(3_900);
    expect(output.tokensAfter).toBe(output.tokensBefore - output.tokensFreed);
    expect(output.messages).toHaveLength(messages.length);
    expect(output.messages[1]).toBe(messages[1]); // calls stay, unchanged
  });

  it('clears nothing when less than clearAtLeast would be freed', () => {
    const output = clearToolUses(history(), { trigger: 5_000, keep: 5, clearAtLeast: 1_900 });
    expect(output.cleared).toEqual([]);
    expect(clearToolUses(history(), { trigger: 5_000, keep: 4, clearAtLeast: 1_900 }).cleared).toHaveLength(2);
  });

  it('optionally clears the inputs of the cleared calls', () => {
    const messages = history();
    const output = clearToolUses(messages, { trigger: 5_000, keep: 5, clearToolInputs: true });
    const first = output.messages[1] as AssistantMessage;
    expect(first.content[0]).toMatchObject({ type: 'toolCall', id: 'c1', arguments: {} });
    expect((messages[1] as AssistantMessage).content[0]).toMatchObject({ arguments: { command: 'run c1' } });
  });

  it('honours excludeTools and a custom placeholder', () => {
    const output = clearToolUses(history(), { trigger: 5_000, keep: 0, excludeTools: ['bash'], placeholder: '[gone]' });
    expect(output.cleared.map((item) => item.toolName)).toEqual(['memory']);
    expect(textOf(output.messages[4])).toBe('[gone]');
  });

  it('validates its options', () => {
    expect(() => clearToolUses([], { keep: -1 })).toThrow(ConfigError);
    expect(() => clearToolUses([], { trigger: 1.5 })).toThrow(/trigger/);
    expect(() => clearToolUses([], { placeholder: '' })).toThrow(/placeholder/);
  });

  const conversation = fc
    .array(
      fc.record({
        tool: fc.constantFrom('bash', 'read_file', 'memory'),
        size: fc.integer({ min: 0, max: 3_000 }),
        answered: fc.boolean(),
        input: fc.boolean(),
      }),
      { maxLength: 25 },
    )
    .map((turns) => {
      const messages: Message[] = [user('go')];
      turns.forEach((turn, index) => {
        const id = `t${index}`;
        messages.push(call(id, turn.tool, turn.input ? { path: 'p'.repeat(40) } : {}));
        if (turn.answered) messages.push(result(id, 'o'.repeat(turn.size), turn.tool));
        messages.push(user(`next ${index}`));
      });
      return messages;
    });
  const settings = fc.record({
    trigger: fc.integer({ min: 0, max: 20_000 }),
    keep: fc.integer({ min: 0, max: 6 }),
    clearAtLeast: fc.integer({ min: 0, max: 3_000 }),
    clearToolInputs: fc.boolean(),
  });

  test.prop([conversation, settings])(
    'keeps pairing, exclusions, the newest results and the input intact',
    (messages, options) => {
      const snapshot = structuredClone(messages);
      const output = clearToolUses(messages, options);
      expect(messages).toEqual(snapshot);
      expect(output.messages).toHaveLength(messages.length);
      expect(prepareModelMessages(output.messages).length).toBe(prepareModelMessages(messages).length);
      const results = messages.flatMap((message, index) =>
        message.role === 'toolResult' && message.toolName !== 'memory' ? [index] : [],
      );
      const newest = new Set(results.slice(Math.max(0, results.length - options.keep)));
      for (const [index, message] of messages.entries()) {
        const after = output.messages[index]!;
        expect(after.role).toBe(message.role);
        if (message.role === 'toolResult') expect(after).toMatchObject({ toolCallId: message.toolCallId });
        if (message.role === 'toolResult' && (message.toolName === 'memory' || newest.has(index)))
          expect(after).toBe(message);
      }
      expect(sumMessageTokens(output.messages, referenceCounter)).toBeLessThanOrEqual(
        sumMessageTokens(messages, referenceCounter),
      );
    },
  );

  test.prop([conversation, settings])('is idempotent', (messages, options) => {
    const once = clearToolUses(messages, options);
    const twice = clearToolUses(once.messages, options);
    expect(twice.messages).toEqual(once.messages);
    expect(twice.cleared).toEqual([]);
  });
});
