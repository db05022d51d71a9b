// A project on zod 3.25 installs ctxkit and uses it: packs the package, installs the tarball beside
// zod 3.25 (the version of the `zod3` dev dependency) in a scratch project with strict peer
// dependencies (an ERESOLVE fails here), then runs ESM and CommonJS programs through the schemas,
// a zod error path and the memory tool, and type-checks a TypeScript host that composes ctxkit's
// schemas into its own zod/v4 schema. Run `npm run build` first (`npm run lint:zod3` does).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const zodVersion = JSON.parse(readFileSync(join(root, 'node_modules/zod3/package.json'), 'utf8')).version;
const tsc = join(root, 'node_modules/typescript/bin/tsc');

const esm = `import { messageSchema, contextConfigSchema } from 'ctxkit/schemas';
import { createInMemoryMemoryStore, createMemoryTool } from 'ctxkit/memory';
import * as z from 'zod/v4';
const expect = (actual, wanted) => {
  if (actual !== wanted) throw new Error(\`expected \${JSON.stringify(wanted)}, got \${JSON.stringify(actual)}\`);
};
expect(z.core.version.major + '.' + z.core.version.minor, '4.0');
expect(messageSchema._zod.version, z.core.version);
expect(
  messageSchema.safeParse({ role: 'system', content: 'x' }).error.issues[0].message,
  "Invalid discriminator value. Expected 'user' | 'assistant' | 'toolResult'",
);
expect(z.prettifyError(contextConfigSchema.safeParse({ contextWindow: -1 }).error), '✖ must be a whole number ≥ 1\\n  → at contextWindow');
const tool = createMemoryTool({ store: createInMemoryMemoryStore() });
expect((await tool.execute({ command: 'create', path: '/memories/a.md', file_text: 'x' })).error, undefined);
expect(
  (await tool.execute({ command: 'create', path: '/memories/b.md' })).error,
  'invalid create call: file_text must be a string (the whole file), got missing (create takes path and file_text)',
);
console.log('ESM: ctxkit runs on zod', ${JSON.stringify(zodVersion)});
`;

const cjs = `const { messageSchema } = require('ctxkit/schemas');
const z = require('zod/v4');
if (messageSchema._zod.version !== z.core.version) throw new Error('ctxkit loaded another zod');
if (!messageSchema.safeParse({ role: 'user', content: 'hi' }).success) throw new Error('a valid message was refused');
console.log('CommonJS: ctxkit runs on zod', ${JSON.stringify(zodVersion)});
`;

const host = `import type { Message } from 'ctxkit';
import { messageSchema, sessionEntrySchema } from 'ctxkit/schemas';
import * as z from 'zod/v4';

const request = z.object({ messages: z.array(messageSchema), entry: sessionEntrySchema.optional() });
export const messages: Message[] = request.parse({ messages: [] }).messages;
export const schema: z.ZodType<Message> = messageSchema;
`;

const directory = mkdtempSync(join(tmpdir(), 'ctxkit-zod3-'));
try {
  const output = execFileSync('npm', ['pack', '--silent', '--pack-destination', directory], {
    cwd: root,
    encoding: 'utf8',
  });
  const tarball = join(directory, output.trim().split('\n').pop());
  const project = join(directory, 'host');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'host', private: true, type: 'module' }));
  execFileSync(
    'npm',
    ['install', '--strict-peer-deps', '--prefer-offline', '--no-audit', '--no-fund', `zod@${zodVersion}`, tarball],
    { cwd: project, stdio: 'inherit' },
  );
  writeFileSync(join(project, 'esm.mjs'), esm);
  writeFileSync(join(project, 'cjs.cjs'), cjs);
  writeFileSync(join(project, 'host.ts'), host);
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'nodenext', strict: true, noEmit: true, types: [], skipLibCheck: false },
      files: ['host.ts'],
    }),
  );
  execFileSync('node', ['esm.mjs'], { cwd: project, stdio: 'inherit' });
  execFileSync('node', ['cjs.cjs'], { cwd: project, stdio: 'inherit' });
  execFileSync('node', [tsc, '-p', 'tsconfig.json'], { cwd: project, stdio: 'inherit' });
  console.log(`TypeScript: a host's zod ${zodVersion} schema composes ctxkit's (skipLibCheck off)`);
} finally {
  rmSync(directory, { recursive: true, force: true });
}
