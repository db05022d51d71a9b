/**
 * A tool-using agent on the Anthropic SDK with ctxkit keeping its context inside the window. The
 * lines marked `// ctxkit` are all the glue: the manager, the summarizer, the conversion of each
 * request and response, and the tool results. The rest is the tool loop any Anthropic agent has.
 *
 * Run: ANTHROPIC_API_KEY=… node --import tsx examples/05-anthropic-sdk.ts "Which files here are TypeScript?"
 * (ANTHROPIC_BASE_URL points the client at another endpoint.)
 */
import { readdirSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import { createContextManager, formatStatusLine, type Message, type ToolCall } from 'ctxkit';
import {
  createAnthropicSummarizer,
  createToolResultMessage,
  readAnthropicMessage,
  toAnthropic,
} from 'ctxkit/anthropic';

const model = 'claude-sonnet-4-6';
const system = 'You are a coding agent. Use list_files to look around before you answer.';
const tools: Anthropic.Tool[] = [
  {
    name: 'list_files',
    description: 'Lists the entries of a directory under the current one.',
    input_schema: { type: 'object', properties: { directory: { type: 'string' } }, required: ['directory'] },
  },
];

function listFiles(call: ToolCall): string | Error {
  const directory = String(call.arguments['directory'] ?? '.');
  const safe = !directory.startsWith('/') && !directory.split(/[\\/]/).includes('..');
  return safe ? readdirSync(directory).join('\n') : new Error('stay inside the current directory');
}

if (!process.env['ANTHROPIC_API_KEY']) {
  console.log('Set ANTHROPIC_API_KEY (and optionally ANTHROPIC_BASE_URL) to run this example.');
  process.exit(0);
}

const client = new Anthropic();
const summarizer = createAnthropicSummarizer({ client, model: 'claude-haiku-4-5' }); // ctxkit
const manager = createContextManager({ model, summarizer, systemPrompt: system, tools }); // ctxkit

/** One model call: ctxkit messages in, a ctxkit assistant message (with usage and stop reason) out. */
async function callModel(messages: Message[]) {
  const { messages: wire } = toAnthropic({ messages }); // ctxkit
  const response = await client.messages.create({ model, max_tokens: 4_096, system, tools, messages: wire });
  return readAnthropicMessage(response); // ctxkit
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
