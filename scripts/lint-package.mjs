// Packs the package, then checks the tarball: publint, @arethetypeswrong/cli, an install without the
// optional peers (`ctxkit/tokenizer` loads and says to install gpt-tokenizer), and that every
// `exports` subpath matches a build entry in tsup.config.ts and resolves in ESM and CommonJS.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const run = (command, args) => execFileSync(command, args, { cwd: root, stdio: 'inherit' });
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// 1. The exports map and the library's build entries agree (the `entries` object of tsup.config.ts;
// the command line is built from `binaries` and checked against `bin` below).
const tsup = readFileSync(join(root, 'tsup.config.ts'), 'utf8');
const block = (name) => tsup.match(new RegExp(`export const ${name} = \\{([^}]*)\\}`))?.[1] ?? '';
const keysOf = (text) =>
  [...text.matchAll(/'([\w/-]+)':\s*'src\/|\b(index):\s*'src\//g)].map((match) => match[1] ?? match[2]);
const entries = keysOf(block('entries'));
const subpaths = Object.keys(pkg.exports).filter((key) => key !== './package.json');
const expected = subpaths.map((key) => (key === '.' ? 'index' : `${key.slice(2)}/index`)).sort();
if (JSON.stringify(expected) !== JSON.stringify([...entries].sort())) {
  console.error('exports map and tsup entries differ:', { exports: expected, entries });
  process.exit(1);
}

// The bin: every `bin` target is a `binaries` build with a shebang, and nothing else is built there.
const binaries = keysOf(block('binaries'))
  .map((key) => `./dist/${key}.js`)
  .sort();
const bins = Object.values(pkg.bin ?? {}).sort();
if (JSON.stringify(binaries) !== JSON.stringify(bins)) {
  console.error('package.json bin and tsup binaries differ:', { bin: bins, binaries });
  process.exit(1);
}
for (const bin of bins) {
  if (!readFileSync(join(root, bin), 'utf8').startsWith('#!/usr/bin/env node\n')) {
    console.error(`${bin}: the command line must start with #!/usr/bin/env node`);
    process.exit(1);
  }
}

// 2. Pack and lint the tarball.
const directory = mkdtempSync(join(tmpdir(), 'ctxkit-pack-'));
try {
  const output = execFileSync('npm', ['pack', '--silent', '--pack-destination', directory], {
    cwd: root,
    encoding: 'utf8',
  });
  const tarball = join(directory, output.trim().split('\n').pop());
  run('npx', ['publint', tarball, '--strict']);
  // Every resolution attw knows, node10 (`"moduleResolution": "node"`, through `typesVersions`) included.
  run('npx', ['attw', tarball]);
  checkWithoutOptionalPeers(tarball, directory);
} finally {
  rmSync(directory, { recursive: true, force: true });
}

/**
 * Installs the tarball alone into an empty project (no peers: npm's `--legacy-peer-deps`, offline, as
 * ctxkit has no dependencies) and imports `ctxkit/tokenizer` there in ESM and CommonJS: the entry loads
 * without gpt-tokenizer, an optional peer, and a counter says what to install.
 */
function checkWithoutOptionalPeers(tarball, directory) {
  const project = join(directory, 'consumer');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  execFileSync(
    'npm',
    ['install', '--offline', '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund', tarball],
    {
      cwd: project,
      stdio: 'inherit',
    },
  );
  if (existsSync(join(project, 'node_modules/gpt-tokenizer'))) throw new Error('gpt-tokenizer was installed');
  const expectMissing = `(error) => {
    if (error.code !== 'DEPENDENCY_MISSING' || !error.message.includes('npm install gpt-tokenizer')) throw error;
  }`;
  const esm = `import { createTokenizerCounter, loadTokenizerCounter } from 'ctxkit/tokenizer';
await loadTokenizerCounter().then(() => { throw new Error('loaded without gpt-tokenizer'); }, ${expectMissing});
try { createTokenizerCounter({ encoding: 'cl100k_base' }).count('hi'); throw new Error('counted without gpt-tokenizer'); }
catch (error) { (${expectMissing})(error); }`;
  const cjs = `require('ctxkit/tokenizer').loadTokenizerCounter().then(() => { throw new Error('loaded without gpt-tokenizer'); }, ${expectMissing});`;
  writeFileSync(join(project, 'esm.mjs'), esm);
  writeFileSync(join(project, 'cjs.cjs'), cjs);
  for (const file of ['esm.mjs', 'cjs.cjs']) execFileSync('node', [file], { cwd: project, stdio: 'inherit' });
  console.log(
    'ctxkit/tokenizer without gpt-tokenizer installed: imports; counting throws DEPENDENCY_MISSING (ESM, CommonJS)',
  );
}

// 3. Every subpath loads in both module systems from the build.
const require = createRequire(import.meta.url);
for (const subpath of subpaths) {
  const target = pkg.exports[subpath];
  const esm = await import(pathToFileURL(join(root, target.import.default)).href);
  const cjs = require(join(root, target.require.default));
  const names = Object.keys(esm).sort().join(',');
  if (names !== Object.keys(cjs).sort().join(',') || names.length === 0) {
    console.error(`${subpath}: ESM and CommonJS exports differ or are empty`);
    process.exit(1);
  }
  console.log(`${subpath}: ${Object.keys(esm).length} exports in ESM and CommonJS`);
}

// The command line runs from the build.
for (const [name, bin] of Object.entries(pkg.bin ?? {})) {
  const version = execFileSync('node', [join(root, bin), '--version'], { encoding: 'utf8' }).trim();
  if (version !== pkg.version) {
    console.error(`${name} --version printed "${version}", expected ${pkg.version}`);
    process.exit(1);
  }
  console.log(`bin ${name}: runs (${version})`);
}

// Consumers' view: import the package by name through its exports map, in ESM and in CommonJS.
run('node', [join(root, 'test/package/smoke.mjs')]);
run('node', [join(root, 'test/package/smoke.cjs')]);
