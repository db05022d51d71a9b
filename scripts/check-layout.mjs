// Fails when the layout drifts from docs/architecture.md:
// - a source file under src/ longer than MAX_LINES lines;
// - a public function (a function exported by a package entry) that does not live in a file of its
//   own named after it (`createContextManager` in `create-context-manager.ts` or `context-manager.ts`),
//   beside at most its constants, types and helpers. Error classes share `errors.ts` (one hierarchy
//   read at once); `ctxkit/testing` is a toolbox whose builders and checks sit by what they build.
// Run with `--report` to list the findings without failing.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const MAX_LINES = 250;
const root = resolve(import.meta.dirname, '..');
const source = join(root, 'src');
const reportOnly = process.argv.includes('--report');

const files = [];
const walk = (directory) => {
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.ts')) files.push(path);
  }
};
walk(source);

const problems = [];
for (const file of files) {
  // Counted as `wc -l` does: the newline that ends the last line does not start another.
  const lines = readFileSync(file, 'utf8').replace(/\n$/, '').split('\n').length;
  if (lines > MAX_LINES) problems.push(`${relative(root, file)}: ${lines} lines (at most ${MAX_LINES})`);
}

const entryFiles = Object.values(readEntries()).map((path) => join(root, path));

function readEntries() {
  // The package entries: the `entries` object literal of tsup.config.ts (TypeScript, so read as text).
  const text = readFileSync(join(root, 'tsup.config.ts'), 'utf8');
  const block = text.slice(
    text.indexOf('export const entries'),
    text.indexOf('};', text.indexOf('export const entries')),
  );
  return Object.fromEntries(
    [...block.matchAll(/'([^']+)':?\s*'([^']+)'|(\w+):\s*'([^']+)'/g)].map((m) => [m[1] ?? m[3], m[2] ?? m[4]]),
  );
}

const program = ts.createProgram(entryFiles, {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  noEmit: true,
  allowImportingTsExtensions: false,
});
const checker = program.getTypeChecker();
const byFile = new Map();
for (const entry of entryFiles) {
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry));
  if (!module) continue;
  for (const exported of checker.getExportsOfModule(module)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    for (const declaration of symbol.declarations ?? []) {
      const isFunction =
        ts.isFunctionDeclaration(declaration) ||
        (ts.isVariableDeclaration(declaration) &&
          declaration.initializer &&
          (ts.isArrowFunction(declaration.initializer) || ts.isFunctionExpression(declaration.initializer)));
      if (!isFunction) continue;
      const file = declaration.getSourceFile().fileName;
      if (!file.startsWith(source) || file.startsWith(join(source, 'testing'))) continue;
      const names = byFile.get(file) ?? new Set();
      names.add(symbol.name);
      byFile.set(file, names);
    }
  }
}

const kebab = (name) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();
const squash = (name) => name.replace(/-/g, '').toLowerCase();
for (const [file, names] of byFile) {
  const where = relative(root, file);
  if (names.size > 1)
    problems.push(`${where}: ${names.size} public functions (${[...names].join(', ')}); one per file`);
  const stem = basename(file, '.ts');
  for (const name of names) {
    const expected = kebab(name);
    const named = squash(name);
    const file = squash(stem);
    if (names.size === 1 && file !== named && named.replace(/^(create|get)/, '') !== file) {
      problems.push(`${where}: holds ${name}; name the file ${expected}.ts`);
    }
  }
}

if (problems.length > 0) {
  console.error(`Layout (docs/architecture.md): ${problems.length} finding(s)\n  ${problems.sort().join('\n  ')}`);
  if (!reportOnly) process.exit(1);
} else {
  console.log('Layout: every file within bounds, one public function per file.');
}
