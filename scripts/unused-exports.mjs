// Lists names a src module exports that no other file imports or re-exports (src, test, bench,
// examples, scripts): candidates to un-export. Advice, not a check: `node scripts/unused-exports.mjs`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(process.argv[2] ?? '.');
const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    return statSync(path).isDirectory() ? walk(path) : /\.(ts|mts|tsx)$/.test(name) ? [path] : [];
  });
const files = ['src', 'test', 'bench', 'examples', 'scripts'].flatMap((dir) => {
  try {
    return walk(join(root, dir));
  } catch {
    return [];
  }
});

const resolveSpecifier = (from, specifier) => {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {}
  }
  return undefined;
};

const exported = new Map(); // file -> Set(names)
const used = new Map(); // file -> Set(names) | '*'
const use = (file, name) => {
  if (!used.has(file)) used.set(file, new Set());
  used.get(file).add(name);
};

for (const file of files) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const names = new Set();
  for (const statement of source.statements) {
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
    const isExported = modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
    if (isExported) {
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) names.add(declaration.name.getText());
      } else if (statement.name) names.add(statement.name.getText());
    }
    if ((ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier) {
      const target = resolveSpecifier(file, statement.moduleSpecifier.text);
      if (!target) continue;
      if (ts.isImportDeclaration(statement)) {
        const clause = statement.importClause;
        if (!clause) continue;
        if (clause.name) use(target, 'default');
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) use(target, '*');
        else if (bindings)
          for (const element of bindings.elements) use(target, (element.propertyName ?? element.name).text);
      } else if (!statement.exportClause) use(target, '*');
      else if (ts.isNamespaceExport(statement.exportClause)) use(target, '*');
      else
        for (const element of statement.exportClause.elements) use(target, (element.propertyName ?? element.name).text);
    }
  }
  // Dynamic imports: `import('./x.js')` marks the whole module.
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteral(argument)) {
        const target = resolveSpecifier(file, argument.text);
        if (target) use(target, '*');
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (file.startsWith(join(root, 'src'))) exported.set(file, names);
}

let count = 0;
for (const [file, names] of exported) {
  const usedNames = used.get(file) ?? new Set();
  if (usedNames.has('*')) continue;
  for (const name of names) {
    if (usedNames.has(name)) continue;
    count++;
    console.log(`${relative(root, file)}\t${name}`);
  }
}
console.error(`${count} exported names used only in their own file`);
