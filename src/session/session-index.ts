/**
 * The in-memory index of one session that the memory and JSONL stores share (and the SQLite store
 * uses as its cache): validation and filling of appended entries, the leaf, branches, the flat
 * transcript.
 *
 * @internal
 */
import { z } from 'zod';
import { LeafConflictError, SessionError } from '../errors.js';
import { sessionEntryInputSchema, sessionEntrySchema } from '../schemas/entries.js';
import type { SessionEntry } from '../types.js';
import { markValidEntry } from './check-entries.js';
import { contextBranchOf } from './context-branch.js';
import { entryToMessage } from './entry-to-message.js';
import { isStoredEntry } from './is-stored-entry.js';
import type { CreateSessionInit, SessionInfo, TranscriptMessage } from './session-store.js';
import { walkBranch } from './walk-branch.js';

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * Whether a string is a valid session id (safe as a file name).
 *
 * @internal
 */
export function isSessionId(value: string): boolean {
  return SESSION_ID.test(value);
}

const sessionInitSchema = z.object({
  id: z
    .string()
    .regex(SESSION_ID, 'use 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit')
    .optional(),
  name: z.string().optional(),
  parentSessionId: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** @internal */
export const sessionInfoSchema: z.ZodType<SessionInfo> = z.object({
  id: z.string().regex(SESSION_ID),
  createdAt: z.number().nonnegative(),
  name: z.string().optional(),
  parentSessionId: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

function formatPath(root: string, path: readonly PropertyKey[]): string {
  let text = root;
  for (const key of path) text += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  return text;
}

/**
 * The first few problems of a validation error, each naming its field.
 *
 * @internal
 */
export function describeIssues(error: z.ZodError, root: string): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      let detail = issue.message;
      if (issue.code === 'invalid_union' && issue.errors.length > 0) {
        detail = issue.errors.map((errors) => errors[0]?.message ?? 'invalid').join('; or ');
      }
      return `${formatPath(root, issue.path)}: ${detail}`;
    })
    .join('; ');
}

/** @internal */
export function sessionNotFound(sessionId: string): SessionError {
  return new SessionError({
    message: `There is no session "${sessionId}". Create it with createSession first.`,
    code: 'SESSION_NOT_FOUND',
  });
}

/**
 * Validates a `createSession` input and makes the session info.
 *
 * @internal
 */
export function createSessionInfo(init: CreateSessionInit | undefined, now: number): SessionInfo {
  const parsed = sessionInitSchema.safeParse(init ?? {});
  if (!parsed.success) {
    throw new SessionError({
      message: `Invalid session: ${describeIssues(parsed.error, 'init')}.`,
      code: 'INPUT_INVALID',
    });
  }
  const { id, name, parentSessionId, metadata } = parsed.data;
  return deepFreeze(
    toJson({
      id: id ?? crypto.randomUUID(),
      createdAt: now,
      ...(name === undefined ? {} : { name }),
      ...(parentSessionId === undefined ? {} : { parentSessionId }),
      ...(metadata === undefined ? {} : { metadata }),
    }) as SessionInfo,
  );
}

/**
 * Sessions oldest first, by `createdAt` then id.
 *
 * @internal
 */
export function sortSessions(sessions: SessionInfo[]): SessionInfo[] {
  return sessions.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** @internal */
export function sessionExists(sessionId: string): SessionError {
  return new SessionError({
    message: `A session "${sessionId}" already exists. Pick another id, or omit it to get a random one.`,
    code: 'INPUT_INVALID',
  });
}

function toJson(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value));
  } catch (error) {
    throw new SessionError({
      message: 'The value is not JSON (a cycle, a BigInt or similar); session data must be JSON.',
      code: 'INPUT_INVALID',
      cause: error,
    });
  }
}

/**
 * Freezes a JSON value all the way down, so that shared stored entries cannot be changed.
 *
 * @internal
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    if (Array.isArray(value)) {
      for (const child of value) if (typeof child === 'object' && child !== null) deepFreeze(child);
    } else {
      for (const key in value) {
        const child = (value as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null) deepFreeze(child);
      }
    }
  }
  return value;
}

/**
 * Validates a stored entry (a line of a file, a row); returns a description of what is wrong
 * instead of throwing.
 *
 * @internal
 */
export function parseStoredEntry(value: unknown): { entry: SessionEntry } | { problem: string } {
  // The fast check accepts exactly what the schema accepts; the schema only words the refusal.
  if (isStoredEntry(value)) {
    markValidEntry(value as object);
    return { entry: deepFreeze(value as SessionEntry) };
  }
  const parsed = sessionEntrySchema.safeParse(value);
  if (!parsed.success) return { problem: describeIssues(parsed.error, 'entry') };
  markValidEntry(value as object);
  return { entry: deepFreeze(value as SessionEntry) };
}

/**
 * Refuses a write whose `options.expectedLeafId` is not the session's current leaf, with a
 * {@link LeafConflictError}; a write without it is not checked.
 *
 * @internal
 */
