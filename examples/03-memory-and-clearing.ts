/**
 * The memory tool and clearing of old tool results in one loop. A scripted model reads files (large
 * tool output) and keeps notes with the `memory` tool; once the context passes a trigger, old
 * tool results are cleared to a placeholder, but the memory tool's results are never cleared, and
 * the notes survive on disk for the next session.
 *
 * Run: node --import tsx examples/03-memory-and-clearing.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AssistantMessage,
  approximateCounter,
  clearToolUses,
  type Message,
  sumMessageTokens,
  type ToolResultMessage,
} from 'ctxkit';
import { createMemoryTool, memoryToolDefinition } from 'ctxkit/memory';
import { createFileMemoryStore } from 'ctxkit/node';
import { compilerErrors } from './fixtures/coding-session.js';

const directory = await mkdtemp(join(tmpdir(), 'ctxkit-memory-'));
const memory = createMemoryTool({ store: createFileMemoryStore({ directory }) });
console.log(
  `Tool handed to the model: ${memoryToolDefinition.name} (${Object.keys(memoryToolDefinition.inputSchema.properties ?? {}).length} input fields)`,
);

/** What the scripted model does at each step: read a file, or write to memory. */
const script: Array<{ name: string; arguments: Record<string, unknown> }> = [
  { name: 'memory', arguments: { command: 'view', path: '/memories' } },
  { name: 'read_file', arguments: { path: 'src/parser.ts' } },
  {
    name: 'memory',
    arguments: {
      command: 'create',
      path: '/memories/parser-task.md',
      file_text: '# Parser task\n- nested generics fail in parseTypeArguments\n',
    },
  },
  { name: 'read_file', arguments: { path: 'src/lexer.ts' } },
  { name: 'read_file', arguments: { path: 'test/parser.test.ts' } },
  {
    name: 'memory',
    arguments: {
      command: 'str_replace',
      path: '/memories/parser-task.md',
      old_str: 'fail in parseTypeArguments\n',
      new_str: 'fail in parseTypeArguments\n- fix: check for ">" before reading the next token\n',
    },
  },
  { name: 'read_file', arguments: { path: 'src/emitter.ts' } },
  { name: 'read_file', arguments: { path: 'src/checker.ts' } },
  { name: 'memory', arguments: { command: 'view', path: '/memories/../../etc/passwd' } },
  { name: 'read_file', arguments: { path: 'src/index.ts' } },
  { name: 'memory', arguments: { command: 'view', path: '/memories/parser-task.md' } },
];

let seed = 7;
const next = () => {
  seed = (seed * 16_807) % 2_147_483_647;
  return seed / 2_147_483_647;
};

async function runTool(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  if (name === 'memory') {
    const result = await memory.execute(args);
    return 'error' in result ? { text: result.error, isError: true } : { text: result.content, isError: false };
  }
  return { text: `// ${String(args.path)}\n${compilerErrors(120, next)}`, isError: false };
}

let history: Message[] = [
  { role: 'user', content: 'Fix nested generics in the parser. Keep notes in memory as you go.' },
];
for (const [step, action] of script.entries()) {
  const id = `call_${step}`;
  const call: AssistantMessage = {
    role: 'assistant',
    content: [{ type: 'toolCall', id, name: action.name, arguments: action.arguments }],
    stopReason: 'toolUse',
  };
  const output = await runTool(action.name, action.arguments);
  const result: ToolResultMessage = {
    role: 'toolResult',
    toolCallId: id,
    toolName: action.name,
    content: [{ type: 'text', text: output.text }],
    isError: output.isError,
  };
  history = [...history, call, result];
  const firstLine = output.text.split('\n')[0] ?? '';
  console.log(
    `${String(step + 1).padStart(2)}. ${action.name} ${String(action.arguments.command ?? action.arguments.path)} → ${output.isError ? 'error: ' : ''}${firstLine.slice(0, 70)}`,
  );

  // Before the next model call: clear old tool results once the context passes 6,000 tokens,
  // keeping the newest two and never the memory tool's.
  const cleared = clearToolUses(history, { trigger: 6_000, keep: 2, clearAtLeast: 1_000, counter: approximateCounter });
  if (cleared.cleared.length > 0) {
    history = cleared.messages;
    console.log(
      `    cleared ${cleared.cleared.map((item) => item.toolCallId).join(', ')}: ${cleared.tokensBefore.toLocaleString('en-US')} → ${cleared.tokensAfter.toLocaleString('en-US')} tokens`,
    );
  }
}

const memoryResults = history.filter((message) => message.role === 'toolResult' && message.toolName === 'memory');
console.log(
  `\nContext: ${history.length} messages, ${sumMessageTokens(history, approximateCounter).toLocaleString('en-US')} tokens; ${memoryResults.length} memory results, none cleared.`,
);
const notes = await memory.execute({ command: 'view', path: '/memories/parser-task.md' });
console.log(`The notes on disk, for the next session:\n${'content' in notes ? notes.content : notes.error}`);
await rm(directory, { recursive: true, force: true });
