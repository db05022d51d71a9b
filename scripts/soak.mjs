// `npm run soak`: the full soak, 1,000 turns per client family (or the number given: `npm run soak
// -- 200`), one process per family at once, and its figures written to docs/benchmarks.md. CI runs
// the same sessions short (`npm run test:soak`, test/soak/soak.test.ts).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const turns = process.argv[2] ?? '1000';
const all = ['openai-chat', 'openai-responses', 'anthropic', 'ai-sdk-middleware', 'ai-sdk-converters'];
// A subset (`npm run soak -- 1000 anthropic,ai-sdk-middleware`) reruns those families only; their rows
// replace theirs in the block, the other rows are kept.
const families = process.argv[3] ? process.argv[3].split(',') : all;
const directory = mkdtempSync(join(tmpdir(), 'ctxkit-soak-'));

function run(family) {
  const json = join(directory, `${family}.json`);
  return new Promise((resolve) => {
    const child = spawn('npx', ['vitest', 'run', '--project', 'soak', 'test/soak/soak.test.ts'], {
      stdio: 'inherit',
      env: { ...process.env, CTXKIT_SOAK_TURNS: turns, CTXKIT_SOAK_FAMILY: family, CTXKIT_SOAK_JSON: json },
    });
    child.on('exit', (code) => resolve({ family, json, code }));
  });
}

const results = await Promise.all(families.map(run));
const reports = results.flatMap(({ json }) => {
  try {
    return JSON.parse(readFileSync(json, 'utf8'));
  } catch {
    return [];
  }
});
const write = spawnSync(
  'node',
  [
    '--import',
    'tsx',
    '--input-type=module',
    '-e',
    `import { writeSoakReports } from './test/soak/soak-report.ts'; writeSoakReports(${JSON.stringify(reports)});`,
  ],
  { stdio: 'inherit' },
);
const failed = results.filter(({ code }) => code !== 0).map(({ family }) => family);
if (failed.length > 0) console.error(`soak failed for: ${failed.join(', ')}`);
process.exit(failed.length > 0 || write.status !== 0 ? 1 : 0);
