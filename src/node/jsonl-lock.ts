/**
 * The lock file that keeps one writer per JSONL session.
 *
 * @internal
 */
import { type FileHandle, open, readFile, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { StoreError } from '../errors.js';
import { errorCode, storeFailed } from './jsonl-file.js';

/** How long an append waits for another writer's lock before giving up. */
const LOCK_WAIT_MS = 2000;

/** What a lock file holds: who is appending. */
interface LockOwner {
  pid: number;
  host: string;
  token: string;
  since: number;
}

/** Whether a process with this id runs on this machine. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise((done) => setTimeout(done, milliseconds));
}

/**
 * Takes a session's lock file (`<file>.lock`), waiting for another writer's append to finish, and
 * returns its release. A lock left by a dead process on this host is taken over; one held for
 * over 2 s otherwise is refused with a `StoreError` naming its owner.
 *
 * @internal
 */
export async function lockSession(
  sessionId: string,
  sessionFile: string,
  token: string,
  since: number,
): Promise<() => Promise<void>> {
  const file = `${sessionFile}.lock`;
  const owner: LockOwner = { pid: process.pid, host: hostname(), token, since };
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    let handle: FileHandle | undefined;
    try {
      handle = await open(file, 'wx', 0o600);
      await handle.writeFile(JSON.stringify(owner));
      await handle.close();
      return () => unlink(file).catch(() => undefined);
    } catch (error) {
      await handle?.close().catch(() => undefined);
      if (errorCode(error) !== 'EEXIST') throw storeFailed('lock', file, error);
    }
    let holder: LockOwner | undefined;
    let text = '';
    try {
      text = await readFile(file, 'utf8');
      holder = JSON.parse(text) as LockOwner;
    } catch {
      // Missing (released meanwhile) or half written: look again.
    }
    const stale =
      holder !== undefined && holder.host === owner.host && typeof holder.pid === 'number' && !isRunning(holder.pid);
    if (stale) {
      // The writer died holding the lock: remove it, unless it changed since it was read.
      if ((await readFile(file, 'utf8').catch(() => '')) === text) await unlink(file).catch(() => undefined);
      continue;
    }
    if (Date.now() >= deadline) {
      const who =
        holder === undefined
          ? 'another writer'
          : `process ${holder.pid} on ${holder.host} (since ${new Date(holder.since).toISOString()})`;
      throw new StoreError({
        message:
          `Session "${sessionId}" is being written by ${who}: its lock file ${file} was held for over ` +
          `${LOCK_WAIT_MS} ms. One writer per session; if that process is gone, delete the lock file.`,
        code: 'STORE_FAILED',
      });
    }
    await sleep(Math.min(50, 2 + attempt * 2));
  }
}
