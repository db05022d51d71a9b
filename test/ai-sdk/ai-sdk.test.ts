import { ContextError, createContextManager, heuristicSummarizer, type Message } from 'ctxkit';
import {
  ctxkitMiddleware,
  fromFinishReason,
  fromLanguageModelUsage,
  fromModelMessages,
  fromStepResult,
  toModelMessages,
} from 'ctxkit/ai-sdk';
import { toolResultMessage } from 'ctxkit/testing';
import { describe, expect, it, vi } from 'vitest';

const result = (id: string, text: string) => toolResultMessage(id, text, { toolName: 'bash' });

describe('toModelMessages', () => {
  it('puts the results of one assistant turn in one tool message and drops what providers reject', () => {
    const { messages, warnings } = toModelMessages({
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: ' ' },
            { type: 'toolCall', id: 'a', name: 'bash', arguments: { command: 'ls' } },
            { type: 'toolCall', id: 'b', name: 'bash', arguments: {} },
          ],
        },
        result('a', 'x.ts'),
        { ...result('b', 'boom'), isError: true },
        { role: 'assistant', content: [] },
        { role: 'user', content: '' },
      ],
    });
    expect(messages).toEqual([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'a', toolName: 'bash', input: { command: 'ls' } },
          { type: 'tool-call', toolCallId: 'b', toolName: 'bash', input: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'a', toolName: 'bash', output: { type: 'text', value: 'x.ts' } },
          { type: 'tool-result', toolCallId: 'b', toolName: 'bash', output: { type: 'error-text', value: 'boom' } },
        ],
      },
    ]);
    expect(warnings.map((warning) => warning.index)).toEqual([1, 4, 5]);
  });

  it('sends a JSON output that was truncated as text, with a warning', () => {
    const { messages } = fromModelMessages([
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'read', input: {} }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c',
            toolName: 'read',
            output: { type: 'json', value: { lines: [1, 2] } },
          },
        ],
      },
    ]);
    expect(messages[1]).toMatchObject({ role: 'toolResult', content: [{ type: 'text', text: '{"lines":[1,2]}' }] });
    const truncated = {
      ...(messages[1] as Extract<Message, { role: 'toolResult' }>),
      content: [{ type: 'text' as const, text: '{"lines":[1,' }],
    };
    const back = toModelMessages({ messages: [messages[0]!, truncated] });
    expect(back.messages[1]).toMatchObject({ content: [{ output: { type: 'text', value: '{"lines":[1,' } }] });
    expect(back.warnings).toHaveLength(1);
  });

  it('names the index and field of malformed input', () => {
    expect(() =>
      fromModelMessages([{ role: 'user', content: 'ok' }, { role: 'robot', content: 'x' } as never]),
    ).toThrow("fromModelMessages: messages[1].role must be 'system', 'user', 'assistant' or 'tool'.");
    expect(() =>
      fromModelMessages([{ role: 'tool', content: [{ type: 'tool-result', toolCallId: '', toolName: 'x' } as never] }]),
    ).toThrow(ContextError);
    expect(() => toModelMessages({ messages: [{ role: 'assistant' } as never] })).toThrow(
      /toModelMessages: messages\[0\]/,
    );
  });
});

describe('usage and finish reasons', () => {
  it('subtracts cached tokens once, from the details or the deprecated field but never both', () => {
    expect(
      fromLanguageModelUsage({
        inputTokens: 1_000,
        outputTokens: 10,
        inputTokenDetails: { cacheReadTokens: 600, cacheWriteTokens: 100 },
        cachedInputTokens: 600,
      }),
    ).toEqual({ input: 300, output: 10, cacheRead: 600, cacheWrite: 100, total: 1_010 });
    expect(fromLanguageModelUsage({ inputTokens: 1_000, outputTokens: 10, cachedInputTokens: 600 })).toEqual({
      input: 400,
      output: 10,
      cacheRead: 600,
      total: 1_010,
    });
    expect(
      fromLanguageModelUsage({
        inputTokens: { total: 1_000, noCache: 300, cacheRead: 600, cacheWrite: 100 },
        outputTokens: { total: 10 },
      }),
    ).toEqual({ input: 300, output: 10, cacheRead: 600, cacheWrite: 100, total: 1_010 });
    expect(() => fromLanguageModelUsage({ inputTokens: -1, outputTokens: 0 })).toThrow('usage.inputTokens');
  });

  it('maps finish reasons', () => {
    expect(
      ['stop', 'length', 'tool-calls', 'content-filter', 'error', 'other'].map((reason) => fromFinishReason(reason)),
    ).toEqual(['stop', 'length', 'toolUse', 'error', 'error', 'stop']);
    expect(fromFinishReason({ unified: 'tool-calls' })).toBe('toolUse');
  });

  it('reads a step: the assistant message and the results of the tools the SDK ran', () => {
    const step = fromStepResult({
      content: [
        { type: 'reasoning', text: 'Need a listing.' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'ls', input: { path: '.' } },
        { type: 'tool-result', toolCallId: 'c1', toolName: 'ls', input: { path: '.' }, output: ['a.ts'] },
      ] as never,
      finishReason: 'tool-calls',
      usage: { inputTokens: 50, outputTokens: 5 },
      model: { provider: 'anthropic.messages', modelId: 'claude-sonnet-4-6' },
      response: { modelId: 'claude-sonnet-4-6' },
    });
    expect(step.message).toMatchObject({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Need a listing.' },
        { type: 'toolCall', id: 'c1', arguments: { path: '.' } },
      ],
      stopReason: 'toolUse',
      provider: 'anthropic.messages',
    });
    expect(step.toolResults).toEqual([
      expect.objectContaining({ toolCallId: 'c1', content: [{ type: 'text', text: '["a.ts"]' }] }),
    ]);
  });
});

describe('ctxkitMiddleware', () => {
  const usage = { inputTokens: { total: 100, noCache: 100 }, outputTokens: { total: 5 } };
  const text = (value: string) => [{ type: 'text', text: value }];

  it('continues the manager history across calls and sends the prepared prompt after the system messages', async () => {
    const manager = createContextManager({ contextWindow: 100_000, summarizer: heuristicSummarizer });
    const recorded = vi.spyOn(manager, 'recordUsage');
    const middleware = ctxkitMiddleware(manager);
    const sent: (readonly unknown[])[] = [];
    const model = {
      doGenerate: async (options: { prompt: readonly unknown[] }) => {
        sent.push(options.prompt);
        return { usage, content: [] };
      },
      doStream: async () => ({ stream: new ReadableStream() }),
    };
    const first = [
      { role: 'system' as const, content: 'Be brief.' },
      { role: 'user' as const, content: text('hi') },
    ];
    await middleware.wrapGenerate({
      params: { prompt: first },
      model,
      doGenerate: async () => ({ usage }),
      doStream: async () => ({}),
    });
    const second = [
      ...first,
      { role: 'assistant' as const, content: text('Hello.') },
      { role: 'user' as const, content: text('again') },
    ];
    await middleware.wrapGenerate({
      params: { prompt: second },
      model,
      doGenerate: async () => ({ usage }),
      doStream: async () => ({}),
    });
    expect(sent[0]).toEqual(first);
    expect(sent[1]).toEqual(second);
    expect(recorded).toHaveBeenCalledTimes(2);
    expect(recorded).toHaveBeenLastCalledWith({ input: 100, output: 5, total: 105 });
  });

  it('refuses something that is not a manager', () => {
    expect(() => ctxkitMiddleware({} as never)).toThrow('ctxkitMiddleware needs a context manager');
  });
});
