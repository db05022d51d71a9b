// Type-checks the `@example` blocks of the TSDoc in src/ against the current API, so an example that
// names a function, option or field that no longer exists is found. Advice, not a check:
// `node scripts/check-examples.mjs` lists what it finds and exits 0.
//
// Each ```ts block becomes a module of its own. It imports, from the package entry of its file's
// folder (then from `ctxkit`), every public name it uses and does not declare itself; what it uses
// and nothing defines (`history`, `client`, `model`: the reader's own values) is declared `any`.
// What the checker then reports is an example out of step with the code: an unknown export, an
// option or field that does not exist, a call with the wrong arguments.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');
const walk = (directory) =>
  readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? walk(path) : name.endsWith('.ts') ? [path] : [];
  });

const { config } = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
Object.assign(options, {
  noEmit: true,
  declaration: false,
  noUnusedLocals: false,
  noUnusedParameters: false,
  noImplicitAny: false,
  useUnknownInCatchVariables: true,
  verbatimModuleSyntax: false,
  isolatedModules: false,
});

// The entries: `ctxkit` and every `src/<folder>/index.ts` the exports map names.
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const entries = Object.keys(pkg.exports)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? 'ctxkit' : `ctxkit/${key.slice(2)}`));
const entryFile = (entry) => join(src, entry === 'ctxkit' ? 'index.ts' : `${entry.slice(7)}/index.ts`);
const entryOf = (file) => {
  const folder = relative(src, file).split('/')[0];
  return entries.includes(`ctxkit/${folder}`) ? `ctxkit/${folder}` : 'ctxkit';
};

// Every ```ts block after an @example tag, with its file and line.
const snippets = [];
for (const file of walk(src)) {
  const lines = readFileSync(file, 'utf8').split('\n');
  let inExample = false;
  let block;
  lines.forEach((line, index) => {
    const text = line.replace(/^\s*\*? ?/, '');
    if (/@example\b/.test(line)) inExample = true;
    else if (/\*\/\s*$/.test(line) || /^\s*\* @(?!example)\w+/.test(line)) inExample = false;
    if (!inExample) return;
    if (block === undefined && /^```(ts|typescript)\s*$/.test(text)) block = { file, line: index + 2, code: [] };
    else if (block !== undefined && /^```\s*$/.test(text)) {
      snippets.push({ ...block, code: block.code.join('\n') });
      block = undefined;
    } else if (block !== undefined) block.code.push(text);
  });
}

const names = new Map(); // entry -> its exported names
{
  const program = ts.createProgram(entries.map(entryFile), options);
  const checker = program.getTypeChecker();
  for (const entry of entries) {
    const symbol = checker.getSymbolAtLocation(program.getSourceFile(entryFile(entry)));
    names.set(entry, new Set(checker.getExportsOfModule(symbol).map((exported) => exported.name)));
  }
}

const identifiers = (code) => new Set(code.match(/\b[A-Za-z_$][\w$]*\b/g) ?? []);
const declared = (code) =>
  new Set(
    [
      ...code.matchAll(/\b(?:const|let|var|function|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g),
      ...code.matchAll(/\bimport\s+(?:type\s+)?\{([^}]*)\}/g),
      ...code.matchAll(/\bimport\s+(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)\s+from/g),
    ].flatMap((match) =>
      match[1].split(',').map((part) =>
        part
          .replace(/^\s*type\s+/, '')
          .split(/\s+as\s+/)
          .pop()
          .trim(),
      ),
    ),
  );

/** The module checked for a snippet: its imports of public names, then `declare`s, then the code. */
function moduleOf(snippet, free) {
  const own = declared(snippet.code);
  const used = identifiers(snippet.code);
  const home = entryOf(snippet.file);
  const imports = new Map();
  for (const name of used) {
    if (own.has(name)) continue;
    const from = [home, 'ctxkit', ...entries].find((entry) => names.get(entry).has(name));
    if (from !== undefined) imports.set(from, [...(imports.get(from) ?? []), name]);
  }
  const head = [...imports].map(([from, list]) => `import { ${list.join(', ')} } from '${from}';`);
  const stubs = [...free]
    .filter((name) => !own.has(name))
    .map((name) => `declare let ${name}: any; type ${name} = any;`);
  return {
    text: `${[...head, ...stubs].join('\n')}\n${snippet.code}\nexport {};\n`,
    offset: head.length + stubs.length + 1,
  };
}

function check(free) {
  if (process.env.EXAMPLES_DEBUG)
    for (const [index, snippet] of snippets.entries())
      if (`${relative(root, snippet.file)}:${snippet.line}`.includes(process.env.EXAMPLES_DEBUG))
        console.log(moduleOf(snippet, free[index]).text);
  const files = new Map(
    snippets.map((snippet, index) => [
      join(root, `.examples-check/${index}.ts`),
      { snippet, ...moduleOf(snippet, free[index]) },
    ]),
  );
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name)?.text ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) =>
    files.has(name)
      ? ts.createSourceFile(name, files.get(name).text, language, true)
      : getSourceFile.call(host, name, language, ...rest);
  const program = ts.createProgram([...files.keys()], options, host);
  const found = [];
  for (const [name, { snippet, offset }] of files) {
    const diagnostics = [
      ...program.getSyntacticDiagnostics(program.getSourceFile(name)),
      ...program.getSemanticDiagnostics(program.getSourceFile(name)),
    ];
    found.push({ snippet, offset, diagnostics });
  }
  return found;
}

// Names nothing defines (code 2304 "Cannot find name", 2552 "Did you mean", 2582 / 2593 test globals,
// 18004 shorthand property without a value) are the reader's own: declared, then checked again.
const UNDEFINED = new Set([2304, 2552, 2582, 2593, 18004]);
let results = check(snippets.map(() => new Set()));
for (let round = 0; round < 3; round++) {
  const free = results.map(({ diagnostics }) => {
    const set = new Set();
    for (const diagnostic of diagnostics) {
      const match =
        UNDEFINED.has(diagnostic.code) &&
        /'([^']+)'/.exec(ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '));
      if (match) set.add(match[1]);
    }
    return set;
  });
  if (free.every((set) => set.size === 0)) break;
  const previous = results;
  results = check(free.map((set, index) => new Set([...set, ...(previous[index].free ?? [])])));
  results.forEach((result, index) => {
    result.free = new Set([...free[index], ...(previous[index].free ?? [])]);
  });
}

let count = 0;
for (const { snippet, offset, diagnostics } of results) {
  for (const diagnostic of diagnostics) {
    if (UNDEFINED.has(diagnostic.code)) continue;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    const where = `${relative(root, snippet.file)}:${snippet.line + line - offset}`;
    console.log(`${where}  TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
    count++;
  }
}
console.log(`${snippets.length} examples checked; ${count} problems`);
