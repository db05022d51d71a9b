import { constants } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { LeafConflictError, StoreError } from '../errors.js';
import { deepFreeze } from '../internal/deep-freeze.js';
import { mixHash } from '../internal/mix-hash.js';
import { type EntrySource, SourceMismatch } from '../session/entry-source.js';
import { parseStoredEntry } from '../session/parse-stored-entry.js';
import { keepsFromItsBranch } from '../session/prepare-entry.js';
import { SessionIndex } from '../session/session-index.js';
import { sessionExists, sessionInfoSchema } from '../session/session-info.js';
import type { SessionInfo } from '../session/session-store.js';
import {
  type CompactionEntry,
  SESSION_ENTRY_TYPES,
  type SessionEntry,
  type SessionEntryType,
} from '../session-entry.js';
import { describeIssues } from '../validation/zod-issues.js';

/**
 * The JSONL session file: its header line, reading and indexing its entry lines (the byte-level id set
 * included), and appending a line durably. The store driver is `jsonl-store.ts`; the lock `jsonl-lock.ts`.
 *
 * @internal
 */

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

/**
 * Whether a parsed first line is a session header: `{ type: 'session', version }` with a whole
 * version ≥ 1 (as `z.object({ type: z.literal('session'), version: z.number().int().positive() })`).
 *
 * @internal
 */
