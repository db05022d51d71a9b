/**
 * How the JSONL store judges a lock file it finds: by the owner's process identity where it can
 * check it (this boot and pid namespace), by the owner's heartbeat where it cannot.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJsonlStore } from '../../src/node/index.js';
import { LOCK_STALE_MS, lockSession } from '../../src/node/jsonl-lock.js';

/**
 * Short lock timing for the tests that wait it out (the store's options; the defaults, a 2 s wait
 * and a 10 s heartbeat, are kept by the JSONL store's own lock test and the empty-lock case here).
 */
const SHORT = { lockWaitMs: 150, lockStaleMs: 1_000 } as const;

const linux = existsSync('/proc/self/stat') && existsSync('/proc/sys/kernel/random/boot_id');
const say = (text: string) => ({ type: 'message' as const, message: { role: 'user' as const, content: text } });

/** This machine's identity as the lock records it. */
function identity(pid: number) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return {
    pid,
    host: hostname(),
    boot: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
    pidNamespace: readlinkSync('/proc/self/ns/pid'),
    started: stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!,
    token: 'someone',
    since: Date.now(),
  };
}

/** Sets a file's mtime `age` milliseconds back. */
async function age(file: string, milliseconds: number): Promise<void> {
  const then = new Date(Date.now() - milliseconds);
  await utimes(file, then, then);
}

describe('JSONL session lock', () => {
  let directory: string;
  let lockFile: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'ctxkit-lock-'));
    lockFile = join(directory, 's.jsonl.lock');
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));

  async function session(timing: { lockWaitMs?: number; lockStaleMs?: number } = {}) {
    const store = createJsonlStore({ directory, ...timing });
    await store.createSession({ id: 's' });
    return store;
  }

  it.runIf(linux)(
    'is not fooled by a reused pid: a live pid that started at another time is a dead writer',
    async () => {
      const store = await session();
      // A restarted container: the dead writer's pid is now this very process, started later.
      await writeFile(lockFile, JSON.stringify({ ...identity(process.pid), started: '1' }));
      expect(await store.appendEntry('s', say('after the restart'))).toHaveProperty('id');
      await expect(stat(lockFile)).rejects.toThrow();
    },
  );

  it.runIf(linux)(
    'never takes over the lock of a live writer in this pid namespace, however old its heartbeat',
    async () => {
      const store = await session(SHORT);
      const child = spawn('sleep', ['30']);
      try {
        await new Promise((done) => child.once('spawn', done));
        await writeFile(lockFile, JSON.stringify(identity(child.pid!)));
        await age(lockFile, SHORT.lockStaleMs * 30);
        const refused = await store.appendEntry('s', say('blocked')).catch((caught: unknown) => caught);
        expect(String(refused)).toMatch(
          new RegExp(`being written by process ${child.pid} .*held for over 150 ms. That process is running`),
        );
        expect(await store.getEntries('s')).toEqual([]);
      } finally {
        child.kill('SIGKILL');
      }
    },
    10_000,
  );

  it('takes over a lock it cannot check (another host) once its heartbeat is stale, not before', async () => {
    const store = await session(SHORT);
    const owner = { pid: process.pid, host: 'elsewhere', boot: 'another-boot', pidNamespace: 'pid:[1]', started: '1' };
    await writeFile(lockFile, JSON.stringify({ ...owner, token: 'someone', since: Date.now() }));
    // Half the stale age: still fresh after the wait, however slow the machine (the check is > staleMs).
    await age(lockFile, SHORT.lockStaleMs / 2 - SHORT.lockWaitMs);
    const refused = await store.appendEntry('s', say('too early')).catch((caught: unknown) => caught);
    expect(String(refused)).toMatch(/process \d+ on elsewhere .*taken over once its heartbeat is 1 s old/);
    await age(lockFile, SHORT.lockStaleMs + 100);
    expect(await store.appendEntry('s', say('after the heartbeat stopped'))).toHaveProperty('id');
  }, 10_000);

  it('takes over an empty lock file (as an older release could leave) once it is stale', async () => {
    const store = await session();
    await writeFile(lockFile, '');
    await age(lockFile, LOCK_STALE_MS + 1000);
    expect(await store.appendEntry('s', say('after an empty lock'))).toHaveProperty('id');
    await expect(stat(lockFile)).rejects.toThrow();
  });

  it.runIf(linux)('removes the claim files of dead writers when it takes over', async () => {
    const store = await session();
    const dead = { ...identity(process.pid), started: '1' };
    await writeFile(lockFile, JSON.stringify(dead));
    await writeFile(`${lockFile}.dead-token.claim`, JSON.stringify(dead));
    const live = `${lockFile}.live-token.claim`;
    await writeFile(live, JSON.stringify(identity(process.pid)));
    await store.appendEntry('s', say('x'));
    expect((await readdir(directory)).sort()).toEqual(['s.jsonl', 's.jsonl.lock.live-token.claim']);
  });

  it('keeps a held lock alive with a heartbeat, and releases only its own lock', async () => {
    const file = join(directory, 's.jsonl');
    // A heartbeat every 100 ms (a tenth of the stale age).
    const release = await lockSession('s', file, 'token-a', Date.now(), { waitMs: 2000, staleMs: SHORT.lockStaleMs });
    await age(lockFile, SHORT.lockStaleMs * 2);
    await new Promise((done) => setTimeout(done, 400));
    expect(Date.now() - (await stat(lockFile)).mtimeMs).toBeLessThan(SHORT.lockStaleMs);
    const owner = JSON.parse(await readFile(lockFile, 'utf8')) as { token: string; pid: number };
    expect(owner).toMatchObject({ token: 'token-a', pid: process.pid });
    // Another writer's lock in its place (this one was taken over): the release leaves it.
    await writeFile(lockFile, JSON.stringify({ ...owner, token: 'token-b' }));
    await release();
    expect(JSON.parse(await readFile(lockFile, 'utf8'))).toMatchObject({ token: 'token-b' });
  }, 10_000);

  it('refuses lock timing it cannot keep, naming the option and its bounds', () => {
    const refused = (options: { lockWaitMs?: number; lockStaleMs?: number }) => {
      try {
        createJsonlStore({ directory, ...options });
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(refused({ lockWaitMs: -1 })).toMatchObject({
      code: 'CONFIG_INVALID',
      field: 'lockWaitMs',
      message:
        'createJsonlStore: options.lockWaitMs must be a whole number of milliseconds ≥ 0 (default 2000) (got -1)',
    });
    expect(refused({ lockStaleMs: 50 })).toMatchObject({
      code: 'CONFIG_INVALID',
      field: 'lockStaleMs',
      message: expect.stringMatching(/options\.lockStaleMs must be a whole number of milliseconds ≥ 100, .*\(got 50\)/),
    });
    expect(refused({ lockWaitMs: 1.5 })).toMatchObject({ field: 'lockWaitMs' });
    expect(refused({ lockWaitMs: 0, lockStaleMs: 100 })).toBeUndefined();
  });

  it('admits one writer at a time', async () => {
    const file = join(directory, 's.jsonl');
    const inside: string[] = [];
    let overlap = false;
    await Promise.all(
      ['a', 'b', 'c', 'd'].map(async (token) => {
        for (let round = 0; round < 5; round++) {
          const release = await lockSession('s', file, token, Date.now());
          if (inside.length > 0) overlap = true;
          inside.push(token);
          await new Promise((done) => setTimeout(done, 1));
          inside.pop();
          await release();
        }
      }),
    );
    expect(overlap).toBe(false);
  });
});
