// The LangChain converters against `@langchain/core`'s own message classes: what ctxkit writes, once
// LangChain coerces it, is the message it read, field for field; usage is counted once; bad input is
// a ContextError naming the field.

import { fc, test as property } from '@fast-check/vitest';
import {
  AIMessage,
  type BaseMessage,
  coerceMessageLikeToMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { ContextError } from 'ctxkit';
import { fromLangChainMessages, fromLangChainUsage, toLangChainMessages } from 'ctxkit/langchain';
import { describe, expect, test } from 'vitest';

/** A message's own fields, without LangChain's bookkeeping (lc_kwargs holds the constructor's input). */
function fieldsOf(message: BaseMessage): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(message).filter(([key, value]) => !key.startsWith('lc_') && value !== undefined),
  );
}

/** Reads, writes and lets LangChain build the messages again, as a chat model's `invoke` does. */
function roundTrip(messages: BaseMessage[]): BaseMessage[] {
  const { system, messages: read } = fromLangChainMessages(messages);
  return [
    ...system,
    ...toLangChainMessages({ messages: read }).messages.map((fields) => coerceMessageLikeToMessage(fields)),
  ] as BaseMessage[];
}

const conversation = (): BaseMessage[] => [
  new SystemMessage('You are a careful coding agent.'),
  new HumanMessage({
    id: 'h1',
    content: [
      { type: 'text', text: 'What is in these?' },
      { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'high' } },
      { type: 'image_url', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
      { type: 'image', url: 'https://example.com/b.png', mimeType: 'image/png' },
      { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
    ],
  }),
  new AIMessage({
    id: 'a1',
    content: [
      { type: 'thinking', thinking: 'Read the file first.', signature: 'sig-1' },
      { type: 'text', text: 'Reading it.' },
    ],
    tool_calls: [
      { id: 'call_1', name: 'read_file', args: { path: 'src/a.ts' }, type: 'tool_call' },
      { id: 'call_2', name: 'run_tests', args: {} },
    ],
    usage_metadata: {
      input_tokens: 1200,
      output_tokens: 40,
      total_tokens: 1240,
      input_token_details: { cache_read: 1024 },
    },
    response_metadata: { model_name: 'gpt-4o', finish_reason: 'tool_calls' },
    additional_kwargs: { refusal: null },
  }),
  new ToolMessage({
    tool_call_id: 'call_1',
    content: 'export const a = 1;',
    name: 'read_file',
    artifact: { bytes: 19 },
  }),
  new ToolMessage({ tool_call_id: 'call_2', content: [{ type: 'text', text: 'not ok 1' }], status: 'error' }),
  new SystemMessage({ content: 'Answer in one line.', id: 's2' }),
  new AIMessage({ content: 'Fixed.', response_metadata: { finish_reason: 'stop' } }),
];

describe('fromLangChainMessages / toLangChainMessages', () => {
  test('rebuild LangChain messages field for field, through coerceMessageLikeToMessage', () => {
    const input = conversation();
    const output = roundTrip(input);
    expect(output.map((message) => message.type)).toEqual(input.map((message) => message.type));
    expect(output.map(fieldsOf)).toEqual(input.map(fieldsOf));
  });

  test('read what ctxkit models', () => {
    const { systemPrompt, messages, warnings } = fromLangChainMessages(conversation());
    expect(systemPrompt).toBe('You are a careful coding agent.');
    expect(messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'toolResult',
      'toolResult',
      'user',
      'assistant',
    ]);
    const user = messages[0]!;
    expect(user.role === 'user' && Array.isArray(user.content) && user.content.map((part) => part.type)).toEqual([
      'text',
      'image',
      'image',
      'image',
      'text',
    ]);
    const assistant = messages[1]!;
    expect(assistant.role === 'assistant' && assistant.content.map((part) => part.type)).toEqual([
      'thinking',
      'text',
      'toolCall',
      'toolCall',
    ]);
    expect(assistant.role === 'assistant' && assistant.usage).toEqual({
      input: 176,
      output: 40,
      cacheRead: 1024,
      total: 1240,
    });
    expect(assistant.role === 'assistant' && assistant.stopReason).toBe('toolUse');
    expect(assistant.role === 'assistant' && assistant.model).toBe('gpt-4o');
    // The second tool message has no name: it is named after its call.
    expect(messages[3]).toMatchObject({
      role: 'toolResult',
      toolCallId: 'call_2',
      toolName: 'run_tests',
      isError: true,
    });
    expect(warnings).toEqual([{ index: 1, message: expect.stringContaining('input_audio') }]);
  });

  test('write ctxkit messages it did not read plainly, and LangChain builds them', () => {
    const { messages } = toLangChainMessages({
      systemPrompt: 'Be terse.',
      messages: [
        { role: 'user', content: [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] },
        { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'ls', arguments: { path: '.' } }] },
        {
          role: 'toolResult',
          toolCallId: 'c1',
          toolName: 'ls',
          content: [{ type: 'text', text: 'a.ts' }],
          isError: true,
        },
      ],
    });
    const built = messages.map((fields) => coerceMessageLikeToMessage(fields));
    expect(built.map((message) => message.constructor.name)).toEqual([
      'SystemMessage',
      'HumanMessage',
      'AIMessage',
      'ToolMessage',
    ]);
    expect(built[1]!.content).toEqual([
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
    ]);
    expect((built[2] as AIMessage).tool_calls).toEqual([{ id: 'c1', name: 'ls', args: { path: '.' } }]);
    expect(built[3]).toMatchObject({ tool_call_id: 'c1', name: 'ls', status: 'error', content: 'a.ts' });
  });

  test('a tool call without an id gets one for ctxkit and none on the way back', () => {
    const input = [new HumanMessage('go'), new AIMessage({ content: '', tool_calls: [{ name: 'ls', args: {} }] })];
    const { messages, warnings } = fromLangChainMessages(input);
    expect(messages[1]).toMatchObject({ content: [{ type: 'toolCall', id: 'lc_call_1_0' }] });
    expect(warnings[0]).toMatchObject({ index: 1 });
    expect((toLangChainMessages({ messages }).messages[1]!.tool_calls as unknown[])[0]).toEqual({
      name: 'ls',
      args: {},
    });
  });

  test('bad input is a ContextError naming the field', () => {
    const read = (value: unknown) => () => fromLangChainMessages(value as never);
    expect(read('hi')).toThrow(ContextError);
    expect(read([{ type: 'tool', content: 'x' }])).toThrow(/messages\[0\]\.tool_call_id must be a non-empty string/);
    expect(read([{ type: 'ai', content: '', tool_calls: [{ args: {} }] }])).toThrow(
      /messages\[0\]\.tool_calls\[0\]\.name/,
    );
    expect(read([{ type: 'human', content: 7 }])).toThrow(/messages\[0\]\.content/);
    expect(() => toLangChainMessages({ messages: [{ role: 'robot' } as never] })).toThrow(/messages\[0\]\.role/);
  });
});

