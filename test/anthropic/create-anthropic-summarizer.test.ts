import { ConfigError } from 'ctxkit';
import { createGenerateTextSummarizer } from 'ctxkit/ai-sdk';
import { type AnthropicSummaryRequest, createAnthropicSummarizer } from 'ctxkit/anthropic';
import { describe, expect, it } from 'vitest';

function fakeClient(reply = { text: '## Goal\n- Fix it', stop: 'end_turn' }) {
  const bodies: AnthropicSummaryRequest[] = [];
  const client = {
    messages: {
      create: async (body: AnthropicSummaryRequest) => {
        bodies.push(body);
        return {
          role: 'assistant' as const,
          model: body.model,
          content: [{ type: 'text', text: reply.text }],
          stop_reason: reply.stop,
          usage: { input_tokens: 10, output_tokens: 5 },
        };
      },
    },
  };
  return { client, bodies };
}

const request = (maxOutputTokens: number) => ({
  kind: 'compaction' as const,
  messages: [],
  text: 'user: fix the parser',
  maxOutputTokens,
});

describe('createAnthropicSummarizer', () => {
  it("clamps max_tokens to the SDK's non-streaming limit, a model's own limit, the model's output and the host's cap", async () => {
    const { client, bodies } = fakeClient();
    await createAnthropicSummarizer({ client, model: 'claude-sonnet-4-6' }).summarize(request(32_000));
    await createAnthropicSummarizer({ client, model: 'claude-opus-4-1@20250805' }).summarize(request(32_000));
    await createAnthropicSummarizer({ client, model: 'claude-3-5-haiku' }).summarize(request(32_000));
    await createAnthropicSummarizer({ client, model: 'claude-sonnet-4-6', maxOutputTokens: 40_000 }).summarize(
      request(48_000),
    );
    await createAnthropicSummarizer({ client, model: 'claude-sonnet-4-6' }).summarize(request(2_000));
    expect(bodies.map((body) => body.max_tokens)).toEqual([21_333, 8_192, 8_192, 40_000, 2_000]);
    expect(bodies[0]).toMatchObject({ model: 'claude-sonnet-4-6', messages: [{ role: 'user' }] });
  });

  it('reports a summary cut off at max_tokens as cut off', async () => {
    const { client } = fakeClient({ text: '## Goal\n- Fix', stop: 'max_tokens' });
    expect(await createAnthropicSummarizer({ client, model: 'claude-haiku-4-5' }).summarize(request(1_000))).toEqual({
      text: '## Goal\n- Fix',
      stopReason: 'length',
    });
  });

  it('names a missing client or model', () => {
    expect(() => createAnthropicSummarizer({ client: {} as never, model: 'x' })).toThrow(ConfigError);
    expect(() => createAnthropicSummarizer({ client: fakeClient().client, model: '' })).toThrow('`model`');
  });
});

describe('createGenerateTextSummarizer', () => {
  it("clamps maxOutputTokens to the model's output and passes the abort signal", async () => {
    const calls: { maxOutputTokens: number; abortSignal?: AbortSignal }[] = [];
    const generateText = async (options: { maxOutputTokens: number; abortSignal?: AbortSignal }) => {
      calls.push(options);
      return { text: 'summary', finishReason: 'stop' };
    };
    const signal = new AbortController().signal;
    const model = { modelId: 'claude-3-5-haiku-20241022' };
    await createGenerateTextSummarizer({ generateText, model }).summarize({ ...request(32_000), signal });
    await createGenerateTextSummarizer({ generateText, model: 'my-local-model' }).summarize(request(32_000));
    await createGenerateTextSummarizer({ generateText, model, maxOutputTokens: 1_000 }).summarize(request(32_000));
    expect(calls.map((call) => call.maxOutputTokens)).toEqual([8_192, 32_000, 1_000]);
    expect(calls[0]!.abortSignal).toBe(signal);
  });
});
