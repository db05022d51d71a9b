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

import { type EntrySource, SourceMismatch } from '../session/entry-source.js';
import { parseStoredEntry } from '../session/parse-stored-entry.js';
import { keepsFromItsBranch } from '../session/prepare-entry.js';
import { SessionIndex } from '../session/session-index.js';
import type { SessionInfo } from '../session/session-store.js';
import type { SessionEntry, SessionEntryType } from '../session-entry.js';
import { applyLine, keptEntryProblem } from './jsonl-file.js';
import { IdSet, sameBytes } from './jsonl-id-set.js';

const bytesOf = (text: string) => Uint8Array.from(text, (character) => character.charCodeAt(0));
const ID = bytesOf('{"id":"');
const PARENT = bytesOf('","parentId":');
const TIMESTAMP = bytesOf(',"timestamp":');
const TYPE = bytesOf('"type":"');
const NULL = bytesOf('null');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;

const ENTRY_TYPES: readonly SessionEntryType[] = [
  'message',
  'custom_message',
  'compaction',
  'branch_summary',
  'model_change',
  'thinking_level_change',
  'label',
  'session_info',
  'custom',
];
/** The entry types by first byte and length (no two share both), with their bytes. */
const TYPES_BY_KEY = new Map(ENTRY_TYPES.map((type) => [type.charCodeAt(0) * 64 + type.length, type] as const));
const TYPE_BYTES = new Map(ENTRY_TYPES.map((type) => [type, bytesOf(type)] as const));

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
export interface LineProblem {
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
export function indexSessionLines(
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