export function checkExpectedLeaf(sessionId: string, options: unknown, currentLeafId: string | null): void {
  if (options === undefined || options === null) return;
  const expected = typeof options === 'object' ? (options as { expectedLeafId?: unknown }).expectedLeafId : options;
  if (expected === undefined) return;
  if (typeof options !== 'object' || (expected !== null && typeof expected !== 'string')) {
    throw new SessionError({
      message: `options.expectedLeafId: expected an entry id or null (the leaf the write extends), got ${typeof expected}.`,
      code: 'INPUT_INVALID',
    });
  }
  if (expected !== currentLeafId) {
    throw new LeafConflictError({
      message: `Session "${sessionId}" moved on: its leaf is ${currentLeafId === null ? 'empty' : `"${currentLeafId}"`}, not ${expected === null ? 'empty' : `"${expected}"`} as the write expected; nothing was written. Read the branch again and retry from the current leaf, or append on an explicit branch with parentId.`,
      sessionId,
      expectedLeafId: expected,
      currentLeafId,
    });
  }
}

/**
 * One session held in memory.
 *
 * @internal
 */
export class SessionIndex {
  readonly entries: SessionEntry[] = [];
  readonly byId = new Map<string, SessionEntry>();
  leafId: string | null = null;
  /** The flat transcript, built on first use from `entries[0 .. transcriptLength)`. */
  private readonly transcript: TranscriptMessage[] = [];
  private transcriptLength = 0;

  constructor(readonly info: SessionInfo) {}

  /** Validates an appended entry and fills it in, without changing the index. */
  prepare(input: unknown, now: number): SessionEntry {
    // Validate what will be stored: the JSON form (a `toJSON` method or an `undefined` field changes it).
    const json = toJson(input);
    const parsed = sessionEntryInputSchema.safeParse(json);
    if (!parsed.success) {
      throw new SessionError({
        message: `Invalid entry for session "${this.info.id}": ${describeIssues(parsed.error, 'entry')}.`,
        code: 'INPUT_INVALID',
      });
    }
    const { id, parentId, timestamp, ...rest } = json as Record<string, unknown>;
    const entryId = (id as string | undefined) ?? crypto.randomUUID();
    if (this.byId.has(entryId)) {
      throw new SessionError({
        message: `Entry id "${entryId}" is already used in session "${this.info.id}"; entry ids are unique.`,
        code: 'INPUT_INVALID',
      });
    }
    const parent = parentId === undefined ? this.leafId : (parentId as string | null);
    if (parent !== null && !this.byId.has(parent)) {
      throw new SessionError({
        message: `entry.parentId: "${parent}" is not an entry of session "${this.info.id}". Omit parentId to continue from the leaf.`,
        code: 'PARENT_MISSING',
      });
    }
    const entry = { id: entryId, parentId: parent, timestamp: timestamp ?? now, ...rest } as SessionEntry;
    this.checkReferences(entry);
    markValidEntry(entry);
    return deepFreeze(entry);
  }

  /**
   * An entry that points at another must point at one that can serve: a compaction keeps from an
   * entry on its own branch (or every later context of the branch fails to build), and a branch
   * summary or a label names an entry of the session.
   */
  private checkReferences(entry: SessionEntry): void {
    if (entry.type === 'compaction') {
      for (let id: string | null = entry.parentId; id !== null; id = this.byId.get(id)?.parentId ?? null) {
        if (id === entry.firstKeptEntryId) return;
      }
      throw new SessionError({
        message: `entry.firstKeptEntryId: "${entry.firstKeptEntryId}" is not on the branch the compaction is appended to. Keep from an entry between the root and the compaction's parent.`,
        code: 'INPUT_INVALID',
      });
    }
    const target = entry.type === 'branch_summary' ? entry.fromId : entry.type === 'label' ? entry.targetId : undefined;
    if (target !== undefined && !this.byId.has(target)) {
      const field = entry.type === 'branch_summary' ? 'fromId' : 'targetId';
      throw new SessionError({
        message: `entry.${field}: "${target}" is not an entry of session "${this.info.id}".`,
        code: 'INPUT_INVALID',
      });
    }
  }

  /** Adds a stored entry and moves the leaf to it. */
  add(entry: SessionEntry): void {
    this.entries.push(entry);
    this.byId.set(entry.id, entry);
    this.leafId = entry.id;
  }

  /** Throws unless `entryId` is `null` or an entry of the session. */
  checkEntry(entryId: string | null): void {
    if (entryId !== null && !this.byId.has(entryId)) {
      throw new SessionError({
        message: `Entry "${entryId}" is not in session "${this.info.id}".`,
        code: 'ENTRY_NOT_FOUND',
      });
    }
  }

  /** The path to a leaf (the current one when `undefined`), or its context branch. */
  branch(leafId: string | null | undefined, context = false): SessionEntry[] {
    const path = walkBranch(this.byId, { leafId: leafId === undefined ? this.leafId : leafId });
    return context ? contextBranchOf(path) : path;
  }

  messages(): TranscriptMessage[] {
    // Built lazily: reopening a long session should not convert every entry to a message.
    for (; this.transcriptLength < this.entries.length; this.transcriptLength++) {
      const entry = this.entries[this.transcriptLength]!;
      const message = entryToMessage(entry);
      if (message !== undefined) this.transcript.push({ entryId: entry.id, timestamp: entry.timestamp, message });
    }
    return [...this.transcript];
  }
}
