import { ContextError, createInMemorySessionStore } from 'ctxkit';
import type { SessionStore } from 'ctxkit/session';
import { type ConformanceRunner, describeSessionStoreConformance } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';

/** The suite's tests as registered with a runner that only records them. */
function register(create: () => SessionStore, timeout?: number) {
  const tests: { title: string; body: () => Promise<void>; timeout: number | undefined }[] = [];
  const after: (() => Promise<void>)[] = [];
  const runner: ConformanceRunner = {
    describe: (_name, body) => body(),
    it: (title, body, limit) => void tests.push({ title, body, timeout: limit }),
    afterEach: (body) => void after.push(body),
    expect,
  };
  describeSessionStoreConformance({ name: 'recorded', create, runner, ...(timeout === undefined ? {} : { timeout }) });
  /** Runs the test whose title starts with `title`, then the suite's clean-up. */
  const run = async (title: string) => {
    const test = tests.find((candidate) => candidate.title.startsWith(title));
    if (test === undefined) throw new Error(`no test "${title}"`);
    try {
      await test.body();
    } finally {
      for (const body of after) await body();
    }
  };
  return { tests, run };
}

describe('describeSessionStoreConformance', () => {
  it('gives each test a time limit: 60 s by default, or the timeout option', () => {
    const defaults = register(() => createInMemorySessionStore());
    expect(defaults.tests.length).toBeGreaterThan(10);
    expect(new Set(defaults.tests.map((test) => test.timeout))).toEqual(new Set([60_000]));
    const custom = register(() => createInMemorySessionStore(), 120_000);
    expect(new Set(custom.tests.map((test) => test.timeout))).toEqual(new Set([120_000]));
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, '5000'])(
    'refuses the timeout %s, naming the option',
    (timeout) => {
      let caught: unknown;
      try {
        register(() => createInMemorySessionStore(), timeout as number);
      } catch (error) {
        caught = error;
      }
      expect(ContextError.isInstance(caught)).toBe(true);
      expect((caught as Error).message).toContain('options.timeout');
    },
  );

  it('passes a store that lists sessions oldest first, and fails one that lists them newest first', async () => {
    await register(() => createInMemorySessionStore()).run('lists sessions oldest first');
    const newestFirst = (): SessionStore => {
      const store = createInMemorySessionStore();
      return Object.assign(Object.create(store) as SessionStore, {
        listSessions: async () => (await store.listSessions()).reverse(),
      });
    };
    await expect(register(newestFirst).run('lists sessions oldest first')).rejects.toThrow(/listSessions order/);
  });
});
