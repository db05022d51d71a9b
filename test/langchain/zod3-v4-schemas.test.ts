// A LangChain tool whose schema comes from zod 3.25's `zod/v4` (a host on zod 3.25 writing zod 4
// schemas): on such a host LangChain converts it with that zod's `toJSONSchema`, descriptions
// included, and ctxkitMiddleware must count it so. That zod keeps descriptions in a registry it does
// not share on globalThis, so they are read through the schema's own `description`.
import { HumanMessage } from '@langchain/core/messages';
import { createContextManager } from 'ctxkit';
import { ctxkitMiddleware } from 'ctxkit/langchain';
import { createScriptedSummarizer } from 'ctxkit/testing';
import { tool } from 'langchain';
import { describe, expect, it } from 'vitest';
import * as z from 'zod3/v4';

const toolsCost = (tools: unknown[]) =>
  createContextManager({ model: 'gpt-4o', summarizer: createScriptedSummarizer([]), tools }).stats([]).breakdown.tools;

describe("ctxkitMiddleware with zod 3.25's zod/v4 tool schemas", () => {
  it('counts the descriptions that zod writes into the JSON Schema', async () => {
    const long = 'Search the project files for the pattern and return each matching line with its path. '.repeat(6);
    const schema = z.object({
      pattern: z.string().describe(long),
      limit: z.number().int().optional().describe('How many lines to return at most.'),
    });
    const parameters = z.toJSONSchema(schema) as { properties: { pattern: unknown } };
    expect(parameters.properties.pattern).toMatchObject({ description: long });
    const sent = toolsCost([{ name: 'grep', description: 'Search', parameters }]);
    const made = tool(async () => '', { name: 'grep', description: 'Search', schema: schema as never });
    const middleware = ctxkitMiddleware({ model: 'gpt-4o', summarizer: createScriptedSummarizer([]) });
    await middleware.wrapModelCall(
      {
        messages: [new HumanMessage({ content: 'a', id: 'm1' })],
        tools: [made],
        runtime: { configurable: { thread_id: 't' } },
      },
      async () => new HumanMessage('ok') as never,
    );
    const counted = middleware.managerOf('t')?.stats([]).breakdown.tools ?? 0;
    expect(Math.abs(counted - sent), `${counted} counted, ${sent} sent`).toBeLessThanOrEqual(0.1 * sent);
  });
});
