import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { LeafConflictError, StoreError } from '../errors.js';
import { errorCode, storeFailed } from './jsonl-file.js';
import type { LoadedSession } from './jsonl-read.js';

/** What {@link appendRecord} needs from the store. @internal */
export interface AppendTarget {
  sessionId: string;
  file: string;
  maxSessionBytes: number;
  /** Takes the session's lock file; returns its release. */
  lock: () => Promise<() => Promise<void>>;
  /** Drops the store's copy of the session, so the next call reads it again. */
  forget: () => void;
  /** Reads the session again. */
  reload: () => Promise<LoadedSession>;
}

/**
 * Appends one record line (an entry or a leaf move) to a session file under its lock, durably:
 * refused before anything is written when it would pass `maxSessionBytes`, and refused with a
 * `LeafConflictError` when another writer changed the file since the store last saw it.
 *
 * @internal
 */
export async function appendRecord(target: AppendTarget, session: LoadedSession, record: unknown): Promise<void> {
  const { sessionId, file, maxSessionBytes } = target;
  const line = `${session.endsWithNewline ? '' : '\n'}${JSON.stringify(record)}\n`;
  const bytes = Buffer.byteLength(line);
  if (session.size + bytes > maxSessionBytes) {
    throw new StoreError({
      message:
        `Session "${sessionId}" would grow to ${session.size + bytes} bytes, over maxSessionBytes ` +
        `(${maxSessionBytes}); nothing was appended. Start a new session (or branch this one) to go on, ` +
        'or raise maxSessionBytes.',
      code: 'STORE_FAILED',
    });
  }
  const release = await target.lock();
  try {
    const handle = await open(file, constants.O_WRONLY | constants.O_APPEND).catch((error: unknown) => {
      session.endsWithNewline = false;
      if (errorCode(error) === 'ENOENT') {
        target.forget();
        throw new StoreError({
          message: `${file} was removed while the session was open; nothing was appended.`,
          code: 'STORE_FAILED',
          cause: error,
        });
      }
      throw storeFailed('append to', file, error);
    });
    try {
      const { size } = await handle.stat();
      if (size !== session.size) {
        // Another process (or another store object) appended: appending from this store's view
        // would fork the tree silently. Read the session again, so a retry continues after it.
        target.forget();
        const message =
          `Session "${sessionId}" was changed by another writer (${file} is ${size} bytes, this store last ` +
          `saw ${session.size}); nothing was appended. The session was read again: retry to append after ` +
          "the other writer's entries. Keep one writer per session.";
        const fresh = await target.reload().catch(() => undefined);
        if (fresh === undefined) throw new StoreError({ message, code: 'STORE_FAILED' });
        throw new LeafConflictError({
          message,
          sessionId,
          expectedLeafId: session.index.leafId,
          currentLeafId: fresh.index.leafId,
        });
      }
      await handle.write(line);
      await handle.sync();
      session.endsWithNewline = true;
      session.size += bytes;
    } catch (error) {
      if (StoreError.isInstance(error)) throw error;
      // A failed write may have left part of the line: read the session again next time.
      target.forget();
      throw storeFailed('append to', file, error);
    } finally {
      await handle.close();
    }
  } finally {
    await release();
  }
}
