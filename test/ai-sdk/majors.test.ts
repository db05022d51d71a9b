import type { ModelMessage } from 'ai';
import { createContextManager, heuristicSummarizer } from 'ctxkit';
import {
  ctxkitMiddleware,
  fromGenerateTextResult,
  fromModelMessages,
  fromStreamTextResult,
  toModelMessages,
} from 'ctxkit/ai-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnthropicServer, startAnthropicServer } from '../anthropic/loopback-anthropic-server.js';
import { majors } from './sdk-majors.js';

// What changed between `ai` 6 and 7 that the converters see: tagged file data and provider
// references in messages, the `media` tool-output item gone, `responseMessages` holding every step
// (with `response.messages` the last step's only) and `usage` summed over the steps.

describe('ai 7 message shapes', () => {
  const bytes = new Uint8Array([137, 80, 78, 71]);

  it('reads tagged file data as an image and writes it back tagged', () => {
    const messages: ModelMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'file', data: { type: 'data', data: bytes }, mediaType: 'image/png' },
          { type: 'file', data: { type: 'url', url: new URL('https://example.com/a.png') }, mediaType: 'image/png' },
          { type: 'file', data: { type: 'data', data: bytes }, mediaType: 'application/pdf', filename: 'a.pdf' },
          { type: 'file', data: { type: 'reference', reference: { openai: 'file_1' } }, mediaType: 'image/png' },
          { type: 'image', image: { anthropic: 'file_2' } },
        ],
      },
    ];
    const read = fromModelMessages(messages);
    const content = read.messages[0]!.content as { type: string; data?: string }[];
    expect(content.map((part) => part.type)).toEqual(['image', 'image', 'text', 'text', 'text']);
    expect(content[0]!.data).toBe('iVBORw==');
    expect(content[1]!.data).toBe('https://example.com/a.png');
    expect(toModelMessages(read).messages).toStrictEqual(messages);
  });

  it("writes an image read from ai 6's deprecated media item as image-data, which both majors accept", () => {
    const read = fromModelMessages([
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'shot', input: {} }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c',
            toolName: 'shot',
            output: { type: 'content', value: [{ type: 'media', data: 'iVBORw==', mediaType: 'image/png' }] },
          },
        ],
      },
    ] as never);
    expect(toModelMessages(read).messages[1]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c',
          toolName: 'shot',
          output: { type: 'content', value: [{ type: 'image-data', data: 'iVBORw==', mediaType: 'image/png' }] },
        },
      ],
    });
  });
});

describe.each(majors)('result converters on a multi-step result ($name)', (major) => {
  const { generateText, jsonSchema, stepCountIs, streamText, tool, wrapLanguageModel } = major.ai;
  let server: AnthropicServer;
  beforeAll(async () => {
    server = await startAnthropicServer({ contextWindow: 100_000 });
  });
  afterAll(() => server.close());

  const tools = {
    read_log: tool({
      inputSchema: jsonSchema<{ file: string }>({ type: 'object', properties: { file: { type: 'string' } } }),
      execute: async ({ file }) => `${file}: ok`,
    }),
  };

  it('takes every step’s messages and the last step’s usage (the size of the last request)', async () => {
    const model = major.createAnthropic({ apiKey: 'test-key', baseURL: `${server.url}/v1` })('claude-sonnet-4-6');
    const options = {
      model,
      tools,
      messages: [{ role: 'user' as const, content: 'Check the logs.' }],
      stopWhen: stepCountIs(6),
      maxRetries: 0,
    };
    const result = await generateText(options);
    expect(result.steps.length).toBeGreaterThan(2);
    const converted = fromGenerateTextResult(result);
    const lastStep = result.steps.at(-1)!;
    expect(converted.messages.filter((message) => message.role === 'assistant')).toHaveLength(result.steps.length);
    expect(converted.usage.input + (converted.usage.cacheRead ?? 0)).toBe(lastStep.usage.inputTokens);
    expect(converted.usage.output).toBe(lastStep.usage.outputTokens);
    const streamed = await fromStreamTextResult(streamText(options));
    expect(streamed.messages.map((message) => message.role)).toEqual(converted.messages.map((message) => message.role));
    expect(streamed.usage.output).toBe(converted.usage.output);
  });

  it('the middleware passes images in the provider prompt of either major (tagged file data in ai 7)', async () => {
    const provider = major.createAnthropic({ apiKey: 'test-key', baseURL: `${server.url}/v1` });
    const manager = createContextManager({ contextWindow: 100_000, summarizer: heuristicSummarizer });
    const model = wrapLanguageModel({ model: provider('claude-sonnet-4-6'), middleware: ctxkitMiddleware(manager) });
    const before = server.stats.requests;
    const result = await generateText({
      model,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this screenshot?' },
            { type: 'image', image: new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), mediaType: 'image/png' },
          ],
        },
      ],
      maxRetries: 0,
    });
    expect(result.text.length).toBeGreaterThan(0);
    expect(server.stats.requests).toBe(before + 1);
    expect(server.stats.rejected).toEqual([]);
  });
});
