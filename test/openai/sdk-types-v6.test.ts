// The wire types of `ctxkit/openai` against the real `openai` 6 SDK's (a dev dependency under the `openai-v6` alias): what the SDK
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
import type OpenAI from 'openai-v6';
import type { ChatCompletion, ChatCompletionMessageParam } from 'openai-v6/resources/chat/completions';
import type { CompletionUsage } from 'openai-v6/resources/completions';
import type { Response, ResponseInputItem, ResponseUsage } from 'openai-v6/resources/responses/responses';
import { describe, expect, expectTypeOf, test } from 'vitest';

describe('structural compatibility with openai 6', () => {
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
});
