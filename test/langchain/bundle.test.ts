// `ctxkit/langchain` counts zod 3 and zod/mini tool schemas by reading their definitions, not with
// zod: a LangChain app bundles the adapter without any copy of zod (or its JSON Schema converter).

import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, test } from 'vitest';

test('the ctxkit/langchain entry bundles no zod', async () => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../../src/langchain/index.ts', import.meta.url))],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    external: ['node:*'],
    logLevel: 'silent',
  });
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.some((path) => path.endsWith('src/langchain/internal/zod-json-schema.ts'))).toBe(true);
  expect(inputs.filter((path) => /node_modules\/(zod|zod3)\//.test(path))).toEqual([]);
});
