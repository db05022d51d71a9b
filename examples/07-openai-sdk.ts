/**
 * A tool-using agent on the OpenAI SDK (Chat Completions) with ctxkit keeping its context inside the
 * window. The lines marked `// ctxkit` are all the glue: the manager, the summarizer, the conversion
 * of each request and response, and the tool results. The rest is the tool loop any OpenAI agent has.
 *
 * Run: OPENAI_API_KEY=… node --import tsx examples/07-openai-sdk.ts "Which files here are TypeScript?"
 * (OPENAI_BASE_URL points the client at another OpenAI-compatible endpoint.)
 */
import { readdirSync } from 'node:fs';
import { createContextManager, formatStatusLine, type Message, type ToolCall } from 'ctxkit';
import { createOpenAISummarizer, createToolResultMessage, readOpenAIChatCompletion, toOpenAIChat } from 'ctxkit/openai';
import OpenAI from 'openai';

const model = 'gpt-4o';
const systemPrompt = 'You are a coding agent. Use list_files to look around before you answer.';
const tools: OpenAI.Chat.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'list_files',
      description: 'Lists the entries of a directory under the current one.',
      parameters: { type: 'object', properties: { directory: { type: 'string' } }, required: ['directory'] },
    },
  },
];

function listFiles(call: ToolCall): string | Error {
  const directory = String(call.arguments['directory'] ?? '.');
  const safe = !directory.startsWith('/') && !directory.split(/[\\/]/).includes('..');
  return safe ? readdirSync(directory).join('\n') : new Error('stay inside the current directory');
}

if (!process.env['OPENAI_API_KEY']) {
  console.log('Set OPENAI_API_KEY (and optionally OPENAI_BASE_URL) to run this example.');
  process.exit(0);
}

const client = new OpenAI();
const summarizer = createOpenAISummarizer({ client, model: 'gpt-4o-mini' }); // ctxkit
const manager = createContextManager({ model, summarizer, systemPrompt, tools }); // ctxkit

/** One model call: ctxkit messages in, a ctxkit assistant message (with usage and stop reason) out. */
async function callModel(messages: Message[]) {
  const { messages: wire } = toOpenAIChat({ systemPrompt, messages }); // ctxkit
  const completion = await client.chat.completions.create({ model, tools, messages: wire });
  return readOpenAIChatCompletion(completion); // ctxkit
}

let history: Message[] = [{ role: 'user', content: process.argv[2] ?? 'Which files here are TypeScript?' }];
for (let step = 0; step < 10; step++) {
  const { result, history: kept } = await manager.runWithOverflowRecovery(history, callModel); // ctxkit
  history = [...kept, result]; // ctxkit
  for (const part of result.content) if (part.type === 'text') console.log(part.text);
  if (result.stopReason !== 'toolUse') break;
  for (const call of result.content) {
    if (call.type !== 'toolCall') continue;
    history.push(createToolResultMessage({ toolCallId: call.id, toolName: call.name, output: listFiles(call) })); // ctxkit
  }
}
console.log(formatStatusLine(manager.stats(history)));
