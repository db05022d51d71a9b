// The agent tools handed to LangChain.js as its own tools: `tool()` from @langchain/core built from
// each definition's JSON Schema, called through LangChain's `invoke` with a model's tool call.
import { tool } from '@langchain/core/tools';
import { createContextManager, heuristicSummarizer, type Message } from 'ctxkit';
import { createContextTools } from 'ctxkit/agent-tools';
import { toolCallMessage, toolResultMessage, userMessage } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';

describe('ctxkit/agent-tools as LangChain tools', () => {
  it('builds LangChain tools from the JSON Schema definitions and answers their calls', async () => {
    const manager = createContextManager({
      summarizer: heuristicSummarizer,
      contextWindow: 200_000,
      config: { toolCallCutoff: 1, toolSummaryBatch: 0, toolSummaryStrategy: 'heuristic' },
    });
    const output = Array.from({ length: 40 }, (_, line) => `src/app.ts:${line + 1}: const port = ${8000 + line};`).join(
      '\n',
    );
    let history: Message[] = [userMessage('Find the port.')];
    for (const id of ['call_a', 'call_b', 'call_c']) {
      history.push(toolCallMessage([{ id, name: 'grep', arguments: { pattern: 'port' } }]));
      history.push(toolResultMessage(id, `${id}\n${output}`, { toolName: 'grep' }));
    }
    ({ history } = await manager.prepare(history));
    const contextTools = createContextTools(manager);
    const langchainTools = contextTools.definitions.map((definition) =>
      tool(
        async (input: unknown) =>
          (await contextTools.handle({ name: definition.name, arguments: input }, history))?.content ?? '',
        {
          name: definition.name,
          description: definition.description,
          schema: structuredClone(definition.inputSchema) as Record<string, unknown>,
        },
      ),
    );
    expect(langchainTools.map((entry) => entry.name)).toEqual(['context_status', 'recall']);

    const status = await langchainTools[0]!.invoke({});
    expect(status).toMatch(/tokens/);
    const recalled = await langchainTools[1]!.invoke({ id: 'call_a' });
    expect(recalled).toContain('src/app.ts:40: const port = 8039;');
    // LangChain checks the input against the JSON Schema before ctxkit sees it.
    await expect(langchainTools[1]!.invoke({ id: 42 })).rejects.toThrow();
  });
});
