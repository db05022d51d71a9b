import { defineConfig } from 'tsup';

/** One build entry per public subpath; `scripts/lint-package.mjs` checks they match `exports`. */
export const entries = {
  index: 'src/index.ts',
  'tokenizer/index': 'src/tokenizer/index.ts',
  'node/index': 'src/node/index.ts',
  'sqlite/index': 'src/sqlite/index.ts',
  'memory/index': 'src/memory/index.ts',
  'testing/index': 'src/testing/index.ts',
  'schemas/index': 'src/schemas/index.ts',
  'openai/index': 'src/openai/index.ts',
  'anthropic/index': 'src/anthropic/index.ts',
};

export default defineConfig({
  entry: entries,
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  splitting: true,
  treeshake: true,
  target: 'node20',
  external: ['zod', 'gpt-tokenizer', 'better-sqlite3', 'fast-check'],
});
