/**
 * The session stores at scale: how long a fresh SQLite store takes to read a branch of a long
 * session, and a JSONL store to reopen one, on a realistic coding-agent mix (user text, assistant
 * tool calls, tool results of varied size). `measureStores()` returns the numbers; run this file
 * directly to print them (`node --import tsx bench/stores.ts [entries]`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { createJsonlStore } from '../src/node/index.js';
import { createSqliteStore } from '../src/sqlite/index.js';
import type { SessionEntryInput } from '../src/types.js';

/** What {@link measureStores} measured, times in milliseconds (the median of `runs`). */
export interface StoreBenchResult {
  /** Entries in the session (one linear branch). */
  entries: number;
  /** Bytes of the JSONL file. */
  jsonlBytes: number;
  /** A new SQLite store on the database, then `getBranch` of the session. */
  sqliteFreshBranchMs: number;
  /** `getBranch` again on the same (now warm) SQLite store. */
  sqliteWarmBranchMs: number;
  /** A new JSONL store on the directory, then `getBranch` of the session (the reopen). */
  jsonlReopenMs: number;
  /** The same three as CPU time of this process (user + system), less sensitive to a busy machine. */
  sqliteFreshBranchCpuMs: number;
  sqliteWarmBranchCpuMs: number;
  jsonlReopenCpuMs: number;
  /** How many times each figure was measured. */
  runs: number;
}

/** The i-th entry of a realistic mix: a user turn, a tool call, its result (varied size), an answer. */
export function entryAt(index: number): SessionEntryInput {
  const step = Math.floor(index / 4);
  const id = `call_${step}`;
  switch (index % 4) {
    case 0:
      return {
        type: 'message',
        message: { role: 'user', content: `step ${step}: look at src/module_${step % 97}.ts` },
      };
    case 1:
      return {
        type: 'message',
        message: {
          role: 'assistant',
          content: [{ type: 'toolCall', id, name: 'bash', arguments: { command: `npm test -- ${step}` } }],
          provider: 'anthropic',
          model: 'claude-sonnet-4-5',
          usage: { input: 1000 + step, output: 40, cacheRead: 0, cacheWrite: 0, total: 1040 + step },
          stopReason: 'toolUse',
        },
      };
    case 2: {
      const lines = 1 + ((step * 7) % 40);
      const output = Array.from({ length: lines }, (_, line) => `  ok ${line} - test ${step}.${line}`).join('\n');
      return {
        type: 'message',
        message: {
          role: 'toolResult',
          toolCallId: id,
          toolName: 'bash',
          content: [{ type: 'text', text: output }],
          isError: step % 9 === 0,
        },
      };
    }
    default:
      return {
        type: 'message',
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: `Step ${step} passed; moving on to the next module.` }],
          provider: 'anthropic',
          model: 'claude-sonnet-4-5',
          stopReason: 'stop',
        },
      };
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]! * 10) / 10;
}

/** Wall time and CPU time (user + system) of `task`, in milliseconds. */
async function time(task: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await task();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
}

/**
 * Builds one session of `entries` entries in a SQLite database and a JSONL directory (both in a
 * temporary directory, removed afterwards) and measures the reads.
 *
 * @param options - `entries` (default 100,000) and `runs` per figure (default 5).
 * @returns The median times.
 */
export async function measureStores(options: { entries?: number; runs?: number } = {}): Promise<StoreBenchResult> {
  const entries = options.entries ?? 100_000;
  const runs = options.runs ?? 5;
  const directory = mkdtempSync(join(tmpdir(), 'ctxkit-bench-stores-'));
  try {
    const database = new Database(join(directory, 'sessions.db'));
    database.pragma('journal_mode = WAL');
    const sqlite = createSqliteStore({ database });
    const jsonlDirectory = join(directory, 'jsonl');
    const jsonl = createJsonlStore({ directory: jsonlDirectory });
    await sqlite.createSession({ id: 'long' });
    await jsonl.createSession({ id: 'long' });
    // Bulk-load through the stores' own append path, in one transaction for SQLite.
    database.exec('BEGIN');
    for (let index = 0; index < entries; index++) await sqlite.appendEntry('long', entryAt(index));
    database.exec('COMMIT');
    const lines: string[] = [];
    let parentId: string | null = null;
    const sqliteEntries = await sqlite.getEntries('long');
    for (const entry of sqliteEntries) {
      lines.push(JSON.stringify({ ...entry, parentId }));
      parentId = entry.id;
    }
    // Appending 100k entries with an fsync each would take minutes: write the same lines at once.
    const { appendFileSync, statSync } = await import('node:fs');
    appendFileSync(join(jsonlDirectory, 'long.jsonl'), `${lines.join('\n')}\n`);
    const jsonlBytes = statSync(join(jsonlDirectory, 'long.jsonl')).size;

    const fresh: { wall: number; cpu: number }[] = [];
    const warm: { wall: number; cpu: number }[] = [];
    const reopen: { wall: number; cpu: number }[] = [];
    for (let run = 0; run < runs; run++) {
      const store = createSqliteStore({ database });
      let branch = 0;
      fresh.push(await time(async () => (branch = (await store.getBranch('long')).length)));
      if (branch !== entries) throw new Error(`the SQLite branch has ${branch} entries, expected ${entries}`);
      warm.push(await time(() => store.getBranch('long')));
      const reopened = createJsonlStore({ directory: jsonlDirectory });
      reopen.push(await time(async () => (branch = (await reopened.getBranch('long')).length)));
      if (branch !== entries) throw new Error(`the JSONL branch has ${branch} entries, expected ${entries}`);
    }
    database.close();
    return {
      entries,
      jsonlBytes,
      sqliteFreshBranchMs: median(fresh.map((run) => run.wall)),
      sqliteWarmBranchMs: median(warm.map((run) => run.wall)),
      jsonlReopenMs: median(reopen.map((run) => run.wall)),
      sqliteFreshBranchCpuMs: median(fresh.map((run) => run.cpu)),
      sqliteWarmBranchCpuMs: median(warm.map((run) => run.cpu)),
      jsonlReopenCpuMs: median(reopen.map((run) => run.cpu)),
      runs,
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const entries = Number(process.argv[2] ?? 100_000);
  console.log(await measureStores({ entries }));
}
