// The tool definitions ctxkit hands out (`ctxkit/agent-tools`, `ctxkit/memory`) put into each SDK's
// tool shape exactly as docs/agent-tools.md and docs/memory-tool.md write it, with no cast: the
// type checks (run by `tsc` in `npm run check`) hold them to the real SDK types, current and
// previous majors; the calls send them through the real clients to the loopback servers.

import { createAnthropic } from '@ai-sdk/anthropic';
import type Anthropic from '@anthropic-ai/sdk';
import AnthropicClient from '@anthropic-ai/sdk';
import { generateText, jsonSchema, type ToolSet, tool } from 'ai';
import type { jsonSchema as jsonSchemaV6 } from 'ai-v6';
import type AnthropicV112 from 'anthropic-sdk-v1-12';
import { createContextManager, heuristicSummarizer } from 'ctxkit';
import { type ContextToolDefinition, createContextTools } from 'ctxkit/agent-tools';
import { createInMemoryMemoryStore, createMemoryTool, type MemoryToolDefinition } from 'ctxkit/memory';
import type OpenAI from 'openai';
import type OpenAIV6 from 'openai-v6';
import { describe, expect, it } from 'vitest';
import { useLoopbackAnthropic } from '../harness/loopback.js';

type Definition = ContextToolDefinition | MemoryToolDefinition;

/** The shapes of docs/agent-tools.md's table, field for field. */
const anthropicTool = ({ name, description, inputSchema }: Definition): Anthropic.Tool => ({
  name,
  description,
  input_schema: inputSchema,
});
const chatTool = ({ name, description, inputSchema }: Definition): OpenAI.Chat.ChatCompletionTool => ({
  type: 'function',
  function: { name, description, parameters: inputSchema },
});
const responsesTool = ({ name, description, inputSchema }: Definition): OpenAI.Responses.FunctionTool => ({
  type: 'function',
  name,
  description,
  parameters: inputSchema,
  strict: false,
});
const aiSdkTool = ({ description, inputSchema }: Definition) =>
  tool({ description, inputSchema: jsonSchema(structuredClone(inputSchema)) });

function definitions(): Definition[] {
  const manager = createContextManager({ summarizer: heuristicSummarizer, contextWindow: 200_000 });
  const memory = createMemoryTool({ store: createInMemoryMemoryStore() });
  return [...createContextTools(manager).definitions, memory.definition];
}

describe('tool definitions in each SDK shape', () => {
  it('type-check against the SDKs, current and previous majors, without a cast', () => {
    // The previous majors: openai 6, @anthropic-ai/sdk 1.12, ai 6.
    const previous = (definition: Definition) => {
      const anthropic: AnthropicV112.Tool = { name: definition.name, input_schema: definition.inputSchema };
      const chat: OpenAIV6.Chat.ChatCompletionTool = {
        type: 'function',
        function: { name: definition.name, parameters: definition.inputSchema },
      };
      const schema: Parameters<typeof jsonSchemaV6>[0] = structuredClone(definition.inputSchema);
      return { anthropic, chat, schema };
    };
    const shaped = definitions().map((definition) => ({
      anthropic: anthropicTool(definition),
      chat: chatTool(definition),
      responses: responsesTool(definition),
      previous: previous(definition),
    }));
    expect(shaped.map(({ anthropic }) => anthropic.name)).toEqual(['context_status', 'recall', 'memory']);
    expect(shaped.map(({ responses }) => responses.parameters)).toEqual(shaped.map(({ previous }) => previous.schema));
  });

  const loopback = useLoopbackAnthropic({ contextWindow: 200_000 });

  it('reach Anthropic through the SDK and the AI SDK, accepted as sent', async () => {
    const server = loopback.server;
    const client = new AnthropicClient({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    const tools = definitions().map(anthropicTool);
    const reply = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 1_024,
      tools,
      messages: [{ role: 'user', content: 'How full is your context?' }],
    });
    expect(reply.stop_reason).toBe('tool_use');

    const anthropic = createAnthropic({ apiKey: 'test', baseURL: `${server.url}/v1` });
    const toolSet: ToolSet = Object.fromEntries(
      definitions().map((definition) => [definition.name, aiSdkTool(definition)]),
    );
    const result = await generateText({
      model: anthropic('claude-sonnet-4-6'),
      tools: toolSet,
      maxRetries: 0,
      messages: [{ role: 'user', content: 'How full is your context?' }],
    });
    expect(result.toolCalls.length).toBeGreaterThan(0);
    expect(server.stats.rejected).toEqual([]);
  });
});
