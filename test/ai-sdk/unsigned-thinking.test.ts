import type { ModelMessage } from 'ai';
import { createContextManager, heuristicSummarizer, type Message } from 'ctxkit';
import { ctxkitMiddleware, fromModelMessages, toModelMessages } from 'ctxkit/ai-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnthropicServer, startAnthropicServer } from '../anthropic/loopback-anthropic-server.js';
import { majors } from './sdk-majors.js';

// An assistant turn of unsigned thinking only: @ai-sdk/anthropic drops the reasoning and would send
// `{"role":"assistant","content":[]}`, which Anthropic rejects. Every ctxkit/ai-sdk path drops the turn.

const unsignedTurn: Message = { role: 'assistant', content: [{ type: 'thinking', thinking: 'Let me think.' }] };

describe('unsigned thinking through ctxkit/ai-sdk', () => {
  it('toModelMessages drops an assistant turn of unsigned thinking only, with a warning', () => {
    const { messages, warnings } = toModelMessages({
      messages: [{ role: 'user', content: 'hi' }, unsignedTurn, { role: 'user', content: 'again' }],
    });
    expect(messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'user', content: 'again' },
    ]);
    expect(warnings).toEqual([{ index: 1, message: expect.stringContaining('unsigned thinking') }]);
  });

  it('drops a reasoning-only turn read from ModelMessages when no provider signed it', () => {
    const read = fromModelMessages([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'reasoning', text: 'hmm' }] },
      { role: 'user', content: 'again' },
    ]);
    const { messages, warnings } = toModelMessages({ messages: read.messages });
    expect(messages.map((message) => message.role)).toEqual(['user', 'user']);
    expect(warnings).toHaveLength(1);
  });

  it('keeps signed thinking, alone or not, and writes a ctxkit signature as the Anthropic one', () => {
    const signedByAnthropic = fromModelMessages([
      {
        role: 'assistant',
        content: [{ type: 'reasoning', text: 'hmm', providerOptions: { anthropic: { signature: 'sig-1' } } }],
      },
    ]).messages;
    const redacted = fromModelMessages([
      {
        role: 'assistant',
        content: [{ type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: 'opaque' } } }],
      },
    ]).messages;
    const { messages, warnings } = toModelMessages({
      messages: [
        ...signedByAnthropic,
        ...redacted,
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'mine', signature: 'sig-2' }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: '', signature: 'blob', redacted: true }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'loose' },
            { type: 'text', text: 'Done.' },
          ],
        },
      ],
    });
    expect(warnings).toEqual([]);
    expect(messages).toEqual([
      {
        role: 'assistant',
        content: [{ type: 'reasoning', text: 'hmm', providerOptions: { anthropic: { signature: 'sig-1' } } }],
      },
      {
        role: 'assistant',
        content: [{ type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: 'opaque' } } }],
      },
      {
        role: 'assistant',
        content: [{ type: 'reasoning', text: 'mine', providerOptions: { anthropic: { signature: 'sig-2' } } }],
      },
      {
        role: 'assistant',
        content: [{ type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: 'blob' } } }],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'loose' },
          { type: 'text', text: 'Done.' },
        ],
      },
    ]);
  });

  describe.each(majors)('through the middleware and @ai-sdk/anthropic ($name)', (major) => {
    const { generateText, wrapLanguageModel } = major.ai;
    let server: AnthropicServer;
    beforeAll(async () => {
      server = await startAnthropicServer({ contextWindow: 50_000 });
    });
    afterAll(() => server.close());

    it('never sends an empty assistant turn', async () => {
      const provider = major.createAnthropic({ apiKey: 'test-key', baseURL: `${server.url}/v1` });
      const manager = createContextManager({ contextWindow: 50_000, summarizer: heuristicSummarizer });
      const model = wrapLanguageModel({ model: provider('claude-sonnet-4-6'), middleware: ctxkitMiddleware(manager) });
      const messages: ModelMessage[] = [
        { role: 'user', content: 'Read the logs.' },
        { role: 'assistant', content: [{ type: 'reasoning', text: 'Which logs? Thinking from another model.' }] },
        { role: 'user', content: 'The parser logs.' },
      ];
      const result = await generateText({ model, messages, maxRetries: 0 });
      expect(result.text.length).toBeGreaterThan(0);
      expect(server.stats.rejected).toEqual([]);
    });
  });
});
