// The wire types of `ctxkit/openai` against the real `openai` 7 SDK's (the current major, a dev dependency): what the SDK
// hands a host is accepted as it is, and what the converters return is accepted by the SDK's
// `create` calls. `npm run check` (tsc) is the test; the runtime part runs the SDK's sample shapes.

import {
  fromOpenAIChat,
  fromOpenAIChatCompletion,
  fromOpenAIResponse,
  fromOpenAIResponses,
  fromOpenAIUsage,
  type OpenAIChatCompletion,
  type OpenAIChatMessage,
  type OpenAIChatMessageInput,
  type OpenAIResponse,
  type OpenAIResponsesItem,
  type OpenAIResponsesItemInput,
  type OpenAISummarizerClient,
  type OpenAIUsage,
  toOpenAIChat,
  toOpenAIResponses,
} from 'ctxkit/openai';
import type OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { Response, ResponseInputItem, ResponseUsage } from 'openai/resources/responses/responses';
import { describe, expect, expectTypeOf, test } from 'vitest';

describe('structural compatibility with openai 7', () => {
  test('Chat Completions: SDK params in, SDK params out', () => {
    expectTypeOf<ChatCompletionMessageParam[]>().toExtend<readonly OpenAIChatMessageInput[]>();
    expectTypeOf<OpenAIChatMessage[]>().toExtend<ChatCompletionMessageParam[]>();
    expectTypeOf<ReturnType<typeof toOpenAIChat>['messages']>().toExtend<ChatCompletionMessageParam[]>();
    expectTypeOf<ChatCompletion>().toExtend<OpenAIChatCompletion>();
    expectTypeOf<CompletionUsage>().toExtend<OpenAIUsage>();
    // The response's message goes back into the SDK's own history type.
    expectTypeOf<ChatCompletion['choices'][number]['message']>().toExtend<ChatCompletionMessageParam>();
  });

  test('Responses: SDK items and outputs in, SDK input items out', () => {
    expectTypeOf<ResponseInputItem[]>().toExtend<OpenAIResponsesItemInput[]>();
    expectTypeOf<Response['output']>().toExtend<OpenAIResponsesItemInput[]>();
    expectTypeOf<OpenAIResponsesItem[]>().toExtend<ResponseInputItem[]>();
    expectTypeOf<ReturnType<typeof toOpenAIResponses>['items']>().toExtend<ResponseInputItem[]>();
    expectTypeOf<Response>().toExtend<OpenAIResponse>();
    expectTypeOf<ResponseUsage>().toExtend<OpenAIUsage>();
  });

  test('an OpenAI client is a summarizer client', () => {
    expectTypeOf<OpenAI>().toExtend<OpenAISummarizerClient>();
  });

  test('the converters take what the SDK types say and give what it accepts', () => {
    const history: ChatCompletionMessageParam[] = [
      { role: 'developer', content: 'Be terse.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'a.ts' },
    ];
    const sent: ChatCompletionMessageParam[] = toOpenAIChat(fromOpenAIChat(history)).messages;
    expect(sent).toStrictEqual(history);
    const body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = { model: 'gpt-4o', messages: sent };
    expect(body.messages).toHaveLength(4);

    const items: ResponseInputItem[] = [
      { role: 'user', content: 'hi' },
      { type: 'function_call', call_id: 'c1', name: 'ls', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: 'a.ts' },
    ];
    const input: ResponseInputItem[] = toOpenAIResponses(fromOpenAIResponses(items)).items;
    expect(input).toStrictEqual(items);
    const request: OpenAI.Responses.ResponseCreateParamsNonStreaming = { model: 'gpt-5', input, store: false };
    expect(request.input).toHaveLength(3);
    expect(typeof fromOpenAIChatCompletion).toBe('function');
    expect(typeof fromOpenAIResponse).toBe('function');
    expect(fromOpenAIUsage({ input_tokens: 10, output_tokens: 1, input_tokens_details: { cached_tokens: 8 } })).toEqual(
      {
        input: 2,
        output: 1,
        cacheRead: 8,
      },
    );
  });

  test("openai 7's new wire fields: detail 'original', prompt cache breakpoints, a steered response", () => {
    const history: ChatCompletionMessageParam[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare these.', prompt_cache_breakpoint: { mode: 'explicit', ttl: '12h' } },
          { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'original' } },
        ],
      },
    ];
    const chat = fromOpenAIChat(history);
    expect(chat.warnings).toEqual([]);
    expect(toOpenAIChat(chat).messages).toStrictEqual(history);

    const items: ResponseInputItem[] = [
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Compare these.', prompt_cache_breakpoint: { mode: 'explicit' } },
          { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'original' },
        ],
      },
    ];
    expect(toOpenAIResponses(fromOpenAIResponses(items)).items).toStrictEqual(items);

    const steered = {
      id: 'resp_1',
      model: 'gpt-5',
      status: 'incomplete',
      incomplete_details: { reason: 'steered' },
      output: [
        {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Half done; switching.', annotations: [] }],
        },
      ],
    } satisfies OpenAIResponse;
    expect(fromOpenAIResponse(steered).stopReason).toBe('stop');
    const limited = { ...steered, incomplete_details: { reason: 'max_messages' } } satisfies OpenAIResponse;
    expect(fromOpenAIResponse(limited).stopReason).toBe('length');
  });
});
