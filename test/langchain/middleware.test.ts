// ctxkitMiddleware's own contract, driven as createAgent drives it (wrapModelCall with the agent's
// request and the handler that calls the model): one manager per conversation, the agent's system
// prompt and tools counted, the agent's messages sent as they are unless ctxkit changed them, the
// request's own messages never touched, and loud refusals where a silent guess would mix conversations.

import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { ConfigError, createContextManager } from 'ctxkit';
import { ctxkitMiddleware, type LangChainModelRequest } from 'ctxkit/langchain';
import { createScriptedSummarizer } from 'ctxkit/testing';
import { tool } from 'langchain';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

const readFile = tool(async () => '', {
  name: 'read_file',
  description: 'Read a file of the repository and return its text',
  schema: z.object({ path: z.string().describe('The path, relative to the repository root') }),
});

function request(messages: BaseMessage[], threadId?: string): LangChainModelRequest & { messages: BaseMessage[] } {
  return {
    messages,
    systemMessage: new SystemMessage('You are a careful coding agent.'),
    tools: [readFile],
    runtime: threadId ? { configurable: { thread_id: threadId } } : {},
  };
}

const reply = (usage = 100) =>
  new AIMessage({
    content: 'Done.',
    usage_metadata: { input_tokens: usage, output_tokens: 5, total_tokens: usage + 5 },
  });

describe('ctxkitMiddleware (LangChain)', () => {
  test('keeps one manager per conversation, counting the system prompt and the tools', async () => {
    const middleware = ctxkitMiddleware({ model: 'gpt-4o', summarizer: createScriptedSummarizer([]) });
    const handler = async () => reply();
    await middleware.wrapModelCall(request([new HumanMessage({ content: 'a', id: 'm1' })], 'thread-a'), handler);
    await middleware.wrapModelCall(request([new HumanMessage({ content: 'b', id: 'm2' })], 'thread-b'), handler);
    const a = middleware.managerOf('thread-a');
    const b = middleware.managerOf('thread-b');
    expect(a).toBeDefined();
    expect(b).toBeDefined();
    expect(a).not.toBe(b);
    const { breakdown } = a!.stats([]);
    expect(breakdown.systemPrompt).toBeGreaterThan(0);
    // The tool's name, description and JSON schema (with the field's description) are counted.
    expect(breakdown.tools).toBeGreaterThan(20);
  });

  test("tools are counted with zod's JSON Schema, a Standard JSON Schema's, or the JSON Schema given", async () => {
    // A plain copy: zod's result also carries its own (input-side) Standard JSON Schema.
    const jsonSchema = JSON.parse(JSON.stringify(z.toJSONSchema(readFile.schema as z.ZodObject)));
    const standard = { '~standard': { version: 1, vendor: 'test', jsonSchema: { input: () => jsonSchema } } };
    const tools = [readFile, { ...readFile, schema: jsonSchema }, { ...readFile, schema: standard }];
    const middleware = ctxkitMiddleware({ model: 'gpt-4o', summarizer: createScriptedSummarizer([]) });
    await middleware.wrapModelCall(
      { ...request([new HumanMessage({ content: 'a', id: 'm1' })], 't'), tools },
      async () => reply(),
    );
    const described = { name: readFile.name, description: readFile.description, parameters: jsonSchema };
    const expected = createContextManager({
      model: 'gpt-4o',
      summarizer: createScriptedSummarizer([]),
      systemPrompt: 'You are a careful coding agent.',
      tools: [described, described, described],
    });
    expect(middleware.managerOf('t')!.stats([]).breakdown.tools).toBe(expected.stats([]).breakdown.tools);
  });

  test('without a thread id, the first message id names the conversation; without either it refuses', async () => {
    const middleware = ctxkitMiddleware({ summarizer: createScriptedSummarizer([]), contextWindow: 100_000 });
    await middleware.wrapModelCall(request([new HumanMessage({ content: 'a', id: 'first' })]), async () => reply());
    expect(middleware.managerOf('first')).toBeDefined();
    await expect(middleware.wrapModelCall(request([new HumanMessage('no id')]), async () => reply())).rejects.toThrow(
      ConfigError,
    );
    expect(() => ctxkitMiddleware({ summarizer: createScriptedSummarizer([]), maxConversations: 0 })).toThrow(
      /maxConversations/,
    );
  });

  test('sends the agent’s own messages where ctxkit left them alone, new ones of the same class where it cut', async () => {
    const middleware = ctxkitMiddleware({
      summarizer: createScriptedSummarizer([]),
      contextWindow: 200_000,
      config: { toolOutput: { maxLines: 50 } },
    });
    const long = Array.from({ length: 2_000 }, (_, line) => `line ${line}`).join('\n');
    const messages: BaseMessage[] = [
      new HumanMessage({ content: 'read it', id: 'h1' }),
      new AIMessage({ content: '', id: 'a1', tool_calls: [{ id: 'c1', name: 'read_file', args: { path: 'a.ts' } }] }),
      new ToolMessage({ content: long, tool_call_id: 'c1', name: 'read_file', id: 't1' }),
    ];
    const before = [...messages];
    let sent: BaseMessage[] = [];
    await middleware.wrapModelCall(request(messages, 'cut'), async (call) => {
      sent = call.messages as BaseMessage[];
      return reply();
    });
    expect(sent[0]).toBe(messages[0]);
    expect(sent[1]).toBe(messages[1]);
    expect(sent[2]).not.toBe(messages[2]);
    expect(ToolMessage.isInstance(sent[2])).toBe(true);
    expect((sent[2] as ToolMessage).tool_call_id).toBe('c1');
    expect(String(sent[2]!.content).length).toBeLessThan(long.length / 4);
    // The agent's state is never touched.
    expect(messages).toEqual(before);
    expect(messages[2]!.content).toBe(long);
  });

  test('an overflow is compacted and retried once; the reply comes back as the model gave it', async () => {
    const middleware = ctxkitMiddleware({
      summarizer: createScriptedSummarizer(['## Goal\nAnswer the questions.']),
      contextWindow: 200_000,
      config: { keepRecentTokens: 50 },
    });
    const messages: BaseMessage[] = [];
    for (let turn = 0; turn < 6; turn++) {
      messages.push(new HumanMessage({ content: `question ${turn} ${'word '.repeat(200)}`, id: `h${turn}` }));
      messages.push(new AIMessage({ content: `answer ${turn}`, id: `a${turn}` }));
    }
    messages.push(new HumanMessage({ content: 'last question', id: 'last' }));
    const sizes: number[] = [];
    const answer = reply();
    const result = await middleware.wrapModelCall(request(messages, 'overflow'), async (call) => {
      sizes.push(call.messages.length);
      if (sizes.length === 1) {
        throw Object.assign(new Error("This model's maximum context length is 128000 tokens."), {
          status: 400,
          code: 'context_length_exceeded',
        });
      }
      return answer;
    });
    expect(result).toBe(answer);
    expect(sizes).toHaveLength(2);
    expect(sizes[1]).toBeLessThan(sizes[0]!);
  });
});
