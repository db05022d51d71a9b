/**
 * The lock file that keeps one writer per JSONL session.
 *
 * - **Atomic.** A writer writes its owner record to a claim file of its own and hard-links it to
 *   `<file>.lock`: `link` fails when the name exists, so the lock never exists without its owner
 *   in it (the claim is removed right after). No empty or half-written lock can be left behind.
 * - **Staleness decided by process identity, not by pid alone.** The record holds the pid, the
 *   host name, the kernel's boot id, the pid namespace and the process start time (Linux, from
 *   `/proc`). A holder in this boot and pid namespace is checked exactly: gone, or a pid now used
 *   by a process that started at another time (a restarted container reusing the dead writer's
 *   pid), is dead and taken over at once. A holder that cannot be checked (another host or
 *   container, no `/proc`) keeps its lock alive with a heartbeat, the lock's mtime refreshed every
 *   tenth of `staleMs` (a second by default) while held, and is taken over once the heartbeat is
 *   `staleMs` old (10 s by default).
 * - **One remover at a time.** A stale lock is removed under a second lock
 *   (`<file>.lock.takeover`, taken the same way), after reading it again: two writers that both
 *   found it stale cannot remove each other's fresh lock.
 *
 * @internal
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { link, readdir, readFile, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { StoreError } from '../errors.js';
import { errorCode, storeFailed } from './jsonl-file.js';

/**
 * How long to wait and when to take over, for one store's locks.
 *
 * @internal
 */
export interface LockTiming {
  /** How long an append waits for another live writer's lock before it is refused. */
  waitMs: number;
  /**
   * How old the heartbeat of a lock whose owner cannot be checked (another host or container, or a
   * platform without `/proc`) must be before the lock is taken over: ten missed heartbeats, as a
   * held lock's mtime is refreshed every tenth of it.
   */
  staleMs: number;
}

/** The default {@link LockTiming}: a 2 s wait, a 10 s stale heartbeat (refreshed every second). @internal */
export const DEFAULT_LOCK_TIMING: Readonly<LockTiming> = Object.freeze({ waitMs: 2000, staleMs: 10_000 });

/** The default stale heartbeat age, {@link DEFAULT_LOCK_TIMING}'s `staleMs`. @internal */
export const LOCK_STALE_MS = DEFAULT_LOCK_TIMING.staleMs;

/** Who holds a lock: the process, and where its pid means something. */
interface LockOwner {
  pid: number;
  host: string;
  /** The kernel's boot id (`/proc/sys/kernel/random/boot_id`); `null` where there is none. */
  boot: string | null;
  /** The pid namespace (`/proc/self/ns/pid`); `null` where there is none. */
  pidNamespace: string | null;
  /** The process start time in clock ticks since boot (`/proc/<pid>/stat`, field 22); `null` where there is none. */
  started: string | null;
  /** Tells one store object's locks from another's in the same process. */
  token: string;
  /** When the lock was taken (ms since the epoch). */
  since: number;
}

/** Reads a small file of `/proc`; `null` when it is not there (another platform, or a process that is gone). */
function readProc(read: () => string): string | null {
  try {
    return read().trim();
  } catch {
    return null;
  }
}

/** A process's start time from `/proc/<pid>/stat`: the 22nd field, counted after the command name's closing parenthesis. */
function startTimeOf(pid: number | 'self'): string | null {
  const text = readProc(() => readFileSync(`/proc/${pid}/stat`, 'utf8'));
  if (text === null) return null;
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return fields[19] ?? null;
}

let self: Omit<LockOwner, 'token' | 'since'> | undefined;

