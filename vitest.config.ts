import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/** Test files that replace a module with `vi.mock` need a module graph of their own. */
const needsIsolation = ['test/**/*.isolated.test.ts'];
/**
 * The soak (a session per client family with faults forced along the way) is its own project:
 * `npm test` leaves it out, `npm run test:soak` runs it (CI runs both).
 */
const soak = ['test/soak/**/*.test.ts'];

export default defineConfig({
  resolve: {
    alias: [
      { find: /^ctxkit$/, replacement: source('index.ts') },
      { find: /^ctxkit\/(.+)$/, replacement: source('$1/index.ts') },
    ],
  },
  test: {
    // Scratch directories in memory when there is room: see the file.
    globalSetup: ['test/setup/scratch-in-memory.ts'],
    testTimeout: 30_000,
    // Setup hooks record sessions and start servers; on a loaded 2-core machine that passes 10 s.
    hookTimeout: 60_000,
    // Every core: the default leaves one free, which on a 2-core machine runs the files one at a time.
    maxWorkers: '100%',
    // The workers allocate fast (sessions of messages, property runs): a larger young generation
    // scavenges less often, and one GC thread per worker keeps two workers on two cores from also
    // running each other's GC helper threads. Together about 7% less CPU for the same tests.
    execArgv: ['--max-semi-space-size=64', '--single-threaded-gc'],
    projects: [
      {
        // Most files share one module graph per worker: importing zod, fast-check and the
        // sources once instead of once per file is what keeps `npm test` well under a minute.
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: [...needsIsolation, ...soak],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: needsIsolation } },
      { extends: true, test: { name: 'soak', include: soak, isolate: false } },
    ],
  },
});
