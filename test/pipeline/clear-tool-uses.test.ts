import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  type AssistantMessage,
  ConfigError,
  clearToolUses,
  estimateContextTokens,
  type Message,
  prepareModelMessages,
  referenceCounter,
  sumMessageTokens,
  type TokenCounter,
} from '../../src/index.js';
import { CLEARED_RESULT_PLACEHOLDER } from '../../src/schemas/index.js';
import { toolCallMessage, toolResultMessage, userMessage } from '../../src/testing/index.js';

const call = (id: string, name = 'bash', args: Record<string, unknown> = { command: `run ${id}` }) =>
  toolCallMessage([{ id, name, arguments: args }]);
const result = (id: string, text: string, name = 'bash') => toolResultMessage(id, text, { toolName: name });
const user = (text: string) => userMessage(text);

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

  it('counts only what is in the context: a hidden call message frees nothing', () => {
    const hiddenCall: AssistantMessage = {
      ...call('x1', 'bash', { q: 'q'.repeat(8_000) }),
      meta: { agentVisible: false },
    };
    const messages: Message[] = [
      user('go'),
      hiddenCall,
      result('x1', 'o'.repeat(400)),
      call('x2'),
      result('x2', 'o'.repeat(4_000)),
    ];
    const output = clearToolUses(messages, { trigger: 10, keep: 1, clearToolInputs: true, clearAtLeast: 1_000 });
    expect(output.cleared).toEqual([]);
    expect(output.messages[1]).toBe(hiddenCall);
    const cleared = clearToolUses(messages, { trigger: 10, keep: 1, clearToolInputs: true });
    expect(cleared.cleared.map((item) => item.toolCallId)).toEqual(['x1']);
    expect(cleared.messages[1]).toBe(hiddenCall);
    expect(cleared.tokensAfter).toBeGreaterThanOrEqual(0);
    expect(cleared.tokensAfter).toBe(estimateContextTokens(cleared.messages));
    expect(cleared.tokensFreed).toBe(cleared.tokensBefore - cleared.tokensAfter);
    expect(cleared.tokensFreed).toBe(cleared.cleared.reduce((sum, item) => sum + item.tokensFreed, 0));
  });

  it('reports tokensAfter as the estimate of the new list when no reported usage covers it', () => {
    const output = clearToolUses(history(), { trigger: 5_000, keep: 2, clearToolInputs: true });
    expect(output.tokensAfter).toBe(estimateContextTokens(output.messages));
    expect(output.tokensFreed).toBe(output.cleared.reduce((sum, item) => sum + item.tokensFreed, 0));
  });

  it('takes the freed tokens off reported usage that predates the clearing, never below zero', () => {
    const answered: AssistantMessage = {
      role: 'assistant',
      content: [{ type: 'text', text: 'ok' }],
      usage: { input: 5_000, output: 10 },
      stopReason: 'stop',
    };
    const messages = [...history(), answered, user('again')];
    const output = clearToolUses(messages, { trigger: 1_000, keep: 1 });
    expect(output.tokensBefore).toBe(estimateContextTokens(messages));
    expect(output.tokensFreed).toBeGreaterThan(0);
    expect(output.tokensAfter).toBe(output.tokensBefore - output.tokensFreed);
    // the library's estimate still trusts the stale usage total until the next response reports new usage
    expect(estimateContextTokens(output.messages)).toBe(output.tokensBefore);
    const tiny = { ...answered, usage: { input: 100, output: 1 } };
    const small = clearToolUses([...history(), tiny, user('again')], { trigger: 10, keep: 0 });
    expect(small.tokensAfter).toBeGreaterThanOrEqual(0);
    expect(small.tokensFreed).toBe(small.tokensBefore - small.tokensAfter);
  });

  it('pairs reused tool-call ids by position, so keep protects the newest call and its input', () => {
    const messages: Message[] = [
      user('go'),
      call('call_0', 'bash', { cmd: 'ls -la /srv' }),
      result('call_0', 'x'.repeat(4_000)),
      call('call_0', 'bash', { cmd: 'cat /srv/config.yaml' }),
      result('call_0', 'port: 8080'),
    ];
    const output = clearToolUses(messages, { trigger: 0, keep: 1, clearToolInputs: true });
    expect(output.cleared).toHaveLength(1);
    expect((output.messages[1] as AssistantMessage).content[0]).toMatchObject({ arguments: {} });
    expect(output.messages[3]).toBe(messages[3]);
    expect(output.messages[4]).toBe(messages[4]);
  });

  it('rejects a counter that is not a TokenCounter, or that counts NaN or below zero', () => {
    expect(() => clearToolUses(history(), { counter: 5 as unknown as TokenCounter })).toThrow(ConfigError);
    expect(() => clearToolUses(history(), { counter: 5 as unknown as TokenCounter })).toThrow(/counter/);
    for (const value of [Number.NaN, -5, Number.POSITIVE_INFINITY]) {
      const counter: TokenCounter = { name: `bad ${value}`, count: () => value };
      expect(() => clearToolUses(history(), { counter, trigger: 0 }), String(value)).toThrow(ConfigError);
    }
    const images: TokenCounter = { name: 'bad images', count: () => 1, imageTokens: -1 };
    expect(() => clearToolUses(history(), { counter: images })).toThrow(/counter/);
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

  const reusedIds = fc
    .array(fc.record({ id: fc.integer({ min: 0, max: 2 }), size: fc.integer({ min: 0, max: 3_000 }) }), {
      maxLength: 20,
    })
    .map((turns) => {
      const messages: Message[] = [user('go')];
      for (const turn of turns) {
        messages.push(call(`call_${turn.id}`, 'bash', { path: 'p'.repeat(40) }));
        messages.push(result(`call_${turn.id}`, 'o'.repeat(turn.size)));
      }
      return messages;
    });

  test.prop([reusedIds, fc.integer({ min: 0, max: 5 })])(
    'with reused ids, the calls of kept results keep their input',
    (messages, keep) => {
      const output = clearToolUses(messages, { trigger: 0, keep, clearToolInputs: true });
      const results = messages.flatMap((message, index) => (message.role === 'toolResult' ? [index] : []));
      for (const index of results.slice(Math.max(0, results.length - keep))) {
        expect(output.messages[index]).toBe(messages[index]);
        expect(output.messages[index - 1]).toBe(messages[index - 1]);
      }
      expect(output.tokensFreed).toBe(output.cleared.reduce((sum, item) => sum + item.tokensFreed, 0));
    },
  );

  test.prop([conversation, settings])('is idempotent', (messages, options) => {
    const once = clearToolUses(messages, options);
    const twice = clearToolUses(once.messages, options);
    expect(twice.messages).toEqual(once.messages);
    expect(twice.cleared).toEqual([]);
  });
});
