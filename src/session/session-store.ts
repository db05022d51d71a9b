import type { SessionEntry, SessionEntryInput } from '../session-entry.js';
import type { Message } from '../types.js';

/**
 * What a store knows about one session, apart from its entries.
 *
 * @example
 * ```ts
 * const info: SessionInfo = { id: 'chat-1', createdAt: Date.now(), name: 'Parser refactor' };
 * ```
 */
export interface SessionInfo {
  /** Letters, digits, `.`, `_` and `-`; at most 128 characters, starting with a letter or digit. */
  id: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  /** A display name. */
  name?: string;
  /** The session this one was forked from. */
  parentSessionId?: string;
  /** Host data (JSON), such as the working directory (`cwd`). */
  metadata?: Record<string, unknown>;
}

/**
 * The input of {@link SessionStore.createSession}.
 *
 * @example
 * ```ts
 * const init: CreateSessionInit = { name: 'Parser refactor', metadata: { cwd: '/repo' } };
 * ```
 */
export interface CreateSessionInit {
  /** The id to use. @default a random UUID */
  id?: string;
  /** A display name. */
  name?: string;
  /** The session this one was forked from. */
  parentSessionId?: string;
  /** Host data (JSON). */
  metadata?: Record<string, unknown>;
}

/**
 * One message of the flat transcript: a message entry's message, or the user message a custom
 * message, branch summary or compaction entry stands for (the same object
 * `buildContextFromBranch` returns for it).
 *
 * @example
 * ```ts
 * for (const { entryId, message } of await store.getMessages(sessionId)) render(entryId, message);
 * ```
 */
export interface TranscriptMessage {
  /** The entry the message comes from. */
  entryId: string;
  /** The entry's timestamp, in milliseconds since the epoch. */
  timestamp: number;
  message: Message;
}

/**
 * Options of {@link SessionStore.appendEntry}.
 *
 * @example
 * ```ts
 * const leaf = await store.getLeaf(sessionId);
 * const options: AppendEntryOptions = { expectedLeafId: leaf };
 * await store.appendEntry(sessionId, entry, options);
 * ```
 */
export interface AppendEntryOptions {
  /**
   * The leaf this append extends (`null`: the session is empty). When another writer moved the
   * leaf first, the append is refused with a `LeafConflictError` and nothing is stored.
   * @default no check: the entry attaches to whatever the leaf is
   */
  expectedLeafId?: string | null;
}

/**
 * Options of {@link SessionStore.setLeaf}.
 *
 * @example
 * ```ts
 * await store.setLeaf(sessionId, checkpointId, { expectedLeafId: leafWeSaw });
 * ```
 */
export interface SetLeafOptions {
  /** The leaf the move starts from; another leaf refuses it with a `LeafConflictError`. @default no check */
  expectedLeafId?: string | null;
}

/**
 * Durable storage for session trees: append-only entries linked by `parentId`, plus the current
 * leaf of each session. Every store passes the same conformance suite.
 *
 * Shared contract:
 * - Every method is async and rejects with a `SessionError` (code `SESSION_NOT_FOUND`) for an
 *   unknown session id, `SessionError` for bad input (naming the field), and `StoreError` when the
 *   storage itself fails or is corrupt.
 * - Entries are immutable once appended: nothing is ever updated or deleted. Stores may return the
 *   same (frozen) entry objects on every call, which keeps per-message token counts cached; never
 *   modify a returned entry. A returned array is the caller's: the session functions trust the
 *   built-in stores' entries in it and check any entry the caller pushes or puts in their place.
 * - Entries must be JSON values: what a store returns is what `JSON.parse(JSON.stringify(entry))`
 *   gives (so a `label: undefined` comes back without the key).
 * - Concurrent calls from one process are safe: appends to one session are applied in call order
 *   and none is lost. Only a store built for it (PostgreSQL) may be written by several processes
 *   at once; it serializes their writes.
 * - A write may state the leaf it extends (`expectedLeafId`): when the session's leaf is another
 *   entry, it is refused with a `LeafConflictError` (`LEAF_CONFLICT`, carrying the current leaf)
 *   and nothing is written. A writer that stated it never forks the tree by accident; an explicit
 *   `parentId` appends on a branch on purpose.
 *
 * @example
 * ```ts
 * const store = createInMemorySessionStore();
 * const { id } = await store.createSession({ name: 'demo' });
 * await store.appendEntry(id, { type: 'message', message: { role: 'user', content: 'hello' } });
 * const context = buildContextFromBranch(await store.getBranch(id, undefined, { from: 'context' }));
 * ```
 */
export interface SessionStore {
  /**
   * Creates an empty session, whose leaf is `null`.
   *
   * @param init - The id, name, parent session and metadata.
   * @returns The stored session info.
   * @throws `SessionError` (`INPUT_INVALID`) for an invalid id or one already in use.
   */
  createSession(init?: CreateSessionInit): Promise<SessionInfo>;

  /**
   * Looks a session up.
   *
   * @param sessionId - The session.
   * @returns Its info, or `undefined` when there is no such session (this method does not throw for it).
   */
  getSession(sessionId: string): Promise<SessionInfo | undefined>;

  /**
   * Lists every session.
   *
   * @returns Session infos, oldest first (by `createdAt`, then id).
   */
  listSessions(): Promise<SessionInfo[]>;

  /**
   * Validates and appends an entry, then moves the leaf to it. Fills `id` (a random UUID),
   * `timestamp` (now) and `parentId` (the current leaf) when they are not given. Resolves once the
   * entry is stored (durable stores: on disk). A rejected append stores nothing and leaves the
   * leaf where it was.
   *
   * @param sessionId - The session.
   * @param entry - The entry; not mutated.
   * @param options - The leaf the append extends, checked atomically with the write.
   * @returns The stored entry.
   * @throws `SessionError` with `INPUT_INVALID` (a field is invalid, or the id is taken) or
   * `PARENT_MISSING` (the given `parentId` is not in the session); `LeafConflictError` when
   * `options.expectedLeafId` is not the current leaf.
   */
  appendEntry(sessionId: string, entry: SessionEntryInput, options?: AppendEntryOptions): Promise<SessionEntry>;

