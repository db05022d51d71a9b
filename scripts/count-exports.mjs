// Counts the names a package entry exports, values and types apart, as the compiler sees them.
// `node scripts/count-exports.mjs` counts the root entry; pass an entry file to count another
// (`node scripts/count-exports.mjs src/session/index.ts`), and `--list` to print the names.
import { resolve } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const entry = resolve(args.find((arg) => !arg.startsWith('--')) ?? 'src/index.ts');
const program = ts.createProgram([entry], {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  noEmit: true,
});
const checker = program.getTypeChecker();
const source = program.getSourceFile(entry);
if (!source) throw new Error(`count-exports: no such entry file ${entry}`);
const values = [];
const types = [];
for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(source))) {
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  (symbol.flags & ts.SymbolFlags.Value ? values : types).push(exported.name);
}
console.log(`${values.length + types.length} names: ${values.length} values, ${types.length} types`);
if (args.includes('--list')) console.log(`values: ${values.join(', ')}\ntypes: ${types.join(', ')}`);
