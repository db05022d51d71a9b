// The agent that needs a fact archived 40 steps earlier, through the real `openai` client against
// a loopback Chat Completions server that plays the model, on the JSONL, SQLite and PostgreSQL
// stores. The model reads only the request it is sent: it finishes only by recalling the id the
// placeholder of the archived build log names. Halfway, the host restarts (a new store object, a
// new manager, the history rebuilt from the store), so the id it recalls was written after a reload.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { createContextTools, recallIdOf } from '../../src/agent-tools/index.js';
import {
  buildContextFromBranch,
  createContextManager,
  heuristicSummarizer,
  type Message,
  type SessionStore,
} from '../../src/index.js';
import { createJsonlStore } from '../../src/node/index.js';
import { readOpenAIChatCompletion, toOpenAIChat } from '../../src/openai/index.js';
import { createPostgresStore } from '../../src/postgres/index.js';
import { createSqliteStore } from '../../src/sqlite/index.js';
import { toolResultMessage, userMessage } from '../../src/testing/index.js';
import { type ScriptedMessage, useScriptedChatServer } from '../harness/loopback.js';
import { createTestPool, createTestSchema, dropTestSchema, postgresUrl } from '../postgres/server.js';
import { BUILD_LOG, CHECKSUM, DOCS, STEPS } from './recall-script.js';

type Wire = {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { arguments: string } }[];
  tool_call_id?: string;
};

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part: { text?: string }) => part.text ?? '').join('\n')
      : '';

