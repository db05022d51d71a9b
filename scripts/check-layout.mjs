// Reports (never fails) where the layout drifts from docs/architecture.md's advice: a public function
// (a function exported by a package entry) whose file is named after something else. One concept per
// file is the rule a reviewer applies; a line count or a function count is not, so this script only
// lists what may be worth a look. Run it with `npm run check:layout`.
import { readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const source = join(root, 'src');

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

const squash = (name) => name.replace(/-/g, '').toLowerCase();
const notes = [];
for (const [file, names] of byFile) {
  const stem = squash(basename(file, '.ts'));
  const matches = [...names].some((name) => {
    const named = squash(name);
    return stem === named || named.replace(/^(create|get)/, '') === stem;
  });
  if (!matches && names.size === 1) notes.push(`${relative(root, file)}: holds ${[...names][0]}`);
}

if (notes.length > 0) console.log(`Layout notes (advice, not a gate): ${notes.length}\n  ${notes.sort().join('\n  ')}`);
else console.log('Layout: every public function sits in a file named after it or its concept.');
