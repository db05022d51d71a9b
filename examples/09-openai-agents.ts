/**
 * A tool-using agent on the OpenAI Agents SDK with ctxkit: the conversation kept in a ctxkit SQLite
 * store (a PostgreSQL store shares it across workers), each model call's input prepared by ctxkit.
 * The lines marked `// ctxkit` are all the glue.
 *
 * Run: OPENAI_API_KEY=… node --import tsx examples/09-openai-agents.ts "Which files here are TypeScript?"
 * (OPENAI_BASE_URL points the client at another OpenAI-compatible endpoint.)
 */
import { readdirSync } from 'node:fs';
import { Agent, type AgentInputItem, OpenAIResponsesModel, run, setTracingDisabled, tool } from '@openai/agents';
import Database from 'better-sqlite3';
import { formatStatusLine } from 'ctxkit';
import { createOpenAISummarizer } from 'ctxkit/openai';
import { createAgentsInputFilter, createAgentsSession } from 'ctxkit/openai-agents';
import { createSqliteStore } from 'ctxkit/sqlite';
import OpenAI from 'openai';
import { z } from 'zod';

const listFiles = tool({
  name: 'list_files',
  description: 'Lists the entries of a directory under the current one.',
  parameters: z.object({ directory: z.string() }),
  execute: ({ directory }) => {
    const safe = !directory.startsWith('/') && !directory.split(/[\\/]/).includes('..');
    return safe ? readdirSync(directory).join('\n') : 'error: stay inside the current directory';
  },
});

if (!process.env['OPENAI_API_KEY']) {
  console.log('Set OPENAI_API_KEY (and optionally OPENAI_BASE_URL) to run this example.');
  process.exit(0);
}
if (process.env['OPENAI_BASE_URL']) setTracingDisabled(true);

const client = new OpenAI();
const store = createSqliteStore({ database: new Database(':memory:') });
const session = createAgentsSession<AgentInputItem>({ store, sessionId: 'example' }); // ctxkit
const summarizer = createOpenAISummarizer({ client, model: 'gpt-4o-mini' });
const callModelInputFilter = createAgentsInputFilter({ model: 'gpt-4o', summarizer, session }); // ctxkit

const agent = new Agent({
  name: 'coder',
  instructions: 'You are a coding agent. Use list_files to look around before you answer.',
  model: callModelInputFilter.wrapModel(new OpenAIResponsesModel(client, 'gpt-4o')), // ctxkit
  tools: [listFiles],
});

const question = process.argv[2] ?? 'Which files here are TypeScript?';
const result = await run(agent, question, { session, callModelInputFilter, maxTurns: 10 }); // ctxkit
console.log(result.finalOutput);
const stats = callModelInputFilter.stats();
if (stats) console.log(formatStatusLine(stats));