  /**
   * Every entry of every branch.
   *
   * @param sessionId - The session.
   * @returns The entries in append order.
   */
  getEntries(sessionId: string): Promise<SessionEntry[]>;

  /**
   * The path from the root to a leaf, or only the part of it that the leaf's context is built from.
   *
   * With `{ from: 'context' }` the store may return the **context branch** instead of the whole
   * path: the entries from the latest compaction's `firstKeptEntryId` (or from the tool call that
   * entry answers, when it is a tool result) to the leaf, preceded by the latest `model_change` and
   * `thinking_level_change` entries before that point, root first. A path without a compaction is
   * its own context branch. `buildContextFromBranch` gives the same context from either, so a
   * host that resumes a long session reads what its context costs, not its whole history. The
   * option is optional for implementers: a store that ignores it returns the whole path, which is
   * always a valid answer.
   *
   * @param sessionId - The session.
   * @param leafId - The last entry of the path; `null` gives an empty path. @default the current leaf
   * @param options - `from`: `'root'` for the whole path, `'context'` for the context branch
   * (`@default 'root'`).
   * @returns The entries from the root (or the context branch's first entry) to `leafId`, root first.
   * @throws `SessionError` with `ENTRY_NOT_FOUND`, `PARENT_MISSING` or `TREE_CYCLE`.
   *
   * @example
   * ```ts
   * const context = buildContextFromBranch(await store.getBranch(sessionId, undefined, { from: 'context' }));
   * ```
   */
  getBranch(
    sessionId: string,
    leafId?: string | null,
    options?: { from?: 'root' | 'context' },
  ): Promise<SessionEntry[]>;

  /**
   * The current leaf: where the next entry attaches.
   *
   * @param sessionId - The session.
   * @returns The leaf's entry id, or `null` for a session with no entries (or moved before its root).
   */
  getLeaf(sessionId: string): Promise<string | null>;

  /**
   * Moves the leaf, to continue from an earlier entry (a branch) or back to a later one. Durable
   * stores persist the move. Entries are never removed.
   *
   * @param sessionId - The session.
   * @param entryId - An entry of the session, or `null` to start a new root.
   * @param options - The leaf the move starts from, checked atomically with the move.
   * @throws `SessionError` (`ENTRY_NOT_FOUND`) for an unknown entry; `LeafConflictError` when
   * `options.expectedLeafId` is not the current leaf.
   */
  setLeaf(sessionId: string, entryId: string | null, options?: SetLeafOptions): Promise<void>;

  /**
   * The flat transcript a UI replays: a message for every entry that carries one, across all
   * branches, in append order. Unlike the context, nothing is filtered or compacted away.
   *
   * @param sessionId - The session.
   * @returns The transcript messages with their entry ids.
   */
  getMessages(sessionId: string): Promise<TranscriptMessage[]>;

  /**
   * Optional: finds tool results of one branch of the session through an index, for `recall`
   * (`ctxkit/agent-tools`). With `id`, the results whose tool call id or recall id
   * (`recallIdOf(toolCallId)`) is `id`, oldest first; with `query`, results containing its
   * words, at most `limit`: the indexed stores return the newest holding every word, then the
   * newest holding any (whole words); the scan ranks by words found, occurrences, then newest. Only results on the
   * path from the root to `leafId` count: never another branch, never another session. A store
   * without it is searched by `searchToolResultsByScanning` (`ctxkit/session`, over `getBranch`), which gives
   * the same results in a linear scan; the SQLite and PostgreSQL stores index them (FTS5 and
   * `tsvector` with a GIN index, created by their migrations).
   *
   * @param sessionId - The session.
   * @param search - Exactly one of `id` and `query`; `limit` and `leafId`.
   * @returns The matching tool results with their entry ids.
   * @throws `SessionError` (`SESSION_NOT_FOUND`, `ENTRY_NOT_FOUND` for an unknown `leafId`).
   */
  searchToolResults?(sessionId: string, search: ToolResultSearch): Promise<ToolResultHit[]>;

  /**
   * Waits for pending writes and releases what the store holds (files, statements). It does not
   * close a database client the host passed in. Optional.
   */
  close?(): Promise<void>;
}

/**
 * What {@link SessionStore.searchToolResults} looks for: exactly one of `id` and `query`.
 *
 * @example
 * ```ts
 * const search: ToolResultSearch = { query: 'artifact checksum', limit: 5 };
 * ```
 */
export interface ToolResultSearch {
  /** A tool call id or a recall id (`r` and eight base-36 characters). */
  id?: string;
  /** Words; a result matches when it contains any of them (case-insensitive, whole words on the indexed stores). */
  query?: string;
  /** The most results a query returns. @default 20 */
  limit?: number;
  /** The last entry of the branch searched. @default the session's leaf */
  leafId?: string | null;
}

/**
 * One tool result {@link SessionStore.searchToolResults} found.
 *
 * @example
 * ```ts
 * for (const hit of await store.searchToolResults!(sessionId, { query: 'checksum' })) console.log(hit.toolCallId);
 * ```
 */
export interface ToolResultHit {
  /** The message entry holding the result. */
  entryId: string;
  /** The result's tool call id. */
  toolCallId: string;
  /** The tool that produced it. */
  toolName: string;
  /** Its text parts joined by newlines (other parts as `[image]`). */
  text: string;
}
