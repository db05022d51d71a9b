/**
 * A tool-using LangChain.js v1 agent (`createAgent`, `ChatOpenAI`) with ctxkit keeping its context
 * inside the window. The lines marked `// ctxkit` are all the glue: one item in `middleware`, and the
 * summarizer it uses. The agent's state keeps every message; ctxkit decides what each call sends.
 *
 * Run: OPENAI_API_KEY=… node --import tsx examples/08-langchain.ts "Which files here are TypeScript?"
 * (OPENAI_BASE_URL points the model at another OpenAI-compatible endpoint.)
 */
import { readdirSync } from 'node:fs';
import { ChatOpenAI } from '@langchain/openai';
import { formatStatusLine } from 'ctxkit';
import { createLangChainSummarizer, ctxkitMiddleware } from 'ctxkit/langchain';
import { createAgent, HumanMessage, tool } from 'langchain';
import { z } from 'zod';

const listFiles = tool(
  ({ directory }) => {
    const safe = !directory.startsWith('/') && !directory.split(/[\\/]/).includes('..');
    return safe ? readdirSync(directory).join('\n') : 'error: stay inside the current directory';
  },
  {
    name: 'list_files',
    description: 'Lists the entries of a directory under the current one.',
    schema: z.object({ directory: z.string() }),
  },
);

if (!process.env['OPENAI_API_KEY']) {
  console.log('Set OPENAI_API_KEY (and optionally OPENAI_BASE_URL) to run this example.');
  process.exit(0);
}

const configuration = process.env['OPENAI_BASE_URL'] ? { baseURL: process.env['OPENAI_BASE_URL'] } : {};
const summarizer = createLangChainSummarizer({ model: new ChatOpenAI({ model: 'gpt-4o-mini', configuration }) }); // ctxkit
const context = ctxkitMiddleware({ model: 'gpt-4o', summarizer }); // ctxkit

const agent = createAgent({
  model: new ChatOpenAI({ model: 'gpt-4o', configuration }),
  tools: [listFiles],
  systemPrompt: 'You are a coding agent. Use list_files to look around before you answer.',
  middleware: [context], // ctxkit
});

const question = process.argv[2] ?? 'Which files here are TypeScript?';
const state = await agent.invoke(
  { messages: [new HumanMessage(question)] },
  { configurable: { thread_id: 'example' }, recursionLimit: 25 },
);
console.log(state.messages.at(-1)?.text);
const stats = context.statsOf('example');
if (stats) console.log(formatStatusLine(stats));
