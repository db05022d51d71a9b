// Fails when the sources under src/ import each other in a cycle (type-only imports included:
// a cycle of types is still a cycle a reader has to untangle), when a layer of docs/architecture.md
// imports at run time from a layer below it, or when a file imports another folder's `internal/`
// (`a/internal/` belongs to the files under `a/`; what several folders share lives in `src/internal/`). No dependencies: it reads the relative `from '…'`
// specifiers of every file.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', 'src');
const files = [];
const walk = (directory) => {
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.ts')) files.push(path);
  }
};
walk(root);

const edges = new Map();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const targets = [...text.matchAll(/from\s+'(\.{1,2}\/[^']+)'/g)].map((match) =>
    resolve(dirname(file), match[1].replace(/\.js$/, '.ts')),
  );
  edges.set(file, targets);
}

const state = new Map(); // 1 = on the stack, 2 = done
const cycles = [];
const visit = (file, stack) => {
  state.set(file, 1);
  stack.push(file);
  for (const target of edges.get(file) ?? []) {
    if (state.get(target) === 1) cycles.push([...stack.slice(stack.indexOf(target)), target]);
    else if (!state.has(target)) visit(target, stack);
  }
  stack.pop();
  state.set(file, 2);
};
for (const file of files) if (!state.has(file)) visit(file, []);

// The layers of docs/architecture.md, top first, by their first path segment under src/. The
// subpath entries and the CLI beside them (node/, sqlite/, openai/, testing/…) are not layered.
const LAYERS = [
  ['types.ts', 'session-entry.ts', 'errors.ts', 'error-options.ts', 'schemas', 'internal'],
  ['config', 'validation'],
  ['messages'],
  ['counting'],
  ['summarizing'],
  ['pipeline'],
  ['models'],
  ['session'],
  ['manager'],
];
// The anchor type and schema have no imports of their own; the message model and its schema use them.
const LEAVES = new Set([join(root, 'summarizing/anchors/anchor.ts')]);
const layerOf = (file) => LAYERS.findIndex((layer) => layer.includes(relative(root, file).split('/')[0]));
const upward = [];
for (const file of files) {
  const layer = layerOf(file);
  // The `ctxkit/schemas` entry re-exports the config schema and the wire strings.
  if (layer < 0 || file === join(root, 'schemas/index.ts')) continue;
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/(?:^|\n)(?:import|export)\s+(type\s+)?[^;]*?from\s+'(\.{1,2}\/[^']+)'/g)) {
    if (match[1] !== undefined) continue; // `import type` may name a type of any layer
    const target = resolve(dirname(file), match[2].replace(/\.js$/, '.ts'));
    if (layerOf(target) > layer && !LEAVES.has(target))
      upward.push(`${relative(root, file)} -> ${relative(root, target)}`);
  }
}

// `internal/` is the folder's own: `x/internal/y.ts` may be imported only by files under `x/`. This
// covers every folder under src/, the subpath entries (node/, openai/, postgres/…) included.
const trespass = [];
for (const [file, targets] of edges) {
  for (const target of targets) {
    const segments = relative(root, target).split('/');
    const at = segments.indexOf('internal');
    if (at < 0) continue;
    const owner = join(root, ...segments.slice(0, at));
    if (relative(owner, file).startsWith('..')) trespass.push(`${relative(root, file)} -> ${relative(root, target)}`);
  }
}

if (cycles.length > 0 || upward.length > 0 || trespass.length > 0) {
  for (const cycle of cycles) console.error(`import cycle: ${cycle.map((file) => relative(root, file)).join(' -> ')}`);
  for (const edge of upward) console.error(`layer imported from below (see docs/architecture.md): ${edge}`);
  for (const edge of trespass)
    console.error(`another folder's internal/ imported (move what is shared to src/internal/): ${edge}`);
  process.exit(1);
}
console.log(
  `no import cycles in ${files.length} files; layers import only from above; no folder imports another's internal/`,
);
