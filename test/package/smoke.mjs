// Uses the built package through its `exports` map, as an ESM consumer would (run by `npm run lint:package`).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  ContextError,
  clearToolUses,
  compact,
  createContextManager,
  createInMemorySessionStore,
  ctxkitMessageKind,
  heuristicSummarizer,
  isContextOverflow,
  prepareModelMessages,
  truncateToolContent,
} from 'ctxkit';
import { fromModelMessages, toModelMessages } from 'ctxkit/ai-sdk';
import { fromAnthropic, toAnthropic } from 'ctxkit/anthropic';
import { fromLangChainMessages, toLangChainMessages } from 'ctxkit/langchain';
import { createInMemoryMemoryStore, createMemoryTool } from 'ctxkit/memory';
import { createFileMemoryStore, createFileSpillStore, createJsonlStore } from 'ctxkit/node';
import { fromAgentItems, toAgentItems } from 'ctxkit/openai-agents';
import { createPostgresStore, POSTGRES_SCHEMA_VERSION } from 'ctxkit/postgres';
import { messageSchema, SUMMARY_PREFIX } from 'ctxkit/schemas';
import { defineSessionStore, entryToMessage, walkBranch } from 'ctxkit/session';
import { createSqliteStore } from 'ctxkit/sqlite';
import { checkAnchors, extractAnchors, pinAnchors, summarizeToolOutput } from 'ctxkit/summarizing';
import {
  arbitraryConversation,
  checkToolPairing,
  createScriptedSummarizer,
  describeSessionStoreConformance,
} from 'ctxkit/testing';
import { createTokenizerCounter } from 'ctxkit/tokenizer';
import fc from 'fast-check';

const messages = [];
for (let index = 0; index < 30; index++) {
  messages.push({ role: 'user', content: `step ${index}: ${'context '.repeat(200)}` });
  messages.push({
    role: 'assistant',
    content: [{ type: 'toolCall', id: `c${index}`, name: 'bash', arguments: { index } }],
  });
  messages.push({
    role: 'toolResult',
    toolCallId: `c${index}`,
    toolName: 'bash',
    content: [{ type: 'text', text: 'ok '.repeat(300) }],
  });
}

const compacted = await compact(messages, { summarizer: heuristicSummarizer, config: { keepRecentTokens: 1_000 } });
assert.ok(compacted.tokensAfter < compacted.tokensBefore);
assert.equal(prepareModelMessages(compacted.messages)[0].meta.kind, 'compaction_summary');
assert.equal(ctxkitMessageKind(compacted.messages[0]), 'compaction_summary');
assert.ok(String(compacted.messages[0].content).startsWith(SUMMARY_PREFIX));
assert.ok(messageSchema.safeParse(compacted.messages[0]).success);
const anchors = extractAnchors(messages.slice(0, 6));
assert.ok(anchors.length > 0);
assert.equal(checkAnchors('', anchors).kept.length, 0);
assert.ok(pinAnchors('', anchors, { maxChars: 2_000 }).text.includes('## Pinned Facts'));
assert.match(summarizeToolOutput('src/a.ts(3,1): error TS2339: no x.', { command: 'tsc' }), /TS2339/);

const wire = [
  { role: 'user', content: 'hi' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'ls', input: {} }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'a.ts' }] },
];
assert.deepEqual(toAnthropic(fromAnthropic({ messages: wire })).messages, wire);
const modelMessages = [
  { role: 'user', content: 'hi' },
  { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'ls', input: {} }] },
  {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'ls', output: { type: 'text', value: 'a.ts' } }],
  },
];
assert.deepEqual(toModelMessages(fromModelMessages(modelMessages)).messages, modelMessages);
const langChainMessages = [
  { type: 'human', content: 'hi' },
  { type: 'ai', content: '', tool_calls: [{ id: 'c1', name: 'ls', args: {} }] },
  { type: 'tool', tool_call_id: 'c1', name: 'ls', content: 'a.ts' },
];
assert.deepEqual(toLangChainMessages(fromLangChainMessages(langChainMessages)).messages, langChainMessages);
const agentItems = [
  { role: 'user', content: 'hi' },
  { type: 'function_call', callId: 'c1', name: 'ls', arguments: '{}', status: 'completed' },
  { type: 'function_call_result', callId: 'c1', name: 'ls', status: 'completed', output: 'a.ts' },
];
assert.deepEqual(toAgentItems(fromAgentItems(agentItems).messages), agentItems);
assert.ok(truncateToolContent('line\n'.repeat(5_000)).truncated);
assert.ok(isContextOverflow({ error: { code: 'context_length_exceeded' } }));
assert.ok(clearToolUses(messages, { trigger: 1_000 }).cleared.length > 0);