/** This process's identity, read once. */
function ownIdentity(): Omit<LockOwner, 'token' | 'since'> {
  self ??= {
    pid: process.pid,
    host: hostname(),
    boot: readProc(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8')),
    pidNamespace: readProc(() => readlinkSync('/proc/self/ns/pid')),
    started: startTimeOf('self'),
  };
  return self;
}

/** Whether a process with this id runs (in this pid namespace). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

function parseOwner(text: string): Partial<LockOwner> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Partial<LockOwner>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What can be said of a lock's owner from here: `dead` (taken over at once), `alive` (never taken
 * over), or `unknown` (taken over when its heartbeat is `staleMs` old).
 */
function ownerState(holder: Partial<LockOwner> | undefined): 'dead' | 'alive' | 'unknown' {
  if (holder === undefined || typeof holder.pid !== 'number' || !Number.isInteger(holder.pid) || holder.pid <= 0) {
    return 'unknown';
  }
  const me = ownIdentity();
  if (
    me.boot !== null &&
    me.pidNamespace !== null &&
    holder.boot === me.boot &&
    holder.pidNamespace === me.pidNamespace
  ) {
    // Same kernel, same pid namespace: pid and start time name one process.
    const started = startTimeOf(holder.pid);
    // No /proc entry: gone, unless /proc hides it (`hidepid`) from this user; then only the heartbeat can tell.
    if (started === null) return isRunning(holder.pid) ? 'unknown' : 'dead';
    return typeof holder.started === 'string' && started !== holder.started ? 'dead' : 'alive';
  }
  // A record without a boot id (another platform, or an older release) on this host: its pid can
  // say it is gone, never that it is alive (the pid may be another process's now).
  if (holder.boot == null && holder.host === me.host && !isRunning(holder.pid)) return 'dead';
  return 'unknown';
}

/** A lock file as read: its text, its owner, and what identifies this very file. */
interface SeenLock {
  text: string;
  holder: Partial<LockOwner> | undefined;
  ino: number;
  mtimeMs: number;
}

/** Reads a lock file; `undefined` when there is none. */
async function inspect(file: string): Promise<SeenLock | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    return { text, holder: parseOwner(text), ino: info.ino, mtimeMs: info.mtimeMs };
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw storeFailed('read the lock file', file, error);
  }
}

/** Whether a lock may be taken over: its owner is dead, or cannot be checked and its heartbeat stopped. */
function isStale(seen: SeenLock, now: number, staleMs: number): boolean {
  const state = ownerState(seen.holder);
  return state === 'dead' || (state === 'unknown' && now - seen.mtimeMs > staleMs);
}

/**
 * Creates `file` holding `text` if it does not exist, atomically: the text goes to a claim file
 * first, which is then hard-linked to `file`. Returns false when `file` exists.
 */
async function createWithOwner(file: string, claim: string, text: string): Promise<boolean> {
  try {
    await writeFile(claim, text, { mode: 0o600 });
    await link(claim, file);
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw storeFailed('lock', file, error);
  } finally {
    await unlink(claim).catch(() => undefined);
  }
}

/** Removes `file` when it still holds `text` (read again just before). */
async function removeIfUnchanged(file: string, text: string): Promise<void> {
  if ((await readFile(file, 'utf8').catch(() => undefined)) === text) await unlink(file).catch(() => undefined);
}

/**
 * Claim files of writers killed between writing their claim and removing it: removed while a
 * stale lock is taken over, when their owner is dead (or cannot be checked and the claim is older
 * than `staleMs`).
 */
async function sweepClaims(lockFile: string, now: number, staleMs: number): Promise<void> {
  const directory = dirname(lockFile);
  const prefix = `${basename(lockFile)}.`;
  const names = await readdir(directory).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.claim')) continue;
    const claim = await inspect(join(directory, name)).catch(() => undefined);
    if (claim !== undefined && isStale(claim, now, staleMs)) await removeIfUnchanged(join(directory, name), claim.text);
  }
}

/**
 * Removes the stale lock `seen`, under the takeover lock so that no two writers remove locks at
 * once: the lock is read again there, and removed only if it is still the one judged stale.
 */
