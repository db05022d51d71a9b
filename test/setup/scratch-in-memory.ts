// Vitest's global setup: the suite's scratch files (the temporary directories of the store, lock,
// memory and command-line tests) go to one directory in memory (/dev/shm) for the run, removed after
// it. The JSONL and SQLite stores fsync every append, thousands of times in the suite: a few
// milliseconds each on a disk, which tests only the disk. Nothing changes when the machine has no
// such room (under 1 GB free) or TMPDIR is set.
import { accessSync, constants, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';

const MEMORY = '/dev/shm';
const ROOM = 2 ** 30;

function hasRoom(): boolean {
  try {
    accessSync(MEMORY, constants.W_OK);
    const { bavail, bsize } = statfsSync(MEMORY);
    return bavail * bsize >= ROOM;
  } catch {
    return false;
  }
}

/**
 * Points TMPDIR at a fresh directory in memory for the test workers (they inherit it), when there is room.
 *
 * @returns The teardown, which removes the directory.
 */
export default function setup(): (() => void) | undefined {
  if (process.env.TMPDIR !== undefined || !hasRoom()) return undefined;
  const scratch = mkdtempSync(join(MEMORY, 'ctxkit-test-'));
  process.env.TMPDIR = scratch;
  return () => {
    rmSync(scratch, { recursive: true, force: true });
    delete process.env.TMPDIR;
  };
}