const counter = createTokenizerCounter({ encoding: 'o200k_base' });
assert.equal(counter.count('hello world'), 2);
assert.ok(counter.count('<|endoftext|>') > 0);

const manager = createContextManager({ model: 'gpt-4o', summarizer: heuristicSummarizer, counter });
assert.equal((await manager.prepare(messages.slice(0, 3))).messages.length, 3);

const directory = mkdtempSync(join(tmpdir(), 'ctxkit-smoke-'));
try {
  for (const store of [
    createInMemorySessionStore(),
    createJsonlStore({ directory }),
    createSqliteStore({ database: new Database(':memory:') }),
  ]) {
    const session = await store.createSession();
    for (const message of messages.slice(0, 6)) await store.appendEntry(session.id, { type: 'message', message });
    const branch = await store.getBranch(session.id);
    assert.equal(branch.length, 6);
    assert.deepEqual(walkBranch(branch), branch);
    assert.deepEqual(branch.map(entryToMessage), messages.slice(0, 6));
    await store.close?.();
  }
  for (const store of [
    createInMemoryMemoryStore(),
    createFileMemoryStore({ directory: join(directory, 'memories') }),
  ]) {
    const memory = createMemoryTool({ store });
    assert.deepEqual(
      Object.keys(await memory.execute({ command: 'create', path: '/memories/a.md', file_text: 'note' })),
      ['content'],
    );
    assert.match((await memory.execute({ command: 'view', path: '/memories/a.md' })).content, /note/);
    assert.ok('error' in (await memory.execute({ command: 'view', path: '/memories/../x' })));
  }
  const spilled = await createFileSpillStore({ directory }).save('x'.repeat(10), { toolName: 'bash' });
  assert.equal(spilled.bytes, 10);
} finally {
  rmSync(directory, { recursive: true, force: true });
}

try {
  createContextManager({ summarizer: heuristicSummarizer, contextWindow: -1 });
  assert.fail('expected a ConfigError');
} catch (error) {
  assert.ok(ContextError.isInstance(error));
}
const scripted = createScriptedSummarizer(['CHECKPOINT']);
const viaScript = await compact(messages, { summarizer: scripted, config: { keepRecentTokens: 1_000 } });
assert.equal(scripted.requests.length, 1);
assert.deepEqual(checkToolPairing(prepareModelMessages(viaScript.messages)), []);
fc.assert(
  fc.property(
    arbitraryConversation(),
    (conversation) => checkToolPairing(prepareModelMessages(conversation)).length === 0,
  ),
  { numRuns: 50 },
);

// A store from a seven-method core, and the suite that registers its tests with a host's runner.
const coreInfos = new Map();
const coreEntries = new Map();
const coreLeaves = new Map();
const coreStore = defineSessionStore({
  createSession: (info) => {
    if (coreInfos.has(info.id)) return false;
    coreInfos.set(info.id, info);
    return true;
  },
  getSession: (id) => coreInfos.get(id),
  listSessions: () => [...coreInfos.values()],
  getEntries: (id) => coreEntries.get(id) ?? [],
  getLeaf: (id) => coreLeaves.get(id) ?? null,
  appendEntry: (id, entry, { expectedLeafId }) =>
    (coreLeaves.get(id) ?? null) === expectedLeafId &&
    Boolean(coreEntries.set(id, [...(coreEntries.get(id) ?? []), entry]) && coreLeaves.set(id, entry.id)),
  setLeaf: (id, leafId, { expectedLeafId }) =>
    (coreLeaves.get(id) ?? null) === expectedLeafId && Boolean(coreLeaves.set(id, leafId)),
});
const coreSession = await coreStore.createSession({ id: 'core' });
const coreFirst = await coreStore.appendEntry(coreSession.id, {
  type: 'message',
  message: { role: 'user', content: 'hi' },
});
assert.deepEqual(await coreStore.getBranch('core', undefined, { from: 'context' }), [coreFirst]);
await assert.rejects(coreStore.getEntries('missing'), (error) => error.code === 'SESSION_NOT_FOUND');
const registered = [];
describeSessionStoreConformance({
  name: 'smoke',
  create: () => coreStore,
  runner: {
    describe: (_name, body) => body(),
    it: (name) => registered.push(name),
    afterEach: () => {},
    expect: Object.assign(() => ({}), { stringContaining: (text) => text }),
  },
});
assert.ok(registered.length > 10);

assert.equal(POSTGRES_SCHEMA_VERSION, 3);
assert.throws(
  () => createPostgresStore({ pool: 'postgres://localhost' }),
  (error) => ContextError.isInstance(error) && error.code === 'DEPENDENCY_MISSING',
);

console.log('ESM smoke test passed');
