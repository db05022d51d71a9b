// createOpenAISummarizer's prompt_cache_key and reuseConversation: summary calls sent as the
// conversation continued, so OpenAI's automatic prefix cache reads them.

import { createContextManager, type Message } from 'ctxkit';
import {
  createOpenAISummarizer,
  type OpenAIChatCompletion,
  type OpenAIChatTool,
  type OpenAIResponse,
  type OpenAISummarizerClient,
  toOpenAIChat,
} from 'ctxkit/openai';
import { describe, expect, it } from 'vitest';

const SYSTEM = 'You are a coding agent.';
const TOOLS: OpenAIChatTool[] = [
  {
    type: 'function',
    function: { name: 'read_log', parameters: { type: 'object', properties: { file: { type: 'string' } } } },
  },
];

function client(answer: string) {
  const chat: Record<string, unknown>[] = [];
  const responses: Record<string, unknown>[] = [];
  const fake: OpenAISummarizerClient = {
    chat: {
      completions: {
        async create(body) {
          chat.push(body);
          return {
            id: 'c',
            model: 'gpt-5',
            choices: [
              { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: answer, refusal: null } },
            ],
          } as OpenAIChatCompletion;
        },
      },
    },
    responses: {
      async create(body) {
        responses.push(body);
        return {
          id: 'r',
          status: 'completed',
          output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: answer }] }],
        } as unknown as OpenAIResponse;
      },
    },
  };
  return { fake, chat, responses };
}

const conversation: Message[] = [
  { role: 'user', content: 'Check the logs.' },
  { role: 'assistant', content: [{ type: 'toolCall', id: 'call_1', name: 'read_log', arguments: { file: 'a.log' } }] },
  {
    role: 'toolResult',
    toolCallId: 'call_1',
    toolName: 'read_log',
    content: [{ type: 'text', text: 'a.log: 2 failed' }],
  },
  { role: 'assistant', content: [{ type: 'text', text: 'Two tests fail.' }] },
];

describe('createOpenAISummarizer and the prompt cache', () => {
  it('sends a summary request with a conversation as that conversation continued (Chat Completions)', async () => {
    const { fake, chat } = client('## Goal\n- Fix the logs.');
    const summarizer = createOpenAISummarizer({
      client: fake,
      model: 'gpt-5',
      reuseConversation: { systemPrompt: SYSTEM, tools: TOOLS, promptCacheKey: 'session-1' },
    });
    const output = await summarizer.summarize({
      kind: 'compaction',
      messages: conversation.slice(0, 3),
      conversation,
      text: '',
      maxOutputTokens: 1_000,
    });
    expect(output).toMatchObject({ text: '## Goal\n- Fix the logs.' });
    const body = chat[0]!;
    const sent = toOpenAIChat({ systemPrompt: SYSTEM, messages: conversation }).messages;
    // The conversation's request is a prefix of the summary request: the cache reads it.
    expect((body['messages'] as unknown[]).slice(0, sent.length)).toEqual(sent);
    expect((body['messages'] as Array<{ role: string; content: string }>).at(-1)!.content).toContain(
      'Write a checkpoint of the conversation above',
    );
    expect(body).toMatchObject({
      model: 'gpt-5',
      tools: TOOLS,
      prompt_cache_key: 'session-1',
      max_completion_tokens: 1_000,
    });
  });

  it('falls back to the rebuilt prompt without a conversation, passing the prompt_cache_key (Responses)', async () => {
    const { fake, responses } = client('- read_log a.log → 2 failed');
    const summarizer = createOpenAISummarizer({
      client: fake,
      model: 'gpt-5',
      api: 'responses',
      promptCacheKey: 'summaries',
      reuseConversation: { systemPrompt: SYSTEM },
    });
    await summarizer.summarize({
      kind: 'tool_results',
      messages: conversation.slice(1, 3),
      text: 'x',
      maxOutputTokens: 300,
    });
    expect(responses[0]).toMatchObject({ prompt_cache_key: 'summaries', input: expect.stringContaining('x') });
    await summarizer.summarize({
      kind: 'tool_results',
      messages: conversation.slice(1, 3),
      conversation,
      text: 'x',
      maxOutputTokens: 300,
    });
    const items = responses[1]!['input'] as Array<{ role?: string; content?: unknown }>;
    expect(Array.isArray(items)).toBe(true);
    expect(JSON.stringify(items.at(-1))).toContain('call_1');
    expect(responses[1]).toMatchObject({ prompt_cache_key: 'summaries', store: false });
  });

  it('falls back to the rebuilt prompt when the continued conversation is refused as too long, and only then', async () => {
    const { fake, chat } = client('## Goal\n- Fix the logs.');
    const create = fake.chat!.completions.create.bind(fake.chat!.completions);
    let refuse: Error | undefined;
    fake.chat!.completions.create = async (body, options) => {
      // The continued conversation has the conversation's messages; the rebuilt prompt two.
      if (refuse !== undefined && (body['messages'] as unknown[]).length > 2) {
        chat.push(body);
        throw refuse;
      }
      return create(body, options);
    };
    const summarizer = createOpenAISummarizer({
      client: fake,
      model: 'gpt-5',
      reuseConversation: { systemPrompt: SYSTEM },
    });
    const request = {
      kind: 'compaction' as const,
      messages: conversation.slice(0, 3),
      conversation,
      text: '',
      maxOutputTokens: 500,
    };
    refuse = Object.assign(new Error("400 This model's maximum context length is 60000 tokens."), { status: 400 });
    await expect(summarizer.summarize(request)).resolves.toMatchObject({ text: '## Goal\n- Fix the logs.' });
    expect(chat.map((body) => (body['messages'] as unknown[]).length)).toEqual([6, 2]);
    // Any other refusal is the summarizer's failure, reported as it came (no second request).
    refuse = Object.assign(new Error('401 Incorrect API key provided.'), { status: 401 });
    await expect(summarizer.summarize(request)).rejects.toThrow('401');
    expect(chat).toHaveLength(3);
  });

  it('gets the conversation from the context manager when it archives a batch', async () => {
    const { fake, chat } = client('- read_log → ok');
    const manager = createContextManager({
      contextWindow: 100_000,
      systemPrompt: SYSTEM,
      summarizer: createOpenAISummarizer({ client: fake, model: 'gpt-5', reuseConversation: { systemPrompt: SYSTEM } }),
      config: { toolCallCutoff: 1, toolSummaryBatch: 1 },
    });
    let history: Message[] = [{ role: 'user', content: 'Check the logs.' }];
    for (let step = 0; step < 3; step++) {
      history = [
        ...history,
        { role: 'assistant', content: [{ type: 'toolCall', id: `c${step}`, name: 'read_log', arguments: {} }] },
        { role: 'toolResult', toolCallId: `c${step}`, toolName: 'read_log', content: [{ type: 'text', text: 'ok' }] },
      ];
      history = (await manager.prepare(history)).history;
    }
    expect(chat).toHaveLength(1);
    const messages = chat[0]!['messages'] as Array<{ role: string; content: unknown }>;
    expect(messages[0]).toEqual({ role: 'system', content: SYSTEM });
    expect(messages.length).toBeGreaterThan(3);
  });
});
