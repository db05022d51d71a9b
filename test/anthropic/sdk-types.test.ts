import type Anthropic from '@anthropic-ai/sdk';
import type AnthropicV112 from 'anthropic-sdk-v1-12';
import {
  type AnthropicClientLike,
  type AnthropicMessageInput,
  type AnthropicMessageParam,
  type AnthropicResponse,
  type AnthropicSystemParam,
  type AnthropicToolParam,
  anthropicCompactionParams,
  createAnthropicSummarizer,
  fromAnthropic,
  fromAnthropicMessage,
  toAnthropic,
} from 'ctxkit/anthropic';
import { describe, expect, expectTypeOf, it } from 'vitest';

// The adapter declares the wire format itself; these checks (run by `tsc` in `npm run check`) hold it
// to the SDK's own types in both directions.

describe('structural compatibility with @anthropic-ai/sdk', () => {
  it('what toAnthropic writes is what the SDK accepts, and what the SDK holds is what fromAnthropic reads', () => {
    expectTypeOf<AnthropicMessageParam>().toExtend<Anthropic.MessageParam>();
    expectTypeOf<AnthropicSystemParam>().toExtend<NonNullable<Anthropic.MessageCreateParams['system']>>();
    expectTypeOf<Anthropic.MessageParam>().toExtend<AnthropicMessageInput>();
    expectTypeOf<Anthropic.Message>().toExtend<AnthropicResponse>();
    expectTypeOf<Anthropic>().toExtend<AnthropicClientLike>();
  });

  it('holds for 1.12 too (the release before the current one, under the anthropic-sdk-v1-12 alias)', () => {
    expectTypeOf<AnthropicMessageParam>().toExtend<AnthropicV112.MessageParam>();
    expectTypeOf<AnthropicSystemParam>().toExtend<NonNullable<AnthropicV112.MessageCreateParams['system']>>();
    expectTypeOf<AnthropicV112.MessageParam>().toExtend<AnthropicMessageInput>();
    expectTypeOf<AnthropicV112.Message>().toExtend<AnthropicResponse>();
    expectTypeOf<AnthropicV112>().toExtend<AnthropicClientLike>();
  });

  it('round-trips an SDK-typed request without casts', () => {
    const system: Anthropic.TextBlockParam[] = [
      { type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } },
    ];
    const messages: Anthropic.MessageParam[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'ls', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.ts' }] },
    ];
    const converted = fromAnthropic({ system, messages });
    const { system: sentSystem, messages: sent } = toAnthropic(converted);
    const typed: Anthropic.MessageCreateParamsNonStreaming = {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      ...(sentSystem === undefined ? {} : { system: sentSystem }),
      messages: sent,
    };
    expect(typed.messages).toStrictEqual(messages);
    expect(typed.system).toStrictEqual(system);
    const response: Anthropic.Message = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'Done.', citations: null }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      stop_details: null,
      container: null,
      diagnostics: null,
      usage: {
        input_tokens: 10,
        output_tokens: 2,
        cache_creation_input_tokens: null,
        cache_read_input_tokens: null,
        cache_creation: null,
        inference_geo: null,
        output_tokens_details: null,
        server_tool_use: null,
        service_tier: null,
        speed: null,
      },
    };
    expect(fromAnthropicMessage(response).usage).toEqual({ input: 10, output: 2, total: 12 });
  });
});

describe('the SDK-typed values the README passes to ctxkit/anthropic', () => {
  it("the SDK's own Tool[] (what messages.create takes) is accepted as reuseConversation.tools", () => {
    // The SDK types `input_schema.required` as `string[] | null`; a host passes the same array to both.
    expectTypeOf<Anthropic.Tool>().toExtend<AnthropicToolParam>();
    expectTypeOf<AnthropicV112.Tool>().toExtend<AnthropicToolParam>();
    const tools: Anthropic.Tool[] = [
      { name: 'read', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: null } },
    ];
    const client = { messages: { create: async () => ({}) } } as unknown as Anthropic;
    const summarizer = createAnthropicSummarizer({ client, model: 'claude-sonnet-4-5', reuseConversation: { tools } });
    expect(typeof summarizer.summarize).toBe('function');
  });

  it("anthropicCompactionParams spreads into the SDK's beta messages.create without a cast", () => {
    type BetaParams = Anthropic.Beta.Messages.MessageCreateParamsNonStreaming;
    expectTypeOf<ReturnType<typeof anthropicCompactionParams>['context_management']>().toExtend<
      NonNullable<BetaParams['context_management']>
    >();
    const request: BetaParams = {
      model: 'claude-sonnet-4-6',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'hi' }],
      ...anthropicCompactionParams({ threshold: 150_000 }),
    };
    expect(request.context_management?.edits?.[0]).toMatchObject({ type: 'compact_20260112' });
  });
});
