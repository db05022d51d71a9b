/**
 * A tool-using agent on the AI SDK (`generateText` with `@ai-sdk/anthropic`) with ctxkit as a
 * language-model middleware. The lines marked `// ctxkit` are all the glue (one wrapped model for
 * the process, one manager per conversation, built with the call's system prompt and tools): the
 * rest is plain AI SDK code, and the host keeps its whole `ModelMessage[]` while each request is prepared, truncated,
 * archived and compacted inside the middleware, with one recovery from an overflow per call.
 *
 * Written for `ai` 7 and `@ai-sdk/anthropic` 4 (ctxkit works with `ai` 6 and its providers 3 too).
 *
 * Run: ANTHROPIC_API_KEY=… node --import tsx examples/06-ai-sdk.ts "Which files here are TypeScript?"
 * (ANTHROPIC_BASE_URL points the provider at another endpoint, e.g. https://host/v1.)
 */
import { readdirSync } from 'node:fs';
import { anthropic } from '@ai-sdk/anthropic';
import { generateText, jsonSchema, type ModelMessage, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { createContextManager } from 'ctxkit';
import { createGenerateTextSummarizer, ctxkitMiddleware } from 'ctxkit/ai-sdk';

const MODEL = 'claude-sonnet-4-6';

const tools = {
  list_files: tool({
    description: 'Lists the entries of a directory under the current one.',
    inputSchema: jsonSchema<{ directory: string }>({
      type: 'object',
      properties: { directory: { type: 'string' } },
      required: ['directory'],
    }),
    execute: async ({ directory }) =>
      directory.startsWith('/') || directory.split(/[\\/]/).includes('..')
        ? 'error: stay inside the current directory'
        : readdirSync(directory).join('\n'),
  }),
};

if (!process.env['ANTHROPIC_API_KEY']) {
  console.log('Set ANTHROPIC_API_KEY (and optionally ANTHROPIC_BASE_URL) to run this example.');
  process.exit(0);
}

// One wrapped model for the whole process; the middleware keeps one manager per conversation, built
// with the call's system prompt and tool definitions so both are counted.
const summarizer = createGenerateTextSummarizer({ generateText, model: anthropic('claude-haiku-4-5') }); // ctxkit
const middleware = ctxkitMiddleware({
  createManager: ({ systemPrompt, tools }) => createContextManager({ model: MODEL, summarizer, systemPrompt, tools }),
}); // ctxkit
const model = wrapLanguageModel({ model: anthropic(MODEL), middleware }); // ctxkit

const messages: ModelMessage[] = [{ role: 'user', content: process.argv[2] ?? 'Which files here are TypeScript?' }];
const result = await generateText({
  model,
  system: 'You are a coding agent. Use list_files to look around before you answer.',
  tools,
  messages,
  stopWhen: stepCountIs(10),
  providerOptions: { ctxkit: { conversationId: 'example-06' } }, // ctxkit
});
// Every step's messages (tool calls and results included). `ai` 7 keeps them in `responseMessages`;
// its `response.messages` holds only the last step's. Under `ai` 6, use `result.response.messages`.
messages.push(...result.responseMessages);
console.log(result.text);
