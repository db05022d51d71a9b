// One voice across ctxkit/openai, ctxkit/anthropic and ctxkit/ai-sdk: warnings are `{ index, message }`
// objects everywhere; the response readers return the assistant message itself, which the manager
// counts from its usage when the callback returns it (no recordUsage); the old response converters
// still work as deprecated aliases; each adapter has a tool-result message helper.

import { ContextError, createContextManager, heuristicSummarizer, type Message, type ToolCall } from 'ctxkit';
import { toModelMessages } from 'ctxkit/ai-sdk';
import * as anthropic from 'ctxkit/anthropic';
import * as openai from 'ctxkit/openai';
import { describe, expect, test } from 'vitest';

const completion = (overrides: Record<string, unknown> = {}): openai.OpenAIChatCompletion => ({
  id: 'chatcmpl-1',
  model: 'gpt-4o-2024-11-20',
  choices: [
    {
      index: 0,
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: null,
        refusal: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"dir":' } }],
      },
    },
  ],
  usage: {
    prompt_tokens: 9_000,
    completion_tokens: 40,
    total_tokens: 9_040,
    prompt_tokens_details: { cached_tokens: 4_000 },
  },
  ...overrides,
});

const response = (): openai.OpenAIResponse => ({
  id: 'resp_1',
  model: 'gpt-5',
  status: 'completed',
  output: [
    { type: 'web_search_call', id: 'ws_1', status: 'completed' } as never,
    { type: 'function_call', id: 'fc_1', call_id: 'call_2', name: 'ls', arguments: '{}', status: 'completed' },
  ],
  usage: {
    input_tokens: 7_000,
    output_tokens: 30,
    total_tokens: 7_030,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  },
});

const anthropicMessage = (stopReason = 'tool_use'): anthropic.AnthropicResponse => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-6',
  content: [{ type: 'tool_use', id: 'toolu_1', name: 'ls', input: { dir: '.' } }],
  stop_reason: stopReason,
  stop_sequence: null,
  usage: { input_tokens: 6_000, output_tokens: 50, cache_read_input_tokens: 2_000, cache_creation_input_tokens: 0 },
});

describe('warnings are { index, message } in every adapter', () => {
  const history: Message[] = [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: [{ type: 'thinking', thinking: 'unsigned' }] },
  ];

  test.each([
    ['toOpenAIChat', () => openai.toOpenAIChat({ messages: history }).warnings],
    ['toOpenAIResponses', () => openai.toOpenAIResponses({ messages: history }).warnings],
    ['toAnthropic', () => anthropic.toAnthropic({ messages: history }).warnings],
    ['toModelMessages', () => toModelMessages({ messages: history }).warnings],
  ])('%s names the ctxkit message by its index', (_name, warnings) => {
    const list = warnings();
    expect(list.length).toBeGreaterThan(0);
    for (const warning of list) expect(warning).toEqual({ index: 1, message: expect.any(String) });
  });

  test('the request-side readers name the wire message or item by its index', () => {
    const chat = openai.fromOpenAIChat([
      { role: 'user', content: 'go' },
      { role: 'tool', tool_call_id: 'nobody', content: 'x' },
    ]);
    expect(chat.warnings).toEqual([{ index: 1, message: expect.stringMatching(/no earlier message made/) }]);
    const responses = openai.fromOpenAIResponses([
      { role: 'user', content: 'go' },
      { type: 'item_reference', id: 'ref_1' } as never,
    ]);
    expect(responses.warnings).toEqual([{ index: 1, message: expect.stringMatching(/carried verbatim/) }]);
  });

  test('the response readers report warnings through onWarning, indexed by the output they are about', () => {
    const seen: openai.ConversionWarning[] = [];
    openai.readOpenAIChatCompletion(completion(), { onWarning: (warning) => seen.push(warning) });
    expect(seen).toEqual([
      { index: 0, message: expect.stringMatching(/^completion\.choices\[0\]\.message\.tool_calls/) },
    ]);
    seen.length = 0;
    openai.readOpenAIResponse(response(), { onWarning: (warning) => seen.push(warning) });
    expect(seen).toEqual([{ index: 0, message: expect.stringMatching(/^response\.output\[0\]/) }]);
    seen.length = 0;
    anthropic.readAnthropicMessage(anthropicMessage('something_new'), { onWarning: (warning) => seen.push(warning) });
    expect(seen).toEqual([{ index: 0, message: expect.stringMatching(/unknown stop_reason/) }]);
  });
});

