// Known cases of ctxkit/openai: errors naming the index and field, warnings for what ctxkit cannot
// see, usage arithmetic, stop reasons, and the summarizer's clamp.

import { ContextError } from 'ctxkit';
import {
  createOpenAISummarizer,
  fromOpenAIChat,
  fromOpenAIChatCompletion,
  fromOpenAIResponse,
  fromOpenAIResponses,
  fromOpenAIUsage,
  type OpenAIChatCompletion,
  type OpenAIChatMessage,
  type OpenAIResponse,
  type OpenAISummarizerClient,
  toOpenAIChat,
  toOpenAIResponses,
} from 'ctxkit/openai';
import { describe, expect, test } from 'vitest';

const completion = (
  overrides: Partial<OpenAIChatCompletion['choices'][number]> = {},
  usage?: OpenAIChatCompletion['usage'],
) =>
  ({
    id: 'chatcmpl-1',
    model: 'gpt-4o-2024-11-20',
    choices: [
      {
        index: 0,
        finish_reason: 'stop',
        message: { role: 'assistant', content: 'Done.', refusal: null },
        ...overrides,
      },
    ],
    ...(usage ? { usage } : {}),
  }) satisfies OpenAIChatCompletion;

describe('invalid input is a clear error', () => {
  test('not an array', () => {
    expect(() => fromOpenAIChat('hi' as never)).toThrow(/fromOpenAIChat: messages must be an array/);
    expect(() => fromOpenAIResponses({} as never)).toThrow(/fromOpenAIResponses: items must be an array/);
  });

  test('an unknown role names the index and the field', () => {
    const messages = [
      { role: 'user', content: 'hi' },
      { role: 'bot', content: 'hello' },
    ] as never;
    expect(() => fromOpenAIChat(messages)).toThrow(
      /messages\[1\]\.role must be one of system, developer, user, assistant, tool, function; received 'bot'/,
    );
    expect(() => fromOpenAIResponses([{ role: 'robot', content: 'x' }] as never)).toThrow(
      /items\[0\]\.role must be one of/,
    );
  });

  test('a malformed field names its path', () => {
    const messages = [
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'ls', arguments: 3 } }],
      },
    ];
    const error = (() => {
      try {
        fromOpenAIChat(messages as never);
      } catch (caught) {
        return caught;
      }
    })();
    expect(ContextError.isInstance(error)).toBe(true);
    expect((error as ContextError).code).toBe('INPUT_INVALID');
    expect(String(error)).toMatch(
      /messages\[0\]\.tool_calls\[0\]\.function\.arguments must be a string, received number 3/,
    );
  });

  test('ctxkit messages are validated on the way out', () => {
    expect(() => toOpenAIChat({ messages: [{ role: 'system', content: 'x' }] as never })).toThrow(
      /toOpenAIChat: messages\[0\]/,
    );
  });
});

