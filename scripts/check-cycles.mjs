// Fails when the sources under src/ import each other in a cycle (type-only imports included:
// a cycle of types is still a cycle a reader has to untangle). No dependencies: it reads the
// relative `from '…'` specifiers of every file.
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

if (cycles.length > 0) {
  for (const cycle of cycles) console.error(`import cycle: ${cycle.map((file) => relative(root, file)).join(' -> ')}`);
  process.exit(1);
}
console.log(`no import cycles in ${files.length} files`);
