import { ContextError, type Message } from 'ctxkit';
import {
  fromAnthropic,
  fromAnthropicMessage,
  fromAnthropicStopReason,
  fromAnthropicUsage,
  toAnthropic,
} from 'ctxkit/anthropic';
import { toolResultMessage } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';
import { findRequestViolation } from './anthropic-request-rules.js';

const call = (id: string, name = 'bash') => ({
  type: 'toolCall' as const,
  id,
  name,
  arguments: { command: `run ${id}` },
});
const result = (id: string, text: string, name = 'bash'): Message => toolResultMessage(id, text, { toolName: name });

describe('toAnthropic', () => {
  it('merges the tool results of one assistant turn into one user turn, results first, and splits them back', () => {
    const history: Message[] = [
      { role: 'user', content: 'List and count' },
      { role: 'assistant', content: [{ type: 'text', text: 'Running both.' }, call('a'), call('b')] },
      result('a', 'x.ts\ny.ts'),
      result('b', '2'),
      { role: 'user', content: 'Also check z' },
    ];
    const { messages, warnings } = toAnthropic({ systemPrompt: 'Be brief.', messages: history });
    expect(warnings).toEqual([]);
    expect(messages).toEqual([
      { role: 'user', content: 'List and count' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Running both.' },
          { type: 'tool_use', id: 'a', name: 'bash', input: { command: 'run a' } },
          { type: 'tool_use', id: 'b', name: 'bash', input: { command: 'run b' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: 'x.ts\ny.ts' }] },
          { type: 'tool_result', tool_use_id: 'b', content: [{ type: 'text', text: '2' }] },
          { type: 'text', text: 'Also check z' },
        ],
      },
    ]);
    expect(findRequestViolation(messages)).toBeUndefined();
    const back = fromAnthropic({ messages });
    expect(back.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'toolResult',
      'toolResult',
      'user',
    ]);
    expect(back.messages[2]).toMatchObject({ toolCallId: 'a', toolName: 'bash' });
  });

  it('drops empty assistant turns, blank text and unsigned thinking, with a warning each, and keeps roles alternating', () => {
    const history: Message[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [] },
      {
        role: 'user',
        content: [
          { type: 'text', text: '  ' },
          { type: 'text', text: 'are you there?' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'from another provider' },
          { type: 'text', text: '' },
        ],
      },
      { role: 'user', content: '' },
      { role: 'assistant', content: [{ type: 'text', text: 'Yes.' }] },
    ];
    const { messages, warnings } = toAnthropic({ messages: history });
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'text', text: 'are you there?' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Yes.' }] },
    ]);
    expect(findRequestViolation(messages)).toBeUndefined();
    expect(warnings.map((warning) => warning.index)).toEqual([1, 2, 3, 3, 3, 4]);
  });

  it('replays signed and redacted thinking as the API sent it', () => {
    const wire = [
      { role: 'user' as const, content: 'think' },
      {
        role: 'assistant' as const,
        content: [
          { type: 'thinking' as const, thinking: 'Let me see.', signature: 'sig-1' },
          { type: 'redacted_thinking' as const, data: 'EmwKAhgB' },
          { type: 'text' as const, text: 'Done.' },
        ],
      },
    ];
    const { messages } = fromAnthropic({ messages: wire });
    expect(messages[1]).toMatchObject({
      content: [
        { type: 'thinking', thinking: 'Let me see.', signature: 'sig-1' },
        { type: 'thinking', thinking: '', signature: 'EmwKAhgB', redacted: true },
        { type: 'text', text: 'Done.' },
      ],
    });
    expect(toAnthropic({ messages }).messages).toStrictEqual(wire);
  });

  it('sends images as base64 or URL sources, data URLs as base64', () => {
    const { messages, warnings } = toAnthropic({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
            { type: 'image', data: 'https://example.com/cat.jpg', mimeType: 'image/jpeg' },
            { type: 'image', data: 'data:image/webp;base64,UklGRg==', mimeType: 'image/webp' },
            { type: 'image', data: 'AAAA', mimeType: 'image/bmp' },
          ],
        },
      ],
    });
    expect(messages[0]!.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
      { type: 'image', source: { type: 'base64', media_type: 'image/webp', data: 'UklGRg==' } },
      { type: 'image', source: { type: 'base64', media_type: 'image/bmp', data: 'AAAA' } },
    ]);
    expect(warnings).toEqual([{ index: 0, message: expect.stringContaining('image/bmp') }]);
  });

  it('keeps cache_control on system blocks and parts, and the system blocks when the prompt is unchanged', () => {
    const system = [
      { type: 'text' as const, text: 'You are a coding agent.', cache_control: { type: 'ephemeral' as const } },
    ];
    const wire = [
      {
        role: 'user' as const,
        content: [{ type: 'text' as const, text: 'Fix it', cache_control: { type: 'ephemeral' as const } }],
      },
    ];
    const converted = fromAnthropic({ system, messages: wire });
    expect(converted.systemPrompt).toBe('You are a coding agent.');
    expect(converted.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Fix it', providerData: { anthropic: { cache_control: { type: 'ephemeral' } } } },
      ],
    });
    expect(toAnthropic(converted).system).toStrictEqual(system);
    expect(toAnthropic({ ...converted, systemPrompt: 'Another prompt' }).system).toBe('Another prompt');
  });

  it('sends a carried block whose text was truncated as text, with a warning', () => {
    const document = { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'long notes' } };
    const { messages } = fromAnthropic({ messages: [{ role: 'user', content: [document] }] });
    expect(toAnthropic({ messages }).messages[0]!.content).toEqual([document]);
    const part = (messages[0] as { content: { text: string }[] }).content[0]!;
    const truncated: Message = { role: 'user', content: [{ ...part, type: 'text', text: '[document]\nlong…' }] };
    const sent = toAnthropic({ messages: [truncated] });
    expect(sent.messages[0]!.content).toEqual([{ type: 'text', text: '[document]\nlong…' }]);
    expect(sent.warnings).toHaveLength(1);
  });

  it('names the index and field of a malformed message', () => {
    expect(() => toAnthropic({ messages: [{ role: 'user', content: 'ok' }, { role: 'robot' } as never] })).toThrow(
      /toAnthropic: messages\[1\]/,
    );
    expect(() =>
      fromAnthropic({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 7 } as never] }] }),
    ).toThrow(ContextError);
    expect(() =>
      fromAnthropic({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 7 } as never] }] }),
    ).toThrow('fromAnthropic: messages[0].content[0].tool_use_id must be a non-empty string');
    expect(() => fromAnthropic({ messages: [{ role: 'user', content: 42 } as never] })).toThrow(
      'messages[0].content must be a string or an array of content blocks',
    );
  });

  it('warns about a tool result that answers no tool use', () => {
    const { messages, warnings } = fromAnthropic({
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'ghost', content: 'x' }] }],
    });
    expect(messages[0]).toMatchObject({ role: 'toolResult', toolName: '' });
    expect(warnings).toEqual([{ index: 0, message: expect.stringContaining('ghost') }]);
  });
});