describe('Chat Completions', () => {
  test('unparseable arguments are kept verbatim, with a warning', () => {
    const wire: OpenAIChatMessage[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{"path": ' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'a.ts' },
    ];
    const { messages, warnings } = fromOpenAIChat(wire);
    expect(messages[1]).toMatchObject({ content: [{ type: 'toolCall', id: 'c1', name: 'ls', arguments: {} }] });
    expect(messages[2]).toMatchObject({ role: 'toolResult', toolCallId: 'c1', toolName: 'ls' });
    expect(warnings).toEqual([
      {
        index: 1,
        message: expect.stringMatching(/messages\[1\]\.tool_calls\[0\]\.function\.arguments is not a JSON object/),
      },
    ]);
    expect(toOpenAIChat({ messages }).messages).toEqual(wire);
  });

  test('system and developer messages: leading ones become the system prompt, later ones keep their place', () => {
    const wire: OpenAIChatMessage[] = [
      { role: 'system', content: 'Be terse.' },
      { role: 'developer', content: [{ type: 'text', text: 'Use tools.' }] },
      { role: 'user', content: 'hi' },
      { role: 'developer', content: 'Now answer.' },
    ];
    const conversation = fromOpenAIChat(wire);
    expect(conversation.systemPrompt).toBe('Be terse.\n\nUse tools.');
    expect(conversation.messages.map((message) => message.role)).toEqual(['user', 'user']);
    expect(toOpenAIChat(conversation).messages).toEqual(wire);
    // A changed prompt is sent as one message of the chosen role.
    expect(
      toOpenAIChat({ ...conversation, systemPrompt: 'Be brief.' }, { systemRole: 'developer' }).messages[0],
    ).toEqual({
      role: 'developer',
      content: 'Be brief.',
    });
  });

  test('images: base64 data URLs become data, other URLs stay URLs', () => {
    const wire: OpenAIChatMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'https://example.com/chart.jpg', detail: 'high' } },
        ],
      },
    ];
    const { messages } = fromOpenAIChat(wire);
    expect(messages[0]).toMatchObject({
      content: [
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'image', data: 'https://example.com/chart.jpg', mimeType: 'image/jpeg' },
      ],
    });
    expect(toOpenAIChat({ messages }).messages).toEqual(wire);
  });

  test('what Chat Completions cannot carry is left out with a warning', () => {
    const { messages, warnings } = toOpenAIChat({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm', signature: 'sig' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'so' },
            { type: 'toolCall', id: 'c', name: 'shot', arguments: {} },
          ],
        },
        {
          role: 'toolResult',
          toolCallId: 'c',
          toolName: 'shot',
          content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }],
        },
      ],
    });
    expect(messages).toEqual([
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'shot', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c', content: [{ type: 'text', text: '[image: image/png]' }] },
    ]);
    // Each warning names the ctxkit message it is about: two for the turn of thinking only.
    expect(warnings.map(({ index }) => index)).toEqual([1, 1, 2, 3]);
  });

  test('a completion: message, usage with cached tokens counted once, stop reason, model', () => {
    const result = fromOpenAIChatCompletion(
      completion(
        {
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            refusal: null,
            annotations: [],
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
          },
        },
        {
          prompt_tokens: 2_000,
          completion_tokens: 30,
          total_tokens: 2_030,
          prompt_tokens_details: { cached_tokens: 1_536 },
        },
      ),
    );
    expect(result.usage).toEqual({ input: 464, output: 30, cacheRead: 1_536, total: 2_030 });
    expect(result.stopReason).toBe('toolUse');
    expect(result.provider).toBe('openai');
    expect(result.model).toBe('gpt-4o-2024-11-20');
    expect(result.message).toMatchObject({
      role: 'assistant',
      stopReason: 'toolUse',
      usage: result.usage,
      model: result.model,
    });
    // The message goes back as the SDK would send it.
    expect(toOpenAIChat({ messages: [result.message] }).messages).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
      },
    ]);
  });

  test.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['tool_calls', 'toolUse'],
    ['function_call', 'toolUse'],
    ['content_filter', 'error'],
  ] as const)('finish reason %s → %s', (finish, stopReason) => {
    expect(fromOpenAIChatCompletion(completion({ finish_reason: finish })).stopReason).toBe(stopReason);
  });

  test('a completion without choices is an error', () => {
    expect(() => fromOpenAIChatCompletion({ ...completion(), choices: [] })).toThrow(/completion\.choices is empty/);
  });
});

describe('Responses', () => {
  const response = (overrides: Partial<OpenAIResponse>): OpenAIResponse => ({
    id: 'resp_1',
    model: 'gpt-5',
    status: 'completed',
    output: [
      { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'gAAAAB' },
      {
        id: 'fc_1',
        type: 'function_call',
        call_id: 'call_1',
        name: 'ls',
        arguments: '{"path":"."}',
        status: 'completed',
      },
    ],
    usage: {
      input_tokens: 1_000,
      output_tokens: 50,
      total_tokens: 1_050,
      input_tokens_details: { cached_tokens: 768 },
    },
    ...overrides,
  });

  test('store: false reasoning becomes redacted thinking and goes back with its encrypted content', () => {
    const { message, usage, stopReason } = fromOpenAIResponse(response({}));
    expect(message.content[0]).toMatchObject({ type: 'thinking', thinking: '', signature: 'gAAAAB', redacted: true });
    expect(usage).toEqual({ input: 232, output: 50, cacheRead: 768, total: 1_050 });
    expect(stopReason).toBe('toolUse');
    const { items } = toOpenAIResponses({
      messages: [
        { role: 'user', content: 'list' },
        message,
        { role: 'toolResult', toolCallId: 'call_1', toolName: 'ls', content: [{ type: 'text', text: 'a.ts' }] },
      ],
    });
    expect(items).toEqual([
      { role: 'user', content: 'list' },
      { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'gAAAAB' },
      {
        id: 'fc_1',
        type: 'function_call',
        call_id: 'call_1',
        name: 'ls',
        arguments: '{"path":"."}',
        status: 'completed',
      },
      { type: 'function_call_output', call_id: 'call_1', output: 'a.ts' },
    ]);
  });

  test.each([
    [{ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }, 'length'],
    [{ status: 'incomplete', incomplete_details: { reason: 'content_filter' } }, 'error'],
    [{ status: 'failed', error: { code: 'server_error', message: 'boom' } }, 'error'],
    [{ status: 'cancelled' }, 'aborted'],
  ] as const)('status %o → %s', (overrides, stopReason) => {
    expect(fromOpenAIResponse(response(overrides)).stopReason).toBe(stopReason);
  });

  test('thinking from another provider is left out with a warning', () => {
    const { items, warnings } = toOpenAIResponses({
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'x', signature: 'anthropic-sig' },
            { type: 'text', text: 'ok' },
          ],
        },
      ],
    });
    expect(items).toEqual([{ role: 'assistant', content: 'ok' }]);
    expect(warnings).toEqual([{ index: 0, message: expect.stringMatching(/thinking from another API/) }]);
  });
});