export function isHeaderLine(value: unknown): value is { type: 'session'; version: number } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { type, version } = value as Record<string, unknown>;
  return type === 'session' && Number.isSafeInteger(version) && (version as number) > 0;
}

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
async function appendDurably(file: string, text: string, mode: keyof typeof OPEN_FLAGS): Promise<void> {
  const handle = await open(file, OPEN_FLAGS[mode]);
  try {
    await handle.write(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** @internal */
function parseHeader(line: string, file: string, expectedId?: string): SessionInfo {
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
  if (!isHeaderLine(value)) {
    throw new StoreError({
      message: `${file} does not start with a ctxkit session header line.`,
      code: 'STORE_CORRUPT',
    });
  }
  if (value.version > JSONL_FORMAT_VERSION) {
    throw new StoreError({
      message: `${file} has format version ${value.version}, newer than this ctxkit reads (${JSONL_FORMAT_VERSION}). Upgrade ctxkit.`,
      code: 'STORE_CORRUPT',
    });
  }
  const { type: _type, version: _version, ...info } = value as Record<string, unknown>;
  const parsed = sessionInfoSchema.safeParse(info);
  if (!parsed.success)
    throw new StoreError({
      message: `${file} has an invalid session header: ${describeIssues(parsed.error, 'header')}.`,
      code: 'STORE_CORRUPT',
    });
  if (expectedId !== undefined && parsed.data.id !== expectedId) {
    throw new StoreError({
      message: `${file} holds session "${parsed.data.id}", not "${expectedId}" (a copied or renamed file). Rename it to ${parsed.data.id}.jsonl, or move it out of the directory.`,
      code: 'STORE_CORRUPT',
    });
  }
  return deepFreeze(info as unknown as SessionInfo);
}

/** What is wrong with a compaction line whose kept entry is not on its branch before it. @internal */
function keptEntryProblem(entry: CompactionEntry): string {
  return `compaction "${entry.id}" keeps from entry "${entry.firstKeptEntryId}", which is not on its branch before it (a hand edit?); it and its descendants are skipped`;
}

/** Applies one line of a session file; returns what was wrong with it, if anything. */
function applyLine(index: SessionIndex, line: string): string | undefined {
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
function forEachLine(bytes: Buffer, start: number, visit: (line: string, number: number, last: boolean) => void): void {
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
async function syncDirectory(directory: string): Promise<void> {
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

/**
 * Reading a JSONL session file back: lazily (each line's head indexed, entries parsed when read)
 * or in full (every line parsed and checked, the reader's exact rules for damaged lines).
 *
 * @internal
 */

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
interface ReadSessionFileOptions {
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
function isCompleteHeader(text: string): boolean {
  try {
    parseHeader(text, '');
    return true;
  } catch {
    return false;
  }
}

/** Whether a session file holds only a header cut off by a crash (no newline, not a whole header). @internal */
async function holdsTornHeader(file: string): Promise<boolean> {
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

/** What {@link appendRecord} needs from the store. @internal */
interface AppendTarget {
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

/**
 * Reopening a JSONL session without parsing it: every entry line starts with the fields the store
 * writes first (`{"id":…,"parentId":…,"timestamp":…,"type":…`), so one pass over the bytes finds
 * each line's id, parent and type, and a line is parsed only when a read needs its entry (a
 * context branch needs the entries from the latest compaction on). A line that does not start that
 * way (a leaf move, a hand-written or torn line) is parsed at once, exactly as the full reader
 * does, and so is a compaction line (its kept entry must be on its branch); an indexed line that
 * turns out not to be the entry its index said throws `SourceMismatch` when it is read, and the
 * store then reads the session in full.
 *
 * @internal
 */

const bytesOf = (text: string) => Uint8Array.from(text, (character) => character.charCodeAt(0));
const ID = /* @__PURE__ */ bytesOf('{"id":"');
const PARENT = /* @__PURE__ */ bytesOf('","parentId":');
const TIMESTAMP = /* @__PURE__ */ bytesOf(',"timestamp":');
const TYPE = /* @__PURE__ */ bytesOf('"type":"');
const NULL = /* @__PURE__ */ bytesOf('null');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;

/** The entry types by first byte and length (no two share both), with their bytes. */
const TYPES_BY_KEY = /* @__PURE__ */ (() =>
  new Map(SESSION_ENTRY_TYPES.map((type) => [type.charCodeAt(0) * 64 + type.length, type] as const)))();
const TYPE_BYTES = /* @__PURE__ */ (() => new Map(SESSION_ENTRY_TYPES.map((type) => [type, bytesOf(type)] as const)))();

/** The entry type spelled by `bytes[start, end)`, or `undefined`. */
function entryType(bytes: Uint8Array, start: number, end: number): SessionEntryType | undefined {
  const type = TYPES_BY_KEY.get(bytes[start]! * 64 + (end - start));
  return type !== undefined && startsWith(bytes, start, TYPE_BYTES.get(type)!) ? type : undefined;
}

function startsWith(bytes: Uint8Array, at: number, pattern: Uint8Array): boolean {
  if (at + pattern.length > bytes.length) return false;
  for (let offset = 0; offset < pattern.length; offset++) if (bytes[at + offset] !== pattern[offset]) return false;
  return true;
}

/** The end of a JSON string without escapes that starts at `at`, or -1. */
function plainStringEnd(bytes: Uint8Array, at: number, limit: number): number {
  for (let position = at; position < limit; position++) {
    const byte = bytes[position];
    if (byte === QUOTE) return position > at ? position : -1;
    if (byte === BACKSLASH) return -1;
  }
  return -1;
}

/** A line's JSON, or `undefined` when it is not JSON. */
function parseLine(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Where the lazily read entries of one file are. */
class FileSource implements EntrySource {
  /** Per position: where the line starts and ends, and where its id starts and ends. */
  readonly offsets: Int32Array;

  constructor(
    private readonly bytes: Buffer,
    lines: number,
  ) {
    this.offsets = new Int32Array(lines * 4);
  }

  /** Records the entry line at `position`. */
  record(position: number, line: number, lineEnd: number, id: number, idEnd: number): void {
    const at = position * 4;
    this.offsets[at] = line;
    this.offsets[at + 1] = lineEnd;
    this.offsets[at + 2] = id;
    this.offsets[at + 3] = idEnd;
  }

  idAt(position: number): string {
    return this.bytes.toString('utf8', this.offsets[position * 4 + 2]!, this.offsets[position * 4 + 3]!);
  }

  hasId(position: number, id: string): boolean {
    const start = this.offsets[position * 4 + 2]!;
    const end = this.offsets[position * 4 + 3]!;
    if (id.length !== end - start) return id === this.idAt(position);
    for (let offset = 0; offset < id.length; offset++) {
      const byte = this.bytes[start + offset]!;
      // Past ASCII, one character is not one byte: compare the decoded id.
      if (byte >= 0x80) return id === this.idAt(position);
      if (id.charCodeAt(offset) !== byte) return false;
    }
    return true;
  }

  load(position: number): SessionEntry {
    const text = this.bytes.toString('utf8', this.offsets[position * 4]!, this.offsets[position * 4 + 1]!);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new SourceMismatch(`line of entry ${position} is not JSON`);
    }
    const parsed = parseStoredEntry(value);
    if ('problem' in parsed) throw new SourceMismatch(parsed.problem);
    return parsed.entry;
  }
}

/** A line the indexer skipped or parsed and found wrong, as the full reader reports it. @internal */
interface LineProblem {
  /** The 1-based line number, counted after the header line. */
  line: number;
  last: boolean;
  reason: string;
}

/**
 * Indexes the entry lines of a session file from `start` (after the header) into a lazy
 * {@link SessionIndex}, calling `report` for each line that is skipped.
 *
 * @internal
 */
function indexSessionLines(
  info: SessionInfo,
  bytes: Buffer,
  start: number,
  report: (problem: LineProblem) => void,
): SessionIndex {
  let lines = 1;
  for (let at = bytes.indexOf(NEWLINE, start); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) lines++;
  const source = new FileSource(bytes, lines);
  const index = new SessionIndex(info, source);
  const ids = new IdSet(bytes, lines);
  /** The previous indexed entry's id bytes, or its id when it was added whole. */
  let previousStart = -1;
  let previousEnd = -1;
  let previousId: string | null = null;
  let number = 0;
  for (let lineStart = start; lineStart < bytes.length; ) {
    number++;
    let lineEnd = bytes.indexOf(NEWLINE, lineStart);
    const last = lineEnd === -1;
    if (last) lineEnd = bytes.length;
    const next = lineEnd + 1;
    if (lineEnd === lineStart) {
      lineStart = next;
      continue;
    }
    // A line the store wrote ends with the object's brace; anything else is parsed whole.
    const close = lineEnd - 1;
    let parsedWhole = last || bytes[close] !== 0x7d || !startsWith(bytes, lineStart, ID);
    let idStart = 0;
    let idEnd = -1;
    let parentStart = -1;
    let parentEnd = -1;
    let type: SessionEntryType | undefined;
    if (!parsedWhole) {
      idStart = lineStart + ID.length;
      idEnd = plainStringEnd(bytes, idStart, close);
      let at = idEnd + PARENT.length;
      if (idEnd < 0 || !startsWith(bytes, idEnd, PARENT)) parsedWhole = true;
      else if (startsWith(bytes, at, NULL)) at += NULL.length;
      else if (bytes[at] === QUOTE) {
        parentStart = at + 1;
        parentEnd = plainStringEnd(bytes, parentStart, close);
        at = parentEnd + 1;
        if (parentEnd < 0) parsedWhole = true;
      } else parsedWhole = true;
      if (!parsedWhole && startsWith(bytes, at, TIMESTAMP)) {
        at += TIMESTAMP.length;
        const digits = at;
        while (at < close && bytes[at] !== 0x2c) at++;
        const typeStart = at + 1 + TYPE.length;
        const typeEnd = at > digits && startsWith(bytes, at + 1, TYPE) ? plainStringEnd(bytes, typeStart, close) : -1;
        type = typeEnd < 0 ? undefined : entryType(bytes, typeStart, typeEnd);
        if (type === undefined) parsedWhole = true;
      } else parsedWhole = true;
    }
    if (parsedWhole) {
      const before = index.size;
      const text = bytes.toString('utf8', lineStart, lineEnd);
      if (text.trim().length === 0) {
        lineStart = next;
        continue;
      }
      const problem = applyLine(index, text);
      if (problem !== undefined) report({ line: number, last, reason: problem });
      if (index.size > before) {
        previousStart = -1;
        previousId = index.leafId;
      }
      lineStart = next;
      continue;
    }
    let parent: number;
    let parentId: string | undefined;
    if (parentStart < 0) {
      parent = -1;
    } else if (
      previousStart >= 0
        ? sameBytes(bytes, parentStart, parentEnd, previousStart, previousEnd)
        : previousId !== null && previousId === bytes.toString('utf8', parentStart, parentEnd)
    ) {
      // The common case: the entry continues from the one appended before it.
      parent = index.size - 1;
    } else {
      parentId = bytes.toString('utf8', parentStart, parentEnd);
      const found = index.positionOf(parentId);
      if (found === undefined) {
        const id = bytes.toString('utf8', idStart, idEnd);
        const why = parentId === id ? 'itself' : `"${parentId}", which is not an earlier entry`;
        report({
          line: number,
          last,
          reason: `entry "${id}" names as parent ${why} (a missing parent or a cycle); it and its descendants are skipped`,
        });
        lineStart = next;
        continue;
      }
      parent = found;
    }
    // A compaction is read at once (there are few): one that keeps from an entry off its branch is
    // skipped as the full reader skips it; one that is not a valid entry is read in full.
    if (type === 'compaction') {
      const compaction = parseStoredEntry(parseLine(bytes.toString('utf8', lineStart, lineEnd)));
      if (!('entry' in compaction) || compaction.entry.type !== 'compaction') {
        throw new SourceMismatch(`compaction line ${number} is not a valid entry`);
      }
      if (!keepsFromItsBranch(index, compaction.entry.firstKeptEntryId, parent)) {
        report({ line: number, last, reason: keptEntryProblem(compaction.entry) });
        lineStart = next;
        continue;
      }
    }
    // A repeated id (a copied line) is read as the full reader reads it: the second one is skipped.
    if (!ids.add(idStart, idEnd)) throw new SourceMismatch(`entry id on line ${number} appears twice`);
    source.record(index.size, lineStart, lineEnd, idStart, idEnd);
    index.addIndexed(parent, type!, parentId);
    previousStart = idStart;
    previousEnd = idEnd;
    lineStart = next;
  }
  return index;
}

/** Whether `bytes[a, aEnd)` and `bytes[b, bEnd)` are the same bytes. @internal */
function sameBytes(bytes: Uint8Array, a: number, aEnd: number, b: number, bEnd: number): boolean {
  if (aEnd - a !== bEnd - b) return false;
  for (let offset = 0; offset < aEnd - a; offset++) if (bytes[a + offset] !== bytes[b + offset]) return false;
  return true;
}

/**
 * The ids of the lines a JSONL reopen indexes, held as byte ranges of the file: a repeated id is
 * found while indexing without decoding an id to a string.
 *
 * @internal
 */
class IdSet {
  /** Open addressing: each slot holds 1 + the index of an id in `starts`/`ends`, or 0. */
  private readonly slots: Int32Array;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private size = 0;

  constructor(
    private readonly bytes: Uint8Array,
    capacity: number,
  ) {
    let slots = 16;
    while (slots < capacity * 2) slots *= 2;
    this.slots = new Int32Array(slots);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
  }

  /** Adds the id spelled by `bytes[start, end)`; returns false when the same bytes were added before. */
  add(start: number, end: number): boolean {
    const { bytes, slots } = this;
    let hash = 0x811c9dc5;
    for (let at = start; at < end; at++) hash = Math.imul(hash ^ bytes[at]!, 0x01000193);
    hash = mixHash(hash); // FNV-1a's low bits alone would pile ids like e1, e2, … into runs
    const mask = slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const held = slots[slot]!;
      if (held === 0) {
        this.starts[this.size] = start;
        this.ends[this.size] = end;
        slots[slot] = ++this.size;
        return true;
      }
      const index = held - 1;
      if (sameBytes(bytes, this.starts[index]!, this.ends[index]!, start, end)) return false;
    }
  }
}
