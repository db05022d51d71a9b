// Packs the package, then checks the tarball: publint, @arethetypeswrong/cli, and that every
// `exports` subpath matches a build entry in tsup.config.ts and resolves in ESM and CommonJS.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const run = (command, args) => execFileSync(command, args, { cwd: root, stdio: 'inherit' });
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// 1. The exports map and the build entries agree.
const tsup = readFileSync(join(root, 'tsup.config.ts'), 'utf8');
const entries = [...tsup.matchAll(/'([\w/-]+)':\s*'src\/|\b(index):\s*'src\//g)].map((match) => match[1] ?? match[2]);
const subpaths = Object.keys(pkg.exports).filter((key) => key !== './package.json');
const expected = subpaths.map((key) => (key === '.' ? 'index' : `${key.slice(2)}/index`)).sort();
if (JSON.stringify(expected) !== JSON.stringify([...entries].sort())) {
  console.error('exports map and tsup entries differ:', { exports: expected, entries });
  process.exit(1);
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
  run('npx', ['attw', tarball, '--profile', 'node16']);
} finally {
  rmSync(directory, { recursive: true, force: true });
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

// Consumers' view: import the package by name through its exports map, in ESM and in CommonJS.
run('node', [join(root, 'test/package/smoke.mjs')]);
run('node', [join(root, 'test/package/smoke.cjs')]);
