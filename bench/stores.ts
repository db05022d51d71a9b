/**
 * The session stores at scale: how long a fresh SQLite store takes to read a branch of a long
 * session, and a JSONL store to reopen one, on a realistic coding-agent mix (user text, assistant
 * tool calls, tool results of varied size). `measureStores()` returns the numbers; run this file
 * directly to print them (`node --import tsx bench/stores.ts [entries] [--write]`; `--write` also writes
 * `docs/store-benchmarks.md`).
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { buildContextFromBranch } from '../src/index.js';
import { createJsonlStore } from '../src/node/index.js';
import type { SessionEntry, SessionEntryInput } from '../src/session-entry.js';
import { createSqliteStore } from '../src/sqlite/index.js';

/** Wall and CPU time (user + system) of one figure, in milliseconds: the medians of `runs`. */
export interface Timing {
  wallMs: number;
  cpuMs: number;
}

/** What {@link measureStores} measured. */
export interface StoreBenchResult {
  /** Entries in each session (one linear branch). */
  entries: number;
  /** A compaction every this many entries in the compacted session. */
  compactionEvery: number;
  /** Entries of the compacted session's context branch (what a resume reads). */
  contextEntries: number;
  /** Messages in the context a resume builds. */
  contextMessages: number;
  /** Bytes of the JSONL file of the session without compactions. */
  jsonlBytes: number;
  /** Compacted session, JSONL: a new store, `getBranch(…, { from: 'context' })`, `buildContextFromBranch`. */
  jsonlResume: Timing;
  /** Compacted session, SQLite: the same on a new store over the open database. */
  sqliteResume: Timing;
  /** Compacted session, SQLite: the context branch's read alone (`getBranch(…, { from: 'context' })` on a store opened before). */
  sqliteContextRead: Timing;
  /** Session without compactions, JSONL: a new store, then `getBranch` of all entries. */
  jsonlFullBranch: Timing;
  /** Session without compactions, SQLite: a new store, then `getBranch` of all entries. */
  sqliteFullBranch: Timing;
  /** `JSON.parse` of every line of the JSONL file without compactions, read into memory first: the floor of a full read. */
  parseOnly: Timing;
  /** `getBranch` again on the same (now warm) SQLite store. */
  sqliteWarmBranch: Timing;
  /** How many times each figure was measured. */
  runs: number;
}

/**
 * The i-th entry of a realistic mix (a user turn, a tool call, its result of varied size, an
 * answer), with the id `e<i>`; with `compactionEvery`, every that many entries is a compaction
 * keeping the last 200 entries before it, as a long session has.
 */
export function entryAt(index: number, compactionEvery = 0): SessionEntryInput {
  if (compactionEvery > 0 && index % compactionEvery === compactionEvery - 1) {
    const kept = index - 200 - ((index - 200) % 4);
    return {
      id: `e${index}`,
      type: 'compaction',
      summary: `## Goal\nFinish the migration.\n## Progress\nSteps up to ${Math.floor(kept / 4)} done.\n`.repeat(8),
      firstKeptEntryId: `e${kept}`,
      tokensBefore: 150_000,
      details: { tokensAfter: 30_000, summarizedCount: compactionEvery },
    };
  }
  return { id: `e${index}`, ...messageAt(index) };
}

function messageAt(index: number): SessionEntryInput {
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
async function time<T>(task: () => Promise<T>): Promise<{ wall: number; cpu: number; value: T }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = await task();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000, value };
}

function timing(samples: { wall: number; cpu: number }[]): Timing {
  return { wallMs: median(samples.map((run) => run.wall)), cpuMs: median(samples.map((run) => run.cpu)) };
}

/**
 * Writes one session of `entries` entries to a SQLite database (through the store) and to a JSONL
 * file (the same lines, written at once: appending 100k entries with an fsync each takes minutes).
 */
async function writeSession(
  database: Database.Database,
  jsonlDirectory: string,
  sessionId: string,
  entries: number,
  compactionEvery: number,
): Promise<number> {
  const sqlite = createSqliteStore({ database });
  const jsonl = createJsonlStore({ directory: jsonlDirectory });
  await sqlite.createSession({ id: sessionId });
  await jsonl.createSession({ id: sessionId });
  database.exec('BEGIN');
  for (let index = 0; index < entries; index++) await sqlite.appendEntry(sessionId, entryAt(index, compactionEvery));
  database.exec('COMMIT');
  const lines = (await sqlite.getEntries(sessionId)).map((entry) => JSON.stringify(entry));
  const file = join(jsonlDirectory, `${sessionId}.jsonl`);
  appendFileSync(file, `${lines.join('\n')}\n`);
  return statSync(file).size;
}