/** The model: what it answers to the messages and tools of one request. */
function reply(messages: Wire[], tools: { function: { name: string } }[]): ScriptedMessage {
  const step = messages.filter((message) => message.role === 'assistant' && message.tool_calls).length;
  const call = (name: string, args: Record<string, unknown>): ScriptedMessage => ({
    role: 'assistant',
    content: null,
    tool_calls: [{ id: `call_${step}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
  });
  if (step === 0) return call('read', { path: 'build.log' });
  if (step < STEPS) return call('read', { path: 'docs', at: step });
  // Step 40: the answer needs the checksum, a plain line in the middle of the build log.
  const said = messages.map((message) => textOf(message.content)).join('\n');
  const found = /artifact checksum (\S+)/.exec(said);
  if (found) return { role: 'assistant', content: `The checksum is ${found[1]}.` };
  if (!tools.some((tool) => tool.function.name === 'recall'))
    return { role: 'assistant', content: 'I cannot tell: the build log is no longer in my context.' };
  // The result sent for the build log's call is its placeholder: recall the id it names.
  const placeholder = messages.find((message) => message.role === 'tool' && message.tool_call_id === 'call_0');
  const id = /recall (r[0-9a-z]{8})\]$/.exec(textOf(placeholder?.content))?.[1];
  if (id === undefined) return { role: 'assistant', content: 'The build log left no id to recall.' };
  return call('recall', { id });
}

const model = useScriptedChatServer((body) =>
  reply(body['messages'] as Wire[], (body['tools'] as { function: { name: string } }[]) ?? []),
);
let client: OpenAI;
beforeAll(() => {
  client = new OpenAI({ apiKey: 'test', baseURL: model.server.baseURL, maxRetries: 0 });
});

function runTool(id: string, args: Record<string, unknown>): Message {
  const step = Number(args['at'] ?? 0);
  const doc = DOCS[step % DOCS.length]!;
  const at = (step * 1500) % Math.max(1, doc.length - 1500);
  return toolResultMessage(id, args['path'] === 'build.log' ? BUILD_LOG : doc.slice(at, at + 1500), {
    toolName: 'read',
  });
}

/** The host: its loop over the real client, recording every message in the store; it restarts at step 20. */
async function runAgent(options: { canRecall: boolean; open: () => Promise<SessionStore> }) {
  let store = await options.open();
  const { id: sessionId } = await store.createSession();
  const start = (current: SessionStore) => {
    const manager = createContextManager({
      summarizer: heuristicSummarizer,
      contextWindow: 200_000,
      store: current,
      sessionId,
      config: { toolCallCutoff: 4, toolSummaryBatch: 8, toolSummaryStrategy: 'heuristic' },
    });
    return { manager, contextTools: createContextTools(manager, { store: current, sessionId }) };
  };
  let { manager, contextTools } = start(store);
  const tools = [
    {
      type: 'function' as const,
      function: { name: 'read', description: 'Read a file.', parameters: { type: 'object', properties: {} } },
    },
    ...(options.canRecall
      ? contextTools.definitions.map((definition) => ({
          type: 'function' as const,
          function: {
            name: definition.name,
            description: definition.description,
            parameters: structuredClone(definition.inputSchema) as Record<string, unknown>,
          },
        }))
      : []),
  ];
  let history: Message[] = [userMessage('Read the build log, then the docs, then tell me the artifact checksum.')];
  await store.appendEntry(sessionId, { type: 'message', message: history[0]! });
  const placeholders: string[] = [];
  for (let step = 0; step <= STEPS + 2; step++) {
    if (step === 20) {
      // A new process: the store opened again, a new manager, the history rebuilt from the branch.
      await store.close?.();
      store = await options.open();
      ({ manager, contextTools } = start(store));
      history = buildContextFromBranch(await store.getBranch(sessionId, undefined, { from: 'context' })).messages;
    }
    const prepared = await manager.prepare(history);
    history = prepared.history;
    const sentPlaceholder = prepared.messages.find(
      (message) => message.role === 'toolResult' && message.toolCallId === 'call_0',
    );
    if (sentPlaceholder?.meta?.kind === 'tool_result_archived')
      placeholders.push(JSON.stringify(sentPlaceholder.content));
    const completion = await client.chat.completions.create({
      model: 'scripted',
      tools,
      messages: toOpenAIChat({ messages: prepared.messages }).messages as never,
    });
    const message = readOpenAIChatCompletion(completion);
    const results: Message[] = [];
    for (const part of message.content) {
      if (part.type !== 'toolCall') continue;
      if (contextTools.handles(part.name)) {
        const answer = (await contextTools.handle({ name: part.name, arguments: part.arguments }, history))!;
        results.push(toolResultMessage(part.id, answer.content, { toolName: part.name, isError: answer.isError }));
      } else results.push(runTool(part.id, part.arguments));
    }
    history = [...history, message, ...results];
    for (const recorded of [message, ...results])
      await store.appendEntry(sessionId, { type: 'message', message: recorded });
    if (results.length === 0) {
      // The store alone (an empty history) serves the id too: its index, or a scan of the branch.
      const fromStore = await contextTools.handle({ name: 'recall', arguments: { id: recallIdOf('call_0') } }, []);
      await store.close?.();
      return {
        answer: message.content.map((part) => ('text' in part ? part.text : '')).join(''),
        placeholders,
        fromStore,
      };
    }
  }
  throw new Error('the agent did not finish');
}

async function expectRecallFinishes(open: () => Promise<SessionStore>) {
  expect((await runAgent({ canRecall: false, open })).answer).toMatch(/cannot tell/);
  const { answer, placeholders, fromStore } = await runAgent({ canRecall: true, open });
  expect(answer).toBe(`The checksum is ${CHECKSUM}.`);
  // The placeholder was sent before and after the restart, the same bytes, naming call_0's recall id.
  expect(placeholders.length).toBeGreaterThan(20);
  expect(new Set(placeholders).size).toBe(1);
  expect(placeholders[0]).toContain(`recall ${recallIdOf('call_0')}`);
  expect(fromStore?.content).toContain(`artifact checksum ${CHECKSUM}`);
}

// The stores' tests wait on disk and on the database more than they compute: they run at once.
describe.concurrent('recall across a restart, through the openai client, on each durable store', () => {
  it('JSONL (scanned)', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'ctxkit-recall-jsonl-'));
    try {
      await expectRecallFinishes(async () => createJsonlStore({ directory }));
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('SQLite (FTS5 index)', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'ctxkit-recall-sqlite-'));
    const databases: Database.Database[] = [];
    try {
      await expectRecallFinishes(async () => {
        const database = new Database(join(directory, 'sessions.db'));
        databases.push(database);
        return createSqliteStore({ database });
      });
    } finally {
      for (const database of databases) database.close();
      await rm(directory, { recursive: true, force: true });
    }
  });

  it.skipIf(postgresUrl === undefined)('PostgreSQL (tsvector index)', async () => {
    const pool = createTestPool(4);
    const schema = await createTestSchema(pool);
    try {
      await expectRecallFinishes(async () => createPostgresStore({ pool, schema }));
    } finally {
      await dropTestSchema(pool, schema);
      await pool.end();
    }
  });
});
