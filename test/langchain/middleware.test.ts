// ctxkitMiddleware's own contract, driven as createAgent drives it (wrapModelCall with the agent's
// request and the handler that calls the model): one manager per conversation, the agent's system
// prompt and tools counted, the agent's messages sent as they are unless ctxkit changed them, the
// request's own messages never touched, and loud refusals where a silent guess would mix conversations.

import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { ConfigError, createContextManager } from 'ctxkit';
import { ctxkitMiddleware, type LangChainModelRequest } from 'ctxkit/langchain';
import { createScriptedSummarizer } from 'ctxkit/testing';
import { tool } from 'langchain';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { z as z3 } from 'zod3';

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

  test('zod 3 and zod/mini tool schemas are counted about as LangChain sends them', async () => {
    const schemas = {
      'zod 3': z3.object({
        path: z3.string().describe('The path, relative to the repository root'),
        encoding: z3.enum(['utf8', 'latin1']).default('utf8'),
        lines: z3.object({ from: z3.number().int(), to: z3.number().int().optional() }).nullable(),
        globs: z3.array(z3.string().describe('A glob of files to skip')).optional(),
      }),
      'zod/mini': zm.object({
        path: zm.string().check(zm.describe('The path, relative to the repository root')),
        encoding: zm._default(zm.enum(['utf8', 'latin1']), 'utf8'),
        lines: zm.nullable(zm.object({ from: zm.int(), to: zm.optional(zm.int()) })),
        globs: zm.optional(zm.array(zm.string().check(zm.describe('A glob of files to skip')))),
      }),
    };
    const toolsCost = (tools: unknown[]) =>
      createContextManager({ model: 'gpt-4o', summarizer: createScriptedSummarizer([]), tools }).stats([]).breakdown
        .tools;
    for (const [flavor, schema] of Object.entries(schemas)) {
      const readLines = tool(async () => '', {
        name: 'read_lines',
        description: 'Read lines of a file',
        schema: schema as never,
      });
      // What LangChain itself sends for the tool, and a tool without parameters.
      const sent = convertToOpenAITool(readLines).function;
      const expected = toolsCost([sent]);
      const bare = toolsCost([{ name: sent.name, description: sent.description }]);
      const middleware = ctxkitMiddleware({ model: 'gpt-4o', summarizer: createScriptedSummarizer([]) });
      await middleware.wrapModelCall(
        { ...request([new HumanMessage({ content: 'a', id: 'm1' })], 't'), tools: [readLines] },
        async () => reply(),
      );
      const counted = middleware.managerOf('t')!.stats([]).breakdown.tools;
      expect(expected - bare, flavor).toBeGreaterThan(60);
      expect(Math.abs(counted - expected), `${flavor}: ${counted} counted, LangChain sends ${expected}`).toBeLessThan(
        expected * 0.1,
      );
    }
  });

  test('a self-referencing zod 3 schema is counted, and stops', async () => {
    interface Node {
      name: string;
      children: Node[];
    }
    const node: z3.ZodType<Node> = z3.lazy(() => z3.object({ name: z3.string(), children: z3.array(node) }));
    const middleware = ctxkitMiddleware({ model: 'gpt-4o', summarizer: createScriptedSummarizer([]) });
    await middleware.wrapModelCall(
      {
        ...request([new HumanMessage({ content: 'a', id: 'm1' })], 't'),
        tools: [{ name: 'plant', description: 'Plant a tree', schema: z3.object({ root: node, left: node }) }],
      },
      async () => reply(),
    );
    const tools = middleware.managerOf('t')!.stats([]).breakdown.tools;
    expect(tools).toBeGreaterThan(30);
    expect(tools).toBeLessThan(200);
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
