/**
 * The JSONL lock under real crashes: writer processes appending to one session are SIGKILLed at
 * random points, hundreds of times in the long run (`CTXKIT_LOCK_KILLS=300 npx vitest run
 * test/node/jsonl-lock-kills.test.ts`), twenty in the suite. After every kill the next writer
 * must get the session (a lock left by the dead writer is taken over, never refused), no
 * acknowledged entry may be lost, and the entries must stay one chain (two writers admitted at
 * once would fork it).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeafConflictError } from '../../src/index.js';
import { createJsonlStore } from '../../src/node/index.js';
import { prepareWorkers, startWorker, type Worker, type WorkerKit } from './lock-workers.js';

const KILLS = Number(process.env['CTXKIT_LOCK_KILLS'] ?? 20);
/** Writers running at once; one of them is killed at each round. */
const WRITERS = 3;

const sleep = (milliseconds: number) => new Promise((done) => setTimeout(done, milliseconds));

describe('JSONL lock under SIGKILL', () => {
  let kit: WorkerKit;
  let directory: string;
  beforeAll(async () => {
    kit = await prepareWorkers();
    directory = await mkdtemp(join(tmpdir(), 'ctxkit-lock-kills-'));
  });
  afterAll(async () => {
    await kit?.cleanup();
    await rm(directory, { recursive: true, force: true });
  });

  it(
    `lets the next writer in after each of ${KILLS} kills, losing and forking nothing`,
    async () => {
      const store = createJsonlStore({ directory });
      const { id } = await store.createSession({ id: 'kills' });
      const all: Worker[] = [];
      const start = (name: string) => {
        const worker = startWorker(kit, directory, id, name);
        all.push(worker);
        return worker;
      };
      const running = Array.from({ length: WRITERS }, (_, index) => start(`w${index}`));
      /** The test's own appends: one after each kill, retried only when another writer appended first. */
      const own: string[] = [];
      const appendOwn = async (text: string) => {
        for (;;) {
          try {
            own.push((await store.appendEntry(id, { type: 'message', message: { role: 'user', content: text } })).id);
            return;
          } catch (error) {
            // A live writer may hold the lock past the wait on a starved machine: that refusal is right.
            if (!LeafConflictError.isInstance(error) && !/That process is running/.test(String(error))) throw error;
          }
        }
      };
      let slowest = 0;
      try {
        for (let kill = 0; kill < KILLS; kill++) {
          // A writer that is appending (not one still starting), killed at a random point of its loop.
          let started = running.filter((worker) => worker.acknowledged.length > 0);
          while (started.length === 0) {
            await sleep(5);
            started = running.filter((worker) => worker.acknowledged.length > 0);
          }
          const victim = started[Math.floor(Math.random() * started.length)]!;
          const slot = running.indexOf(victim);
          await sleep(Math.random() * 20);
          victim.process.kill('SIGKILL');
          await victim.exited;
          running[slot] = start(`w${kill + WRITERS}`);
          const before = performance.now();
          await appendOwn(`after kill ${kill}`);
          slowest = Math.max(slowest, performance.now() - before);
        }
      } finally {
        for (const worker of running) worker.process.kill('SIGKILL');
        await Promise.all(running.map((worker) => worker.exited));
      }
      await appendOwn('after the last kill');

      const reopened = createJsonlStore({ directory });
      const entries = await reopened.getEntries(id);
      expect(reopened.getDiagnostics()).toEqual([]);
      const stored = new Set(entries.map((entry) => entry.id));
      const acknowledged = [...own, ...all.flatMap((worker) => worker.acknowledged)];
      expect(acknowledged.filter((entryId) => !stored.has(entryId))).toEqual([]);
      // One chain: every entry's parent is the entry appended before it.
      const forks = entries.filter((entry, index) => entry.parentId !== (index === 0 ? null : entries[index - 1]!.id));
      expect(forks).toEqual([]);
      // No writer was ever refused by a lock its dead owner left behind.
      expect(all.flatMap((worker) => worker.refused)).toEqual([]);
      const left = (await readdir(directory)).filter((name) => name !== 'kills.jsonl');
      expect(left.filter((name) => name.endsWith('.lock') || name.endsWith('.takeover'))).toEqual([]);
      if (process.env['CTXKIT_LOCK_KILLS'] !== undefined) {
        console.log(
          `${KILLS} kills, ${entries.length} entries, ${acknowledged.length} acknowledged, slowest append after a kill ` +
            `${slowest.toFixed(0)} ms, claim files left by kills: ${left.length}`,
        );
      }
    },
    Math.max(120_000, KILLS * 3000),
  );
});