describe('the response readers return the message the manager counts', () => {
  const cases = [
    ['readOpenAIChatCompletion', () => openai.readOpenAIChatCompletion(completion()), 9_040],
    ['readOpenAIResponse', () => openai.readOpenAIResponse(response()), 7_030],
    ['readAnthropicMessage', () => anthropic.readAnthropicMessage(anthropicMessage()), 8_050],
  ] as const;

  test.each(cases)('%s: returned from the callback, its usage is the context count', async (_name, read, tokens) => {
    const manager = createContextManager({ model: 'gpt-4o', contextWindow: 200_000, summarizer: heuristicSummarizer });
    let history: Message[] = [{ role: 'user', content: 'list the files' }];
    expect(manager.stats(history).usage.source).toBe('estimate');
    const { result, history: kept } = await manager.runWithOverflowRecovery(history, async () => read());
    expect(result).toMatchObject({ role: 'assistant', stopReason: 'toolUse', usage: expect.any(Object) });
    history = [...kept, result];
    const stats = manager.stats(history);
    // The provider's count (prompt with cache, plus the reply) anchors the context, not an estimate
    // (the open tool call's missing result is estimated on top): nothing to record by hand.
    expect(stats.usage.source).not.toBe('estimate');
    expect(stats.currentUsage).toBeGreaterThanOrEqual(tokens);
    expect(stats.currentUsage).toBeLessThan(tokens + 100);
    // recordUsage with the same usage changes nothing: the message already anchors the count.
    manager.recordUsage(result.usage!);
    expect(manager.stats(history).currentUsage).toBe(stats.currentUsage);
  });

  test('the deprecated converters return the same message, with their old result shapes', () => {
    const chat = openai.fromOpenAIChatCompletion(completion());
    expect(chat.message).toEqual(openai.readOpenAIChatCompletion(completion()));
    expect(chat).toMatchObject({ usage: chat.message.usage, stopReason: 'toolUse', provider: 'openai' });
    expect(chat.warnings).toEqual([expect.stringMatching(/is not a JSON object/)]);
    const responses = openai.fromOpenAIResponse(response(), { provider: 'azure' });
    expect(responses.message).toEqual(openai.readOpenAIResponse(response(), { provider: 'azure' }));
    expect(responses).toMatchObject({ provider: 'azure', model: 'gpt-5', stopReason: 'toolUse' });
    expect(responses.warnings).toEqual([expect.stringMatching(/web_search_call/)]);
    const message = anthropic.fromAnthropicMessage(anthropicMessage('something_new'));
    expect(message.message).toEqual(anthropic.readAnthropicMessage(anthropicMessage('something_new')));
    expect(message.warnings).toEqual([{ index: 0, message: expect.stringMatching(/unknown stop_reason/) }]);
  });

  test('errors name the function that was called', () => {
    expect(() => openai.readOpenAIChatCompletion(completion({ choices: [] }))).toThrow(
      /readOpenAIChatCompletion.*completion\.choices is empty/,
    );
    expect(() => openai.fromOpenAIChatCompletion(completion({ choices: [] }))).toThrow(/fromOpenAIChatCompletion/);
    expect(() => openai.readOpenAIResponse({ output: 'no' } as never)).toThrow(/readOpenAIResponse.*response\.output/);
    expect(() => anthropic.readAnthropicMessage({ model: 'm', content: [] } as never)).toThrow(
      /readAnthropicMessage.*response\.usage/,
    );
  });
});

describe('createToolResultMessage in ctxkit/openai and ctxkit/anthropic', () => {
  const call: ToolCall = { type: 'toolCall', id: 'call_1', name: 'ls', arguments: {} };
  const assistant: Message = { role: 'assistant', content: [call], stopReason: 'toolUse' };

  test('is one function: text as it is, values as JSON, errors as failed results', () => {
    expect(anthropic.createToolResultMessage).toBe(openai.createToolResultMessage);
    const outcome = { toolCallId: call.id, toolName: call.name };
    expect(openai.createToolResultMessage({ ...outcome, output: 'a.ts\nb.ts' })).toEqual({
      role: 'toolResult',
      toolCallId: 'call_1',
      toolName: 'ls',
      content: [{ type: 'text', text: 'a.ts\nb.ts' }],
    });
    expect(openai.createToolResultMessage({ ...outcome, output: { files: 2 } }).content).toEqual([
      { type: 'text', text: '{"files":2}' },
    ]);
    expect(openai.createToolResultMessage({ ...outcome, output: undefined }).content).toEqual([
      { type: 'text', text: 'null' },
    ]);
    expect(openai.createToolResultMessage({ ...outcome, output: new Error('ENOENT') })).toMatchObject({
      content: [{ type: 'text', text: 'ENOENT' }],
      isError: true,
    });
    expect(openai.createToolResultMessage({ ...outcome, output: 'denied', isError: true }).isError).toBe(true);
  });

  test('its message goes on the wire as each API answers a call', () => {
    const result = anthropic.createToolResultMessage({ toolCallId: 'call_1', toolName: 'ls', output: new Error('no') });
    const history: Message[] = [{ role: 'user', content: 'go' }, assistant, result];
    expect(openai.toOpenAIChat({ messages: history }).messages[2]).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: 'no',
    });
    expect(openai.toOpenAIResponses({ messages: history }).items[2]).toMatchObject({
      type: 'function_call_output',
      call_id: 'call_1',
      output: 'no',
    });
    expect(anthropic.toAnthropic({ messages: history }).messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'call_1', content: [{ type: 'text', text: 'no' }], is_error: true },
      ],
    });
  });

  test('bad input is a ContextError naming the field', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    const attempts = [
      () => openai.createToolResultMessage({ toolCallId: '', toolName: 'ls', output: 'x' }),
      () => openai.createToolResultMessage({ toolCallId: 'c', toolName: undefined as never, output: 'x' }),
      () => openai.createToolResultMessage({ toolCallId: 'c', toolName: 'ls', output: cycle }),
      () => openai.createToolResultMessage(null as never),
    ];
    const messages = attempts.map((attempt) => {
      try {
        attempt();
      } catch (error) {
        expect(ContextError.isInstance(error)).toBe(true);
        return (error as Error).message;
      }
      return 'no error';
    });
    expect(messages[0]).toMatch(/outcome\.toolCallId must be a non-empty string/);
    expect(messages[1]).toMatch(/outcome\.toolName must be a non-empty string/);
    expect(messages[2]).toMatch(/outcome\.output is neither text nor JSON/);
    expect(messages[3]).toMatch(/pass \{ toolCallId, toolName, output \}/);
  });
});
