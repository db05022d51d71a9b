// Uses the built package through its `exports` map, as a CommonJS consumer would (run by `npm run lint:package`).
const assert = require('node:assert/strict');
const { compact, heuristicSummarizer, resolveConfig, ConfigError, ContextError } = require('ctxkit');
const { createTokenizerCounter } = require('ctxkit/tokenizer');
const { walkBranch } = require('ctxkit/session');
const { parseToolOutput, SUMMARY_PROMPTS } = require('ctxkit/summarizing');
const { createJsonlStore } = require('ctxkit/node');
const { createSqliteStore } = require('ctxkit/sqlite');
const { createPostgresStore, migratePostgres } = require('ctxkit/postgres');
const { contextConfigSchema } = require('ctxkit/schemas');
const { fromAnthropicUsage } = require('ctxkit/anthropic');
const { fromLanguageModelUsage } = require('ctxkit/ai-sdk');
const { fromLangChainUsage } = require('ctxkit/langchain');

async function main() {
  const messages = [];
  for (let index = 0; index < 20; index++) {
    messages.push({ role: 'user', content: `question ${index} ${'detail '.repeat(300)}` });
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `answer ${index} ${'reason '.repeat(300)}` }] });
  }
  const result = await compact(messages, { summarizer: heuristicSummarizer, config: { keepRecentTokens: 800 } });
  assert.ok(result.tokensAfter < result.tokensBefore);
  assert.throws(
    () => resolveConfig({ reserveTokens: -1 }),
    (error) => ConfigError.isInstance(error) && ContextError.isInstance(error),
  );
  const parsed = parseToolOutput('src/a.ts(3,1): error TS2339: no x.', { command: 'tsc' });
  assert.equal(parsed.problems[0].code, 'TS2339');
  assert.equal(typeof SUMMARY_PROMPTS.compaction, 'function');
  const entries = [
    { type: 'message', id: 'a', parentId: null, timestamp: 1, message: { role: 'user', content: 'hi' } },
    { type: 'message', id: 'b', parentId: 'a', timestamp: 2, message: { role: 'user', content: 'again' } },
  ];
  assert.deepEqual(
    walkBranch(entries).map((entry) => entry.id),
    ['a', 'b'],
  );
  assert.equal(createTokenizerCounter({ encoding: 'cl100k_base' }).count('hello world'), 2);
  assert.equal(contextConfigSchema.safeParse({ reserveTokens: -1 }).success, false);
  assert.deepEqual(fromAnthropicUsage({ input_tokens: 3, output_tokens: 1, cache_read_input_tokens: 5 }), {
    input: 3,
    output: 1,
    cacheRead: 5,
    total: 9,
  });
  assert.deepEqual(
    fromLanguageModelUsage({ inputTokens: 8, outputTokens: 1, inputTokenDetails: { cacheReadTokens: 5 } }),
    {
      input: 3,
      output: 1,
      cacheRead: 5,
      total: 9,
    },
  );
  assert.deepEqual(
    fromLangChainUsage({ input_tokens: 8, output_tokens: 1, total_tokens: 9, input_token_details: { cache_read: 5 } }),
    { input: 3, output: 1, cacheRead: 5, total: 9 },
  );
  assert.equal(typeof createJsonlStore, 'function');
  assert.equal(typeof createSqliteStore, 'function');
  assert.equal(typeof migratePostgres, 'function');
  assert.throws(
    () => createPostgresStore({}),
    (error) => error.code === 'DEPENDENCY_MISSING',
  );
  console.log('CommonJS smoke test passed');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
