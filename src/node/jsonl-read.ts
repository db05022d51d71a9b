/**
 * Reading a JSONL session file back: lazily (each line's head indexed, entries parsed when read)
 * or in full (every line parsed and checked, the reader's exact rules for damaged lines).
 *
 * @internal
 */
import { readFile } from 'node:fs/promises';
import { SourceMismatch } from '../session/entry-source.js';
import { SessionIndex } from '../session/session-index.js';
import { sessionExists } from '../session/session-info.js';
import type { SessionInfo } from '../session/session-store.js';
import {
  appendDurably,
  applyLine,
  errorCode,
  forEachLine,
  JSONL_FORMAT_VERSION,
  parseHeader,
  storeFailed,
  syncDirectory,
} from './jsonl-file.js';
import { indexSessionLines } from './jsonl-line-index.js';

/** One session as a JSONL store holds it. @internal */
export interface LoadedSession {
  index: SessionIndex;
  /** Whether the file ends with a newline; if not, the next write starts with one. */
  endsWithNewline: boolean;
  /** The file's size in bytes as this store last read or wrote it. */
  size: number;
  /** Whether every line was parsed (not only indexed). */
  full: boolean;
  /** The lines already reported, so a full read after a lazy one does not report them twice. */
  reported: Set<number>;
}

/** Options of {@link readSessionFile}. @internal */
export interface ReadSessionFileOptions {
  /** Parse every line now. @default false: index the lines, parse entries when read */
  full?: boolean;
  /** Lines not to report again. */
  reported?: Set<number>;
  /** Called for each skipped line: its 1-based number in the file, whether it was torn, why. */
  warn: (line: number, torn: boolean, reason: string) => void;
}

/**
 * Reads a session file; `undefined` when it does not exist or its header was torn while the
 * session was created (the session never existed).
 *
 * @internal
 */
export async function readSessionFile(
  file: string,
  sessionId: string,
  options: ReadSessionFileOptions,
): Promise<LoadedSession | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw storeFailed('read', file, error);
  }
  const endsWithNewline = bytes.length > 0 && bytes[bytes.length - 1] === 0x0a;
  const firstNewline = bytes.indexOf(0x0a);
  const header = bytes.toString('utf8', 0, firstNewline === -1 ? bytes.length : firstNewline);
  const reported = options.reported ?? new Set<number>();
  const report = (line: number, last: boolean, reason: string) => {
    if (reported.has(line)) return;
    reported.add(line);
    options.warn(line, last && !endsWithNewline, reason);
  };
  if (firstNewline === -1 && !isCompleteHeader(header)) {
    // A crash while the session was created tore its header: the session never existed.
    report(1, true, 'the header line was cut off; the session counts as never created');
    return undefined;
  }
  const info = parseHeader(header, file, sessionId);
  const full = options.full === true;
  let index: SessionIndex;
  if (firstNewline === -1) index = new SessionIndex(info);
  else if (!full) {
    try {
      index = indexSessionLines(info, bytes, firstNewline + 1, ({ line, last, reason }) =>
        report(line + 1, last, reason),
      );
    } catch (error) {
      // A repeated id found while indexing (the ids were mapped for a hand-written line): read in full.
      if (!(error instanceof SourceMismatch)) throw error;
      return readSessionFile(file, sessionId, { ...options, full: true, reported });
    }
  } else {
    index = new SessionIndex(info);
    forEachLine(bytes, firstNewline + 1, (line, number, last) => {
      if (line.trim().length === 0) return;
      const problem = applyLine(index, line);
      if (problem !== undefined) report(number + 1, last, problem);
    });
  }
  return { index, endsWithNewline, size: bytes.length, full, reported };
}

/** Whether `text` (a file with no newline) is a whole header line that only lacks its newline. @internal */
export function isCompleteHeader(text: string): boolean {
  try {
    parseHeader(text, '');
    return true;
  } catch {
    return false;
  }
}

/** Whether a session file holds only a header cut off by a crash (no newline, not a whole header). @internal */
export async function holdsTornHeader(file: string): Promise<boolean> {
  try {
    const text = await readFile(file, 'utf8');
    return !text.includes('\n') && !isCompleteHeader(text);
  } catch {
    return false;
  }
}

/**
 * Creates a session file holding its header line, durably (a file whose header a crash tore is
 * replaced); returns its size in bytes.
 *
 * @throws `SessionError` when the session exists; `StoreError` when the file cannot be written.
 * @internal
 */
export async function createSessionFile(directory: string, file: string, info: SessionInfo): Promise<number> {
  const header = `${JSON.stringify({ type: 'session', version: JSONL_FORMAT_VERSION, ...info })}\n`;
  try {
    await appendDurably(file, header, 'create');
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw storeFailed('create', file, error);
    if (!(await holdsTornHeader(file))) throw sessionExists(info.id);
    await appendDurably(file, header, 'replace').catch((cause: unknown) => {
      throw storeFailed('create', file, cause);
    });
  }
  await syncDirectory(directory);
  return Buffer.byteLength(header);
}