async function takeOver(
  lockFile: string,
  seen: SeenLock,
  ownerText: string,
  token: string,
  staleMs: number,
): Promise<void> {
  const guard = `${lockFile}.takeover`;
  if (!(await createWithOwner(guard, `${guard}.${token}.claim`, ownerText))) {
    // Another writer is taking over (a few milliseconds), or died doing it.
    const other = await inspect(guard);
    if (other !== undefined && isStale(other, Date.now(), staleMs)) await removeIfUnchanged(guard, other.text);
    return;
  }
  try {
    const again = await inspect(lockFile);
    if (
      again !== undefined &&
      again.ino === seen.ino &&
      again.text === seen.text &&
      isStale(again, Date.now(), staleMs)
    ) {
      await unlink(lockFile).catch(() => undefined);
      await sweepClaims(lockFile, Date.now(), staleMs);
    }
  } finally {
    await removeIfUnchanged(guard, ownerText);
  }
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise((done) => setTimeout(done, milliseconds));
}

/**
 * Takes a session's lock file (`<file>.lock`), waiting for another writer's append to finish, and
 * returns its release. A lock whose owner is dead is taken over at once; one whose owner cannot be
 * checked, once its heartbeat is `timing.staleMs` old; one held for over `timing.waitMs` otherwise
 * is refused with a `StoreError` naming its owner.
 *
 * @internal
 */
export async function lockSession(
  sessionId: string,
  sessionFile: string,
  token: string,
  since: number,
  timing: LockTiming = DEFAULT_LOCK_TIMING,
): Promise<() => Promise<void>> {
  const file = `${sessionFile}.lock`;
  const owner: LockOwner = { ...ownIdentity(), token, since };
  const text = JSON.stringify(owner);
  const claim = `${file}.${token}.claim`;
  const deadline = Date.now() + timing.waitMs;
  for (let attempt = 0; ; attempt++) {
    // Looked at first, so that a writer waiting for the lock writes no claim (which a kill would leave behind).
    const seen = await inspect(file);
    if (seen === undefined) {
      // Timers take at most 2^31 - 1 ms (a longer one fires at once).
      if (await createWithOwner(file, claim, text))
        return holdLock(file, text, Math.min(timing.staleMs / 10, 2 ** 31 - 1));
      continue;
    }
    const now = Date.now();
    if (isStale(seen, now, timing.staleMs)) {
      await takeOver(file, seen, text, token, timing.staleMs);
      continue;
    }
    if (now >= deadline) throw refusal(sessionId, file, seen, now, timing);
    await sleep(Math.min(50, 2 + attempt * 2));
  }
}

/** Keeps a taken lock's heartbeat until it is released; the release removes the lock if it is still this writer's. */
function holdLock(file: string, text: string, heartbeatMs: number): () => Promise<void> {
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(file, now, now).catch(() => undefined);
  }, heartbeatMs);
  heartbeat.unref?.();
  return async () => {
    clearInterval(heartbeat);
    await removeIfUnchanged(file, text);
  };
}

function refusal(sessionId: string, file: string, seen: SeenLock, now: number, timing: LockTiming): StoreError {
  const { holder } = seen;
  const who =
    holder === undefined || typeof holder.pid !== 'number'
      ? 'another writer'
      : `process ${holder.pid} on ${String(holder.host)}` +
        (typeof holder.since === 'number' ? ` (since ${new Date(holder.since).toISOString()})` : '');
  const state = ownerState(holder);
  const after =
    state === 'alive'
      ? 'That process is running: one writer per session.'
      : `If that process is gone, the lock is taken over once its heartbeat is ${timing.staleMs / 1000} s old ` +
        `(in ${Math.max(0, Math.ceil((seen.mtimeMs + timing.staleMs - now) / 1000))} s); retry then, or delete the lock file.`;
  return new StoreError({
    message:
      `Session "${sessionId}" is being written by ${who}: its lock file ${file} was held for over ` +
      `${timing.waitMs} ms. ${after}`,
    code: 'STORE_FAILED',
  });
}
