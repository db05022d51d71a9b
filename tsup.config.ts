import { defineConfig } from 'tsup';

/** One build entry per public subpath; `scripts/lint-package.mjs` checks they match `exports`. */
export const entries = {
  index: 'src/index.ts',
  'session/index': 'src/session/index.ts',
  'summarizing/index': 'src/summarizing/index.ts',
  'tokenizer/index': 'src/tokenizer/index.ts',
  'node/index': 'src/node/index.ts',
  'sqlite/index': 'src/sqlite/index.ts',
  'postgres/index': 'src/postgres/index.ts',
  'memory/index': 'src/memory/index.ts',
  'agent-tools/index': 'src/agent-tools/index.ts',
  'testing/index': 'src/testing/index.ts',
  'schemas/index': 'src/schemas/index.ts',
  'openai/index': 'src/openai/index.ts',
  'anthropic/index': 'src/anthropic/index.ts',
  'ai-sdk/index': 'src/ai-sdk/index.ts',
  'langchain/index': 'src/langchain/index.ts',
  'openai-agents/index': 'src/openai-agents/index.ts',
};

/** The `ctxkit` command line (package.json `bin`): ESM only, no types, a shebang. */
export const binaries = {
  'cli/main': 'src/cli/main.ts',
};

const external = ['zod', 'gpt-tokenizer', 'better-sqlite3', 'fast-check', 'pg'];

export default defineConfig([
  {
    entry: entries,
    format: ['esm', 'cjs'],
    dts: true,
    // The command line is built beside the library at the same time: leave its folder alone.
    clean: ['!cli/**'],
    sourcemap: true,
    splitting: true,
    treeshake: true,
    target: 'node20',
    external,
  },
  {
    entry: binaries,
    format: ['esm'],
    dts: false,
    clean: false,
    sourcemap: true,
    // One file: no chunks beside the library's, which its build cleans.
    splitting: false,
    treeshake: true,
    target: 'node20',
    platform: 'node',
    banner: { js: '#!/usr/bin/env node' },
    external,
  },
]);