describe('fromLangChainUsage', () => {
  test('counts the cache once: input excludes cache reads and writes, as ctxkit counts them', () => {
    expect(
      fromLangChainUsage({
        input_tokens: 5000,
        output_tokens: 300,
        total_tokens: 5300,
        input_token_details: { cache_read: 3000, cache_creation: 1500 },
      }),
    ).toEqual({ input: 500, output: 300, cacheRead: 3000, cacheWrite: 1500, total: 5300 });
    expect(fromLangChainUsage({ input_tokens: 10, output_tokens: 2, total_tokens: 12 })).toEqual({
      input: 10,
      output: 2,
      total: 12,
    });
    expect(() => fromLangChainUsage({ output_tokens: 1 } as never)).toThrow(/input_tokens/);
  });
});

const text = fc.string({ minLength: 1, maxLength: 20 });
const id = fc.stringMatching(/^call_[a-z0-9]{1,6}$/);
const extra = fc.option(fc.dictionary(fc.constantFrom('source', 'tag'), text, { maxKeys: 2 }), { nil: undefined });

/** One exchange: a user turn, an assistant turn with unique tool calls, their results in any order. */
const exchange = fc
  .record({
    user: fc.oneof(
      text,
      fc.array(fc.record({ type: fc.constant('text' as const), text }), { minLength: 1, maxLength: 3 }),
    ),
    reply: fc.oneof(text, fc.constant('')),
    calls: fc.uniqueArray(
      fc.record({ id, name: fc.constantFrom('ls', 'grep'), args: fc.dictionary(text, text, { maxKeys: 2 }) }),
      {
        selector: (call) => call.id,
        maxLength: 3,
      },
    ),
    results: fc.array(fc.oneof(text, fc.constant('')), { minLength: 3, maxLength: 3 }),
    kwargs: extra,
  })
  .map(({ user, reply, calls, results, kwargs }) => [
    new HumanMessage({ content: user, ...(kwargs ? { additional_kwargs: kwargs } : {}) }),
    new AIMessage({ content: reply, tool_calls: calls }),
    ...calls.map(
      (call, index) =>
        new ToolMessage({ tool_call_id: call.id, content: results[index]!, ...(index % 2 ? { name: call.name } : {}) }),
    ),
  ]);

property.prop([fc.array(exchange, { maxLength: 4 })])('any conversation comes back field for field', (exchanges) => {
  // Tool call ids unique across the conversation, as LangChain's agents make them.
  const seen = new Set<string>();
  const input = exchanges.flat().filter((message) => {
    if (!ToolMessage.isInstance(message)) return true;
    if (seen.has(message.tool_call_id)) return false;
    seen.add(message.tool_call_id);
    return true;
  });
  const before = input.map(fieldsOf);
  expect(roundTrip(input).map(fieldsOf)).toEqual(before);
  expect(input.map(fieldsOf)).toEqual(before); // the input is left alone
});
