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
  createMemoryStore,
  heuristicSummarizer,
  isContextOverflow,
  prepareModelMessages,
  truncateToolContent,
} from 'ctxkit';
import { createFileSpillStore, createJsonlStore } from 'ctxkit/node';
import { createSqliteStore } from 'ctxkit/sqlite';
import { createTokenizerCounter } from 'ctxkit/tokenizer';

const messages = [];
for (let index = 0; index < 30; index++) {
  messages.push({ role: 'user', content: `step ${index}: ${'context '.repeat(200)}` });
  messages.push({ role: 'assistant', content: [{ type: 'toolCall', id: `c${index}`, name: 'bash', arguments: { index } }] });
  messages.push({ role: 'toolResult', toolCallId: `c${index}`, toolName: 'bash', content: [{ type: 'text', text: 'ok '.repeat(300) }] });
}

const compacted = await compact(messages, { summarizer: heuristicSummarizer, config: { keepRecentTokens: 1_000 } });
assert.ok(compacted.tokensAfter < compacted.tokensBefore);
assert.equal(prepareModelMessages(compacted.messages)[0].meta.kind, 'compaction_summary');

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
    createMemoryStore(),
    createJsonlStore({ directory }),
    createSqliteStore({ database: new Database(':memory:') }),
  ]) {
    const session = await store.createSession();
    for (const message of messages.slice(0, 6)) await store.appendEntry(session.id, { type: 'message', message });
    assert.equal((await store.getBranch(session.id)).length, 6);
    await store.close?.();
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
console.log('ESM smoke test passed');
