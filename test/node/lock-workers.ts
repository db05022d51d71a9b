/**
 * Real writer processes for the JSONL lock tests: `ctxkit/node` bundled once into a plain ES module
 * (a process then starts in about a tenth of what `tsx` takes, so a test can kill hundreds), and a
 * worker that appends to one session until it is killed, printing each acknowledged entry's id.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** A directory holding the bundle and the worker script. */
export interface WorkerKit {
  script: string;
  cleanup(): Promise<void>;
}

const WORKER = `
import { createJsonlStore } from './ctxkit-node.mjs';
const [directory, sessionId, name] = process.argv.slice(2);
const store = createJsonlStore({ directory });
for (let n = 0; ; n++) {
  try {
    const entry = await store.appendEntry(sessionId, { type: 'message', message: { role: 'user', content: name + ' ' + n } });
    process.stdout.write(entry.id + '\\n');
  } catch (error) {
    // Another writer appended first: the store read the session again; append after it.
    // A live writer may hold the lock past the wait on a starved machine: that refusal is right.
    if (error?.code === 'LEAF_CONFLICT' || /That process is running/.test(String(error))) continue;
    process.stderr.write('REFUSED ' + String(error?.message ?? error).replaceAll('\\n', ' ') + '\\n');
  }
}
`;

/** Bundles `ctxkit/node` and writes the worker beside it. */
export async function prepareWorkers(): Promise<WorkerKit> {
  const directory = await mkdtemp(join(tmpdir(), 'ctxkit-lock-workers-'));
  await build({
    entryPoints: [fileURLToPath(new URL('../../src/node/index.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: join(directory, 'ctxkit-node.mjs'),
    logLevel: 'silent',
  });
  const script = join(directory, 'worker.mjs');
  await writeFile(script, WORKER);
  return { script, cleanup: () => rm(directory, { recursive: true, force: true }) };
}

/** A running worker: what it acknowledged and what it was refused. */
export interface Worker {
  process: ChildProcess;
  acknowledged: string[];
  refused: string[];
  /** Settles when the process has exited. */
  exited: Promise<void>;
}

/** Starts a worker appending to `sessionId` in `directory`. */
export function startWorker(kit: WorkerKit, directory: string, sessionId: string, name: string): Worker {
  const child = spawn(process.execPath, [kit.script, directory, sessionId, name], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const worker: Worker = {
    process: child,
    acknowledged: [],
    refused: [],
    exited: new Promise((done) => child.once('exit', () => done())),
  };
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    const lines = out.split('\n');
    out = lines.pop()!;
    worker.acknowledged.push(...lines);
  });
  let errors = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    errors += chunk;
    const lines = errors.split('\n');
    errors = lines.pop()!;
    worker.refused.push(...lines.filter((line) => line.length > 0));
  });
  return worker;
}
