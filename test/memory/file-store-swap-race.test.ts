/**
 * The file memory store under attack: a separate process swaps every directory of the tree, and the
 * root itself, for symbolic links into a canary tree outside, as fast as it can, while every command
 * runs against paths through those directories. Nothing outside the root may be read, written,
 * created or deleted.
 */
import { spawn } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryTool } from '../../src/memory/index.js';
import { createFileMemoryStore } from '../../src/node/index.js';

/** The directories the swapper swaps, relative to the root ('' is the root itself). */
const SWAPPED = ['', 'a', 'a/b', 'c'];

/**
 * Runs in a child process: swaps each directory for a link to its canary twin, then back, until the
 * stop file exists (or the deadline passes).
 */
const SWAPPER = `
const fs = require('node:fs');
const path = require('node:path');
const [root, canary, milliseconds, stop] = process.argv.slice(1);
const dirs = ${JSON.stringify(SWAPPED)};
const deadline = Date.now() + Number(milliseconds);
let swaps = 0;
while (Date.now() < deadline && !fs.existsSync(stop)) {
  for (const dir of dirs) {
    const target = path.join(root, dir);
    const aside = path.join(path.dirname(target), '.' + path.basename(target) + '-aside');
    try {
      fs.renameSync(target, aside);
    } catch {
      continue;
    }
    try {
      fs.symlinkSync(path.join(canary, dir), target);
      swaps++;
      for (let spin = 0; spin < 50000; spin++);
      fs.unlinkSync(target);
    } catch {}
    try { fs.renameSync(aside, target); } catch {}
  }
}
process.stdout.write(String(swaps));
`;

/** Every path below `directory` with its file contents, links marked. */
async function snapshot(directory: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of (await readdir(directory)).sort()) {
    const path = join(directory, name);
    const info = await lstat(path);
    if (info.isDirectory()) found.push(`${name}/`, ...(await snapshot(path)).map((inner) => `${name}/${inner}`));
    else if (info.isSymbolicLink()) found.push(`${name} -> link`);
    else found.push(`${name}: ${await readFile(path, 'utf8')}`);
  }
  return found;
}

/** Builds the same small tree under `directory`, every file holding `text`. */
async function plant(directory: string, text: string): Promise<void> {
  await mkdir(join(directory, 'a', 'b'), { recursive: true });
  await mkdir(join(directory, 'c'), { recursive: true });
  for (const file of ['notes.md', 'a/notes.md', 'a/b/notes.md', 'c/notes.md']) {
    await writeFile(join(directory, file), `${text}\nline two\n`);
  }
}

/** Undoes a swap the swapper left half done when it stopped. */
async function restore(root: string): Promise<void> {
  for (const dir of [...SWAPPED].reverse()) {
    const target = join(root, dir);
    const aside = join(join(target, '..'), `.${target.split('/').pop()}-aside`);
    const info = await lstat(target).catch(() => undefined);
    if (info?.isSymbolicLink()) await unlink(target);
    if (await lstat(aside).catch(() => undefined)) {
      // The store recreates a root it finds missing (in place: that is still the root), so a root
      // moved aside may have a new twin by now.
      if (info?.isDirectory()) await rm(target, { recursive: true });
      await rename(aside, target);
    }
  }
}

const linux = process.platform === 'linux';
if (!linux) console.warn('skipping the symlink-swap race test: the race-proof file store needs Linux');

describe.skipIf(!linux)('file memory store under a concurrent symlink swapper', () => {
  it('never reads, writes, creates or deletes anything outside the root', async () => {
    const base = await mkdtemp(join(tmpdir(), 'ctxkit-memory-swap-'));
    const root = join(base, 'memories');
    const canary = join(base, 'canary');
    try {
      await plant(root, 'inside');
      await plant(canary, 'CANARY');
      const canaryBefore = await snapshot(canary);
      const memory = createMemoryTool({ store: createFileMemoryStore({ directory: root }) });
      // The race runs until it has shown both outcomes over enough commands (at least 0.4 s), at
      // most 10 s on a starved machine: a fixed 2 s window spent most of it after that.
      const [least, most] = [400, 10_000];
      const stop = join(base, 'stop');
      const swapper = spawn(process.execPath, ['-e', SWAPPER, root, canary, String(most + 5_000), stop]);
      let swapOutput = '';
      swapper.stdout.on('data', (chunk: Buffer) => {
        swapOutput += chunk.toString();
      });
      const finished = new Promise<void>((done) => swapper.on('exit', () => done()));
      const dirs = ['/memories', '/memories/a', '/memories/a/b', '/memories/c'];
      let commands = 0;
      let refused = 0;
      let succeeded = 0;
      const results: string[] = [];
      const started = Date.now();
      const enough = () => Date.now() - started >= least && commands >= 100 && refused > 0 && succeeded > 0;
      for (let round = 0; !enough() && Date.now() - started < most; round++) {
        for (const dir of dirs) {
          const calls: unknown[] = [
            { command: 'view', path: dir },
            { command: 'view', path: `${dir}/notes.md` },
            { command: 'create', path: `${dir}/new-${round}.md`, file_text: 'PWNED' },
            { command: 'create', path: `${dir}/deep-${round}/x.md`, file_text: 'PWNED' },
            { command: 'str_replace', path: `${dir}/notes.md`, old_str: 'line two', new_str: 'PWNED two' },
            { command: 'str_replace', path: `${dir}/notes.md`, old_str: 'PWNED two', new_str: 'line two' },
            { command: 'insert', path: `${dir}/notes.md`, insert_line: 0, insert_text: 'PWNED' },
            { command: 'str_replace', path: `${dir}/notes.md`, old_str: 'PWNED\n', new_str: '' },
            { command: 'rename', old_path: `${dir}/notes.md`, new_path: `${dir}/moved.md` },
            { command: 'rename', old_path: `${dir}/moved.md`, new_path: `${dir}/notes.md` },
            { command: 'delete', path: `${dir}/new-${round}.md` },
            { command: 'delete', path: `${dir}/deep-${round}` },
            { command: 'delete', path: `${dir}/notes.md` },
            { command: 'create', path: `${dir}/notes.md`, file_text: 'inside\nline two\n' },
          ];
          for (const call of calls) {
            const result = await memory.execute(call);
            commands++;
            if ('error' in result) refused++;
            else succeeded++;
            results.push('error' in result ? result.error : result.content);
          }
        }
      }
      await writeFile(stop, '');
      await finished;
      await rm(stop);
      await restore(root);
      const swaps = Number(swapOutput);
      // The race really ran: the swapper swapped often, and commands both failed and succeeded
      // (a machine busy with other tests runs fewer of them in the window: tens, not hundreds).
      expect(swaps).toBeGreaterThan(20);
      expect(commands).toBeGreaterThan(20);
      expect(refused).toBeGreaterThan(0);
      expect(succeeded).toBeGreaterThan(0);
      expect(results.filter((text) => text.includes('CANARY'))).toEqual([]);
      expect(await snapshot(canary)).toEqual(canaryBefore);
      expect((await readdir(base)).sort()).toEqual(['canary', 'memories']);
    } finally {
      await restore(root).catch(() => undefined);
      await rm(base, { recursive: true, force: true });
    }
  });
});
