/**
 * Reading and writing the lines of a JSONL session file.
 *
 * @internal
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { z } from 'zod';
import { StoreError } from '../errors.js';
import { deepFreeze } from '../internal/deep-freeze.js';
import { parseStoredEntry } from '../session/parse-stored-entry.js';
import { keepsFromItsBranch } from '../session/prepare-entry.js';
import type { SessionIndex } from '../session/session-index.js';
import { sessionInfoSchema } from '../session/session-info.js';
import type { SessionInfo } from '../session/session-store.js';
import type { CompactionEntry } from '../session-entry.js';

/**
 * The format version written in each file's header line; a file from a newer version is refused.
 *
 * @example
 * ```ts
 * const header = JSON.parse(firstLine) as { version: number };
 * if (header.version > JSONL_FORMAT_VERSION) console.warn('written by a newer ctxkit');
 * ```
 */
export const JSONL_FORMAT_VERSION = 1;

const headerSchema = z.object({ type: z.literal('session'), version: z.number().int().positive() });

/** @internal */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as { code?: string }).code : undefined;
}

/** @internal */
export function storeFailed(action: string, file: string, error: unknown): StoreError {
  const reason = error instanceof Error ? error.message : String(error);
  return new StoreError({
    message: `Could not ${action} ${file} (${reason}). Check the directory's permissions and free space.`,
    code: 'STORE_FAILED',
    cause: error,
  });
}

const OPEN_FLAGS = {
  /** Append to an existing file; never create one (a removed session must not come back headerless). */
  append: constants.O_WRONLY | constants.O_APPEND,
  /** Create a new file; fail if it exists. */
  create: 'wx',
  /** Replace a file (a session whose header was torn by a crash while it was created). */
  replace: 'w',
} as const;

/** Writes text and flushes it to disk before resolving. */
export async function appendDurably(file: string, text: string, mode: keyof typeof OPEN_FLAGS): Promise<void> {
  const handle = await open(file, OPEN_FLAGS[mode]);
  try {
    await handle.write(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** @internal */
export function parseHeader(line: string, file: string, expectedId?: string): SessionInfo {
  let value: unknown;
  try {
    // A byte order mark (an editor that saved the file) is not part of the JSON.
    value = JSON.parse(line.charCodeAt(0) === 0xfeff ? line.slice(1) : line);
  } catch (error) {
    throw new StoreError({
      message: `${file} does not start with a session header line; it is not a ctxkit session file.`,
      code: 'STORE_CORRUPT',
      cause: error,
    });
  }
  const header = headerSchema.safeParse(value);
  if (!header.success) {
    throw new StoreError({
      message: `${file} does not start with a ctxkit session header line.`,
      code: 'STORE_CORRUPT',
    });
  }
  if (header.data.version > JSONL_FORMAT_VERSION) {
    throw new StoreError({
      message: `${file} has format version ${header.data.version}, newer than this ctxkit reads (${JSONL_FORMAT_VERSION}). Upgrade ctxkit.`,
      code: 'STORE_CORRUPT',
    });
  }
  const { type: _type, version: _version, ...info } = value as Record<string, unknown>;
  const parsed = sessionInfoSchema.safeParse(info);
  if (!parsed.success)
    throw new StoreError({ message: `${file} has an invalid session header.`, code: 'STORE_CORRUPT' });
  if (expectedId !== undefined && parsed.data.id !== expectedId) {
    throw new StoreError({
      message: `${file} holds session "${parsed.data.id}", not "${expectedId}" (a copied or renamed file). Rename it to ${parsed.data.id}.jsonl, or move it out of the directory.`,
      code: 'STORE_CORRUPT',
    });
  }
  return deepFreeze(info as unknown as SessionInfo);
}

/** What is wrong with a compaction line whose kept entry is not on its branch before it. @internal */
export function keptEntryProblem(entry: CompactionEntry): string {
  return `compaction "${entry.id}" keeps from entry "${entry.firstKeptEntryId}", which is not on its branch before it (a hand edit?); it and its descendants are skipped`;
}

/** Applies one line of a session file; returns what was wrong with it, if anything. */
export function applyLine(index: SessionIndex, line: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return `not JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  if (typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'leaf') {
    const leafId = (value as { leafId?: unknown }).leafId;
    if (leafId !== null && (typeof leafId !== 'string' || !index.has(leafId))) {
      return `a leaf move to unknown entry ${JSON.stringify(leafId)}`;
    }
    index.leafId = leafId;
    return undefined;
  }
  const parsed = parseStoredEntry(value);
  if ('problem' in parsed) return `not a valid entry (${parsed.problem})`;
  const { entry } = parsed;
  if (index.has(entry.id)) return `a second entry with id "${entry.id}"`;
  // Entries are appended after their parent, so a parent that is not an earlier entry is missing,
  // names the entry itself or closes a cycle: the line would break the tree.
  if (entry.parentId !== null && !index.has(entry.parentId)) {
    const why = entry.parentId === entry.id ? 'itself' : `"${entry.parentId}", which is not an earlier entry`;
    return `entry "${entry.id}" names as parent ${why} (a missing parent or a cycle); it and its descendants are skipped`;
  }
  // A compaction that keeps from an entry off its branch would fail every context built through it.
  if (entry.type === 'compaction') {
    const parent = entry.parentId === null ? undefined : index.positionOf(entry.parentId);
    if (!keepsFromItsBranch(index, entry.firstKeptEntryId, parent)) return keptEntryProblem(entry);
  }
  index.add(entry);
  return undefined;
}

/** Below this size a file is decoded to one string and split, which is faster than line by line. */
const WHOLE_STRING_BYTES = 256 * 1024 * 1024;

/**
 * Calls `visit` with each line of `bytes` from `start` (the header's line excluded), its 1-based
 * number counted from `start` and whether it is the last, unterminated piece. Files over 256 MiB are
 * decoded line by line, since a string cannot exceed about 512 MiB in V8.
 */
export function forEachLine(
  bytes: Buffer,
  start: number,
  visit: (line: string, number: number, last: boolean) => void,
): void {
  if (bytes.length - start < WHOLE_STRING_BYTES) {
    const lines = bytes.toString('utf8', start).split('\n');
    for (let index = 0; index < lines.length; index++) {
      const last = index === lines.length - 1;
      if (!last || lines[index]!.length > 0) visit(lines[index]!, index + 1, last);
    }
    return;
  }
  let position = start;
  for (let number = 1; position <= bytes.length; number++) {
    let end = bytes.indexOf(0x0a, position);
    const last = end === -1;
    if (last) end = bytes.length;
    if (end > position || !last) visit(bytes.toString('utf8', position, end), number, last);
    position = end + 1;
  }
}

/** Reads a session's info from its header line without reading the rest of the file. */
export async function readInfo(file: string, expectedId?: string): Promise<SessionInfo> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(file, 'r');
    const chunks: Buffer[] = [];
    const buffer = Buffer.alloc(64 * 1024);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      const newline = chunk.indexOf(0x0a);
      chunks.push(Buffer.from(newline >= 0 ? chunk.subarray(0, newline) : chunk));
      if (newline >= 0) break;
    }
    return parseHeader(Buffer.concat(chunks).toString('utf8'), file, expectedId);
  } catch (error) {
    if (StoreError.isInstance(error)) throw error;
    throw storeFailed('read', file, error);
  } finally {
    await handle?.close();
  }
}

/** Flushes the directory so a new file's name survives a crash (best effort: not every platform allows it). */
export async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Directories cannot be opened or synced on some platforms; the file itself is synced.
  }
}
