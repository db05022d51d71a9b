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
/**
 * The end-to-end tests: the real SDK clients (openai, Anthropic, the AI SDK, LangChain, the Agents
 * SDK) against loopback HTTP servers, and the HTML report in Chromium. Their own project, so
 * `npm test` stays within a minute on two cores: `npm run test:e2e` runs them (CI runs both).
 */
const endToEnd = ['test/**/*.e2e.test.ts', 'test/**/*.browser.test.ts'];
/**
 * The tests of everything ctxkit checks with zod, run again with `zod/v4` resolved to zod 3.25's
 * (the `zod3` dev dependency): a host on zod 3.25 gets that copy under ctxkit's `zod/v4` imports.
 */
const onZod3 = [
  'test/zod3/**/*.test.ts',
  'test/schemas/**/*.test.ts',
  'test/config/**/*.test.ts',
  'test/validation/hostile-input.test.ts',
  'test/validation/message-problem.test.ts',
  'test/validation/option-errors.test.ts',
  'test/session/is-stored-entry.test.ts',
  'test/agent-tools/context-tools.test.ts',
  'test/agent-tools/recall-ids.test.ts',
  'test/memory/memory-tool.test.ts',
  'test/memory/memory-caps.test.ts',
  'test/cli/cli.test.ts',
];

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
          exclude: [...needsIsolation, ...soak, ...endToEnd, 'test/zod3/**'],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: needsIsolation } },
      {
        extends: true,
        resolve: { alias: [{ find: /^zod\/v4$/, replacement: 'zod3/v4' }] },
        test: { name: 'zod3', include: onZod3, isolate: false },
      },
      { extends: true, test: { name: 'e2e', include: endToEnd, isolate: false } },
      { extends: true, test: { name: 'soak', include: soak, isolate: false } },
    ],
  },
});
