// Bundle sizes of ctxkit as a host's bundler sees them: esbuild bundles small programs that import
// from the built package (`dist/`, resolved through package.json `exports`), minified, ESM, for a
// browser-like neutral platform, with zod included. Prints entry -> minified / gzipped bytes and
// fails when the budgeted bundle grows past its budget. `npm run size -- --analyze` also prints what
// each source file and folder contributes to every bundle: the same program bundled from `src/`
// (esbuild's metafile cannot see through the built chunks), which lands within a KB of the built one.
// Run `npm run build` first.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const analyze = process.argv.includes('--analyze');

/**
 * The one bundle held to a budget: a manager, the heuristic summarizer and the OpenAI Chat
 * converters. `GOAL` is what the root promises browsers and edge runtimes (issue 27); `CEILING` is
 * what the check fails above today, about 2 KB over the last measure: it moves toward the goal as
 * weight is cut, and up only for a feature that must be on the manager's path, said in the changelog.
 */
const GOAL_GZIP_BYTES = 50 * 1024;
const CEILING_GZIP_BYTES = 63 * 1024;

/** Programs a host writes; `budget` marks the one held to BUDGET_GZIP_BYTES. */
const bundles = [
  {
    name: 'createContextManager + heuristicSummarizer + OpenAI Chat converters',
    code: `import { createContextManager, heuristicSummarizer } from 'ctxkit';
import { fromOpenAIChat, readOpenAIChatCompletion, toOpenAIChat } from 'ctxkit/openai';
export const run = (options) => {
  const manager = createContextManager({ ...options, summarizer: heuristicSummarizer });
  return { manager, toOpenAIChat, fromOpenAIChat, readOpenAIChatCompletion };
};`,
    budget: true,
  },
  { name: "{ shouldCompact } from 'ctxkit'", code: `export { shouldCompact } from 'ctxkit';` },
  { name: "{ toOpenAIChat } from 'ctxkit/openai'", code: `export { toOpenAIChat } from 'ctxkit/openai';` },
  // Every entry whole: what a host pays when it uses all of one entry.
  ...Object.keys(pkg.exports)
    .filter((key) => key !== './package.json')
    .map((key) => {
      const specifier = key === '.' ? 'ctxkit' : `ctxkit/${key.slice(2)}`;
      return { name: `* from '${specifier}'`, code: `export * from '${specifier}';` };
    }),
];

/**
 * Resolves `ctxkit` and `ctxkit/<subpath>` to the built file its `exports` entry names for `import`,
 * or (`fromSource`) to the entry's source file, for `--analyze`.
 */
const selfReference = (fromSource = false) => ({
  name: 'ctxkit-exports',
  setup(builder) {
    builder.onResolve({ filter: /^ctxkit(\/|$)/ }, (args) => {
      const key = args.path === 'ctxkit' ? '.' : `./${args.path.slice('ctxkit/'.length)}`;
      const target = pkg.exports[key]?.import?.default;
      if (target === undefined) return { errors: [{ text: `package.json exports has no "${key}"` }] };
      if (fromSource) return { path: join(root, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')) };
      return { path: join(root, target) };
    });
  },
});

// Optional peers a host installs only for the entry that needs them, and Node built-ins (the
// `ctxkit/node`, `ctxkit/sqlite` and `ctxkit/postgres` entries are for Node): not counted.
const external = ['gpt-tokenizer', 'better-sqlite3', 'pg', 'fast-check', 'node:*', ...builtinModules];

if (!existsSync(join(root, 'dist', 'index.js'))) {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(1);
}

/** Bytes of the files under `directory`. */
function directorySize(directory) {
  let total = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    total += entry.isDirectory() ? directorySize(path) : statSync(path).size;
  }
  return total;
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const rows = [];
let failed = false;
for (const bundle of bundles) {
  const options = {
    stdin: { contents: bundle.code, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['import'],
    target: 'es2022',
    external,
    plugins: [selfReference()],
    write: false,
    metafile: true,
    logLevel: 'error',
  };
  const result = await build(options);
  const output = result.outputFiles[0].contents;
  const minified = output.length;
  const gzipped = gzipSync(output, { level: 9 }).length;
  rows.push({ name: bundle.name, minified, gzipped, budget: bundle.budget });
  if (bundle.budget && gzipped > CEILING_GZIP_BYTES) failed = true;
  if (analyze) {
    const fromSource = await build({ ...options, plugins: [selfReference(true)] });
    const [{ inputs }] = Object.values(fromSource.metafile.outputs);
    const byModule = Object.entries(inputs)
      .map(([path, { bytesInOutput }]) => ({ path: path.replace(/^.*node_modules\//, ''), bytesInOutput }))
      .sort((a, b) => b.bytesInOutput - a.bytesInOutput);
    const byFolder = new Map();
    for (const { path, bytesInOutput } of byModule) {
      const folder = path.startsWith('src/') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0];
      byFolder.set(folder, (byFolder.get(folder) ?? 0) + bytesInOutput);
    }
    const zod = byModule.filter((input) => input.path.startsWith('zod/'));
    console.log(
      `\n${bundle.name}: ${kb(minified)} min, ${kb(gzipped)} gz; zod ${kb(byFolder.get('zod') ?? 0)} min in ${zod.length} modules`,
    );
    const folders = [...byFolder].sort((a, b) => b[1] - a[1]);
    console.log(`  by folder: ${folders.map(([folder, bytes]) => `${folder} ${kb(bytes)}`).join(', ')}`);
    for (const input of byModule.slice(0, 25)) console.log(`  ${kb(input.bytesInOutput).padStart(9)}  ${input.path}`);
  }
}

console.log(`\n| Bundle (esbuild, minified, ESM) | min | gzip |\n|---|--:|--:|`);
for (const row of rows) console.log(`| \`${row.name}\` | ${kb(row.minified)} | ${kb(row.gzipped)} |`);

const budgeted = rows.find((row) => row.budget);
if (failed) {
  console.error(
    `\n${budgeted.name}: ${kb(budgeted.gzipped)} gzipped, over its ${kb(CEILING_GZIP_BYTES)} ceiling (goal ${kb(GOAL_GZIP_BYTES)}).`,
  );
  process.exit(1);
}
const gap = budgeted.gzipped - GOAL_GZIP_BYTES;
console.log(
  `\nBudget: ${kb(budgeted.gzipped)} gz <= ${kb(CEILING_GZIP_BYTES)} ceiling; ` +
    (gap > 0
      ? `${kb(gap)} still to cut to the ${kb(GOAL_GZIP_BYTES)} goal.`
      : `within the ${kb(GOAL_GZIP_BYTES)} goal.`),
);

// Install size: what `npm install ctxkit` unpacks (the package, and zod, its one required peer).
const pack = JSON.parse(
  execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }),
);
const zodSize = directorySize(join(root, 'node_modules', 'zod'));
console.log(
  `\nInstall: ctxkit ${kb(pack[0].unpackedSize)} unpacked (${pack[0].entryCount} files); zod (peer) ${kb(zodSize)}.`,
);
