// Uses the built package through its `exports` map, as a CommonJS consumer would (run by `npm run lint:package`).
const assert = require('node:assert/strict');
const { compact, heuristicSummarizer, resolveConfig, ConfigError, ContextError } = require('ctxkit');
const { createTokenizerCounter } = require('ctxkit/tokenizer');
const { createJsonlStore } = require('ctxkit/node');
const { createSqliteStore } = require('ctxkit/sqlite');
const { createPostgresStore, migratePostgres } = require('ctxkit/postgres');
const { contextConfigSchema } = require('ctxkit/schemas');
const { fromAnthropicUsage } = require('ctxkit/anthropic');
const { fromLanguageModelUsage } = require('ctxkit/ai-sdk');

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
