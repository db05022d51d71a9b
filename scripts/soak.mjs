// `npm run soak`: the full soak, 1,000 turns per client family (or the number given: `npm run soak
// -- 200`), and its figures written to docs/benchmarks.md. The CI suite runs the same sessions short.
import { spawnSync } from 'node:child_process';

const turns = process.argv[2] ?? '1000';
const result = spawnSync('npx', ['vitest', 'run', 'test/soak/soak.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, CTXKIT_SOAK_TURNS: turns, CTXKIT_SOAK_WRITE: '1' },
});
process.exit(result.status ?? 1);