/** What a host resumes from: the context built from the branch (checked against the whole path). */
function resume(branch: SessionEntry[]) {
  return buildContextFromBranch(branch);
}

/**
 * Builds two sessions of `entries` entries, one with a compaction every `compactionEvery` entries
 * and one without, in a SQLite database and a JSONL directory (in a temporary directory, removed
 * afterwards), and measures a resume of the first and a full branch read of the second.
 *
 * @param options - `entries` (default 100,000), `compactionEvery` (default 3,000), `runs` (default 5).
 * @returns The median times.
 */
export async function measureStores(
  options: { entries?: number; compactionEvery?: number; runs?: number } = {},
): Promise<StoreBenchResult> {
  const entries = options.entries ?? 100_000;
  const compactionEvery = options.compactionEvery ?? 3_000;
  const runs = options.runs ?? 5;
  const directory = mkdtempSync(join(tmpdir(), 'ctxkit-bench-stores-'));
  try {
    const database = new Database(join(directory, 'sessions.db'));
    database.pragma('journal_mode = WAL');
    const jsonlDirectory = join(directory, 'jsonl');
    const jsonlBytes = await writeSession(database, jsonlDirectory, 'plain', entries, 0);
    await writeSession(database, jsonlDirectory, 'compacted', entries, compactionEvery);

    // The reference: the context built from the whole path, by a store that reads everything.
    // Only its messages and ids are kept: the bench's heap should look like a host's, not hold every entry.
    const { messages, entryIds } = buildContextFromBranch(await createSqliteStore({ database }).getBranch('compacted'));
    const reference = { messages, entryIds };
    const collect = (globalThis as { gc?: () => void }).gc ?? (() => {});
    const same = (label: string, context: ReturnType<typeof resume>) => {
      if (
        context.messages.length !== reference.messages.length ||
        context.entryIds.join() !== reference.entryIds.join() ||
        JSON.stringify(context.messages) !== JSON.stringify(reference.messages)
      ) {
        throw new Error(`${label}: the resumed context differs from the one built from the whole path`);
      }
    };
    const samples = {
      jsonlResume: [] as { wall: number; cpu: number }[],
      sqliteResume: [] as { wall: number; cpu: number }[],
      sqliteContextRead: [] as { wall: number; cpu: number }[],
      jsonlFull: [] as { wall: number; cpu: number }[],
      sqliteFull: [] as { wall: number; cpu: number }[],
      sqliteWarm: [] as { wall: number; cpu: number }[],
      parseOnly: [] as { wall: number; cpu: number }[],
    };
    const plainLines = readFileSync(join(jsonlDirectory, 'plain.jsonl'), 'utf8').split('\n').filter(Boolean);
    let contextEntries = 0;
    for (let run = 0; run < runs; run++) {
      collect();
      const jsonlResume = await time(async () => {
        const store = createJsonlStore({ directory: jsonlDirectory });
        const branch = await store.getBranch('compacted', undefined, { from: 'context' });
        contextEntries = branch.length;
        return resume(branch);
      });
      same('JSONL', jsonlResume.value);
      samples.jsonlResume.push(jsonlResume);
      collect();
      const sqliteResume = await time(async () =>
        resume(await createSqliteStore({ database }).getBranch('compacted', undefined, { from: 'context' })),
      );
      same('SQLite', sqliteResume.value);
      samples.sqliteResume.push(sqliteResume);
      collect();
      const opened = createSqliteStore({ database });
      samples.sqliteContextRead.push(
        await time(async () => (await opened.getBranch('compacted', undefined, { from: 'context' })).length),
      );

      collect();
      const jsonlFull = await time(
        async () => (await createJsonlStore({ directory: jsonlDirectory }).getBranch('plain')).length,
      );
      if (jsonlFull.value !== entries)
        throw new Error(`the JSONL branch has ${jsonlFull.value} entries, expected ${entries}`);
      samples.jsonlFull.push(jsonlFull);
      collect();
      const store = createSqliteStore({ database });
      const sqliteFull = await time(async () => (await store.getBranch('plain')).length);
      if (sqliteFull.value !== entries)
        throw new Error(`the SQLite branch has ${sqliteFull.value} entries, expected ${entries}`);
      samples.sqliteFull.push(sqliteFull);
      samples.sqliteWarm.push(await time(() => store.getBranch('plain')));
      collect();
      samples.parseOnly.push(await time(async () => plainLines.map((line) => JSON.parse(line) as unknown).length));
    }
    database.close();
    return {
      entries,
      compactionEvery,
      contextEntries,
      contextMessages: reference.messages.length,
      jsonlBytes,
      jsonlResume: timing(samples.jsonlResume),
      sqliteResume: timing(samples.sqliteResume),
      sqliteContextRead: timing(samples.sqliteContextRead),
      jsonlFullBranch: timing(samples.jsonlFull),
      sqliteFullBranch: timing(samples.sqliteFull),
      sqliteWarmBranch: timing(samples.sqliteWarm),
      parseOnly: timing(samples.parseOnly),
      runs,
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** The measurements as the Markdown page `docs/store-benchmarks.md`. */
export function renderStoreBenchmarks(result: StoreBenchResult, machine: string): string {
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const row = (what: string, read: string, timing: Timing) =>
    `| ${what} | ${read} | ${ms(timing.wallMs)} | ${ms(timing.cpuMs)} | ${timing.wallMs <= 150 ? 'yes' : 'no'} |`;
  const size = result.entries.toLocaleString('en');
  return [
    '# Session store benchmarks',
    '',
    'Generated by `node --import tsx bench/stores.ts --write`; do not edit by hand.',
    '',
    `Two sessions of ${size} entries each on the realistic coding-agent mix (user text, assistant`,
    'tool calls, tool results of 1 to 40 lines, answers), one linear branch, in a SQLite database and',
    `in JSONL files (${(result.jsonlBytes / 1e6).toFixed(0)} MB for the session without compactions).`,
    `One session has a compaction every ${result.compactionEvery.toLocaleString('en')} entries, keeping the last 200 entries`,
    `before it, as a long session has: resuming it reads a context branch of ${result.contextEntries.toLocaleString('en')} entries`,
    `and builds a context of ${result.contextMessages.toLocaleString('en')} messages, checked equal to the context built from`,
    'the whole path. The other has no compaction: its full branch is every entry.',
    '',
    `Each figure is the median of ${result.runs} runs (a garbage collection before each when run with`,
    '`--expose-gc`), wall time and CPU time (user + system) of the',
    `process; the target of issue 10 is 150 ms. ${machine}`,
    '',
    '| session | operation | wall | CPU | ≤ 150 ms |',
    '| --- | --- | ---: | ---: | :---: |',
    row(
      'compacted, JSONL',
      'new store, `getBranch(…, { from: "context" })`, `buildContextFromBranch`',
      result.jsonlResume,
    ),
    row(
      'compacted, SQLite',
      'new store, `getBranch(…, { from: "context" })`, `buildContextFromBranch`',
      result.sqliteResume,
    ),
    row('compacted, SQLite', "the context branch's read alone (store opened before)", result.sqliteContextRead),
    row('no compaction, JSONL', `new store, \`getBranch\` (${size} entries)`, result.jsonlFullBranch),
    row('no compaction, SQLite', `new store, \`getBranch\` (${size} entries)`, result.sqliteFullBranch),
    row('no compaction, SQLite', 'the same store again (warm)', result.sqliteWarmBranch),
    '',
    `A full branch of every entry parses all of them: \`JSON.parse\` alone of its lines takes ${Math.round(result.parseOnly.wallMs)} ms`,
    `here (${Math.round(result.parseOnly.cpuMs)} ms CPU), so a full read cannot reach the target; a resume reads only what its`,
    'context needs (see "Resuming a long session" in [session-tree.md](session-tree.md)). The',
    'PostgreSQL store is measured by `npm run bench:postgres` against a server.',
    '',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const write = process.argv.includes('--write');
  const entries = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 100_000);
  const result = await measureStores({ entries });
  console.log(result);
  if (write) {
    const machine =
      process.env['BENCH_MACHINE'] ??
      `Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}).`;
    writeFileSync(new URL('../docs/store-benchmarks.md', import.meta.url), renderStoreBenchmarks(result, machine));
  }
}