describe('fromAnthropicMessage', () => {
  const response = {
    id: 'msg_01',
    type: 'message',
    role: 'assistant' as const,
    model: 'claude-sonnet-4-5-20250929',
    content: [
      { type: 'thinking', thinking: 'Need the file list.', signature: 'sig' },
      { type: 'tool_use', id: 'toolu_01', name: 'bash', input: { command: 'ls' } },
    ],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: 80, cache_read_input_tokens: 30_000, cache_creation_input_tokens: 500 },
  };

  it('maps the message, its usage (input excludes the cache: nothing subtracted) and the stop reason', () => {
    const { message, usage, stopReason, provider, model, warnings } = fromAnthropicMessage(response);
    expect(usage).toEqual({ input: 12, output: 80, cacheRead: 30_000, cacheWrite: 500, total: 30_592 });
    expect(stopReason).toBe('toolUse');
    expect(provider).toBe('anthropic');
    expect(model).toBe('claude-sonnet-4-5-20250929');
    expect(warnings).toEqual([]);
    expect(message).toMatchObject({
      role: 'assistant',
      usage,
      stopReason: 'toolUse',
      content: [
        { type: 'thinking', signature: 'sig' },
        { type: 'toolCall', id: 'toolu_01', name: 'bash', arguments: { command: 'ls' } },
      ],
      providerData: { anthropic: { id: 'msg_01', stop_reason: 'tool_use' } },
    });
    expect(toAnthropic({ messages: [message] }).messages).toEqual([{ role: 'assistant', content: response.content }]);
  });

  it('maps every stop reason', () => {
    expect(
      [
        'end_turn',
        'stop_sequence',
        'pause_turn',
        'max_tokens',
        'model_context_window_exceeded',
        'tool_use',
        'refusal',
        null,
      ].map(fromAnthropicStopReason),
    ).toEqual(['stop', 'stop', 'stop', 'length', 'length', 'toolUse', 'error', 'stop']);
    const refusal = fromAnthropicMessage({ ...response, content: [], stop_reason: 'refusal' });
    expect(refusal.message.errorMessage).toMatch(/refusal/);
    expect(fromAnthropicMessage({ ...response, stop_reason: 'something_new' }).warnings).toHaveLength(1);
  });

  it('counts usage without cache fields, and rejects a negative count by name', () => {
    expect(fromAnthropicUsage({ input_tokens: 5, output_tokens: 1 })).toEqual({ input: 5, output: 1, total: 6 });
    expect(() => fromAnthropicUsage({ input_tokens: -1, output_tokens: 1 })).toThrow('usage.input_tokens');
  });

  it('an empty response becomes no assistant turn at all in the next request', () => {
    const empty = fromAnthropicMessage({ ...response, content: [], stop_reason: 'end_turn' });
    const { messages } = toAnthropic({
      messages: [{ role: 'user', content: 'hi' }, empty.message, { role: 'user', content: 'again' }],
    });
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'text', text: 'again' },
        ],
      },
    ]);
  });
});
