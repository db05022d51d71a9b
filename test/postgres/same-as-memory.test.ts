/**
 * Property: on any sequence of appends (from the leaf, or on an explicit branch), leaf moves and
 * new roots, the PostgreSQL store gives the same leaf, entries, transcript and branch from every
 * entry as the in-memory store. This exercises the branch read's runs across forks.
 */
import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInMemorySessionStore, type SessionStore } from '../../src/index.js';
import { createPostgresStore } from '../../src/postgres/index.js';
import { createTestPool, createTestSchema, dropTestSchema, postgresUrl, requireServerInCi } from './server.js';

type Operation =
  | { kind: 'append'; parent: number | undefined }
  | { kind: 'move'; target: number | null }
  | { kind: 'read'; target: number };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('append' as const), parent: fc.constant(undefined) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('append' as const), parent: fc.nat(40) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('move' as const), target: fc.option(fc.nat(40)) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('read' as const), target: fc.nat(40) }) },
);

async function apply(store: SessionStore, sessionId: string, operations: Operation[], ids: string[]): Promise<void> {
  for (const [step, op] of operations.entries()) {
    const pick = (index: number) => ids[index % ids.length]!;
    if (op.kind === 'append') {
      const parentId = op.parent === undefined || ids.length === 0 ? {} : { parentId: pick(op.parent) };
      const id = `e${step}`;
      await store.appendEntry(sessionId, { type: 'message', id, message: { role: 'user', content: id }, ...parentId });
      if (!ids.includes(id)) ids.push(id);
    } else if (op.kind === 'move') {
      await store.setLeaf(sessionId, op.target === null || ids.length === 0 ? null : pick(op.target));
    } else if (ids.length > 0) {
      await store.getBranch(sessionId, pick(op.target));
    }
  }
}

requireServerInCi();

describe.skipIf(postgresUrl === undefined)('PostgreSQL store: same as the in-memory store', () => {
  let pool: pg.Pool;
  let schema: string;
  beforeAll(async () => {
    pool = createTestPool();
    schema = await createTestSchema(pool);
  });
  afterAll(async () => {
    await dropTestSchema(pool, schema);
    await pool.end();
  });

  it('gives the same leaf, entries, transcript and branches for any appends and leaf moves', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 30 }), async (operations) => {
        const sessionId = `run-${run++}`;
        const memory = createInMemorySessionStore({ now: () => 1 });
        const postgres = createPostgresStore({ pool, schema, now: () => 1 });
        await memory.createSession({ id: sessionId });
        await postgres.createSession({ id: sessionId });
        await apply(memory, sessionId, operations, []);
        const ids: string[] = [];
        await apply(postgres, sessionId, operations, ids);
        expect(await postgres.getLeaf(sessionId)).toBe(await memory.getLeaf(sessionId));
        expect(await postgres.getEntries(sessionId)).toEqual(await memory.getEntries(sessionId));
        expect(await postgres.getMessages(sessionId)).toEqual(await memory.getMessages(sessionId));
        expect(await postgres.getBranch(sessionId)).toEqual(await memory.getBranch(sessionId));
        // A fresh store (cold cache) reads every branch the same way, each in one query (its runs
        // line up, so it never falls back to walking entry by entry).
        let queries = 0;
        const counting = {
          query: (text: string, values?: unknown[]) => {
            queries++;
            return pool.query(text, values);
          },
          connect: () => pool.connect(),
        };
        const cold = createPostgresStore({ pool: counting, schema });
        await cold.getLeaf(sessionId);
        for (const id of ids) {
          queries = 0;
          expect(await cold.getBranch(sessionId, id)).toEqual(await memory.getBranch(sessionId, id));
          expect(queries).toBe(1);
        }
      }),
      { numRuns: 12 },
    );
  });
});