describe('fromOpenAIUsage', () => {
  test('cache reads and writes come out of input, exactly once', () => {
    expect(
      fromOpenAIUsage({
        prompt_tokens: 10_000,
        completion_tokens: 5,
        prompt_tokens_details: { cached_tokens: 6_000, cache_write_tokens: 3_000 },
      }),
    ).toEqual({ input: 1_000, output: 5, cacheRead: 6_000, cacheWrite: 3_000 });
    expect(fromOpenAIUsage({ prompt_tokens: 100, completion_tokens: 5 })).toEqual({ input: 100, output: 5 });
  });

  test('counts that are not numbers are an error', () => {
    expect(() => fromOpenAIUsage({ prompt_tokens: '12', completion_tokens: 1 } as never)).toThrow(
      /usage\.prompt_tokens/,
    );
  });
});

describe('createOpenAISummarizer', () => {
  function fakeClient(reply: { content: string; finish: string }) {
    const bodies: Record<string, unknown>[] = [];
    const client: OpenAISummarizerClient = {
      chat: {
        completions: {
          async create(body) {
            bodies.push(body);
            return completion({
              finish_reason: reply.finish,
              message: { role: 'assistant', content: reply.content, refusal: null },
            });
          },
        },
      },
    };
    return { client, bodies };
  }

  test("the output budget is clamped to the model's maximum output", async () => {
    const { client, bodies } = fakeClient({ content: '## Goal\nFix it.', finish: 'stop' });
    const summarizer = createOpenAISummarizer({ client, model: 'gpt-4o' });
    const output = await summarizer.summarize({
      kind: 'compaction',
      messages: [{ role: 'user', content: 'hi' }],
      text: 'user: hi',
      maxOutputTokens: 32_000,
    });
    expect(bodies[0]).toMatchObject({ model: 'gpt-4o', max_completion_tokens: 16_384 });
    expect(output).toEqual({ text: '## Goal\nFix it.', stopReason: 'stop' });
  });

  test('maxOutputTokens and the legacy parameter name', async () => {
    const { client, bodies } = fakeClient({ content: 'cut', finish: 'length' });
    const summarizer = createOpenAISummarizer({
      client,
      model: 'local-model',
      maxOutputTokens: 2_000,
      tokenParameter: 'max_tokens',
    });
    const output = await summarizer.summarize({
      kind: 'compaction',
      messages: [{ role: 'user', content: 'hi' }],
      text: 'user: hi',
      maxOutputTokens: 8_000,
    });
    expect(bodies[0]).toMatchObject({ max_tokens: 2_000 });
    expect(output).toMatchObject({ stopReason: 'length' });
  });

  test('a client without the method is a config error', () => {
    expect(() => createOpenAISummarizer({ client: {}, model: 'gpt-4o' })).toThrow(
      /needs `client` with chat\.completions\.create/,
    );
    expect(() =>
      createOpenAISummarizer({ client: fakeClient({ content: '', finish: 'stop' }).client, model: '' }),
    ).toThrow(/needs `model`/);
  });
});
