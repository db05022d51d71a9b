import { ContextError, LeafConflictError, StoreError } from '../errors.js';
import type { SessionEntry, SessionEntryInput } from '../session-entry.js';
import { option, parseOptions } from '../validation/parse-options.js';
import { markStoreEntries } from './check-entries.js';
import { checkExpectedLeaf } from './check-expected-leaf.js';
import { wantsContextBranch } from './context-branch.js';
import { parseStoredEntry } from './parse-stored-entry.js';
import { prepareEntry } from './prepare-entry.js';
import { SessionIndex } from './session-index.js';
import {
  createSessionInfo,
  isSessionId,
  sessionExists,
  sessionNotFound,
  sortSessions,
  storedSessionInfo,
} from './session-info.js';
import type {
  AppendEntryOptions,
  CreateSessionInit,
  SessionInfo,
  SessionStore,
  SetLeafOptions,
  TranscriptMessage,
} from './session-store.js';

/**
 * The storage a {@link defineSessionStore} store is built on: seven plain reads and writes of
 * session infos, entries and leaves, plus optional faster reads. The wrapper does everything else:
 * it validates and fills entries (ids, timestamps, parents, references), checks session ids, orders
 * the writes of one process, raises the typed errors and walks branches. A core never sees invalid
 * input and never throws a ctxkit error itself; whatever it throws becomes a `StoreError`
 * (`STORE_FAILED`) with the original as its cause.
 *
 * Every method may return a value or a promise of one.
 *
 * Concurrency: the wrapper applies one process's writes to a session one at a time, in call order.
 * When several processes write one session, `appendEntry` and `setLeaf` must compare and set the
 * leaf atomically (a transaction, `WATCH`/`MULTI`, a conditional write) and answer `false` when it
 * was not `expectedLeafId`; the wrapper then reads the session again and retries, or refuses the
 * write with a `LeafConflictError` when its caller stated the leaf. A core written by one process
 * only can compare in memory.
 *
 * @example
 * ```ts
 * const infos = new Map<string, SessionInfo>();
 * const entries = new Map<string, SessionEntry[]>();
 * const leaves = new Map<string, string | null>();
 * const core: SessionStoreCore = {
 *   createSession(info) {
 *     if (infos.has(info.id)) return false;
 *     infos.set(info.id, info);
 *     entries.set(info.id, []);
 *     leaves.set(info.id, null);
 *     return true;
 *   },
 *   getSession: (sessionId) => infos.get(sessionId),
 *   listSessions: () => [...infos.values()],
 *   getEntries: (sessionId) => entries.get(sessionId) ?? [],
 *   getLeaf: (sessionId) => leaves.get(sessionId) ?? null,
 *   appendEntry(sessionId, entry, { expectedLeafId }) {
 *     if (leaves.get(sessionId) !== expectedLeafId) return false;
 *     entries.get(sessionId)?.push(entry);
 *     leaves.set(sessionId, entry.id);
 *     return true;
 *   },
 *   setLeaf(sessionId, leafId, { expectedLeafId }) {
 *     if (leaves.get(sessionId) !== expectedLeafId) return false;
 *     leaves.set(sessionId, leafId);
 *     return true;
 *   },
 * };
 * const store = defineSessionStore(core);
 * ```
 */
export interface SessionStoreCore {
  /**
   * Stores a new session's info (already validated, with its id and `createdAt` filled), with no
   * entries and a `null` leaf.
   *
   * @param info - The session info to keep as it is.
   * @returns `false` when a session of this id already exists (nothing is stored), `true` otherwise.
   * Make the check and the write one atomic step (`SET NX`, a conditional put, a primary key).
   */
  createSession(info: SessionInfo): boolean | Promise<boolean>;

  /**
   * Reads a session's info.
   *
   * @param sessionId - A valid session id.
   * @returns The info stored by `createSession`, or `undefined` when there is none.
   */
  getSession(sessionId: string): SessionInfo | undefined | Promise<SessionInfo | undefined>;

  /**
   * Reads every session's info, in any order (the wrapper sorts them oldest first).
   *
   * @returns The infos of every session.
   */
  listSessions(): readonly SessionInfo[] | Promise<readonly SessionInfo[]>;

  /**
   * Reads every entry of a session that exists, in append order.
   *
   * @param sessionId - A session `getSession` found.
   * @returns The entries as `appendEntry` received them (or their JSON copies).
   */
  getEntries(sessionId: string): readonly SessionEntry[] | Promise<readonly SessionEntry[]>;

  /**
   * Reads a session's leaf.
   *
   * @param sessionId - A session `getSession` found.
   * @returns The leaf's entry id, or `null`.
   */
  getLeaf(sessionId: string): string | null | Promise<string | null>;

  /**
   * Stores an entry at the end of the session and moves the leaf to it, if the leaf is still
   * `options.expectedLeafId`. The entry is valid JSON, frozen, and its id is new to the session.
   *
   * @param sessionId - A session `getSession` found.
   * @param entry - The entry to store as it is.
   * @param options - `expectedLeafId`: the leaf the wrapper read before it prepared the entry.
   * @returns `false` when the leaf was another (nothing stored), `true` once the entry is stored.
   */
  appendEntry(
    sessionId: string,
    entry: SessionEntry,
    options: { expectedLeafId: string | null },
  ): boolean | Promise<boolean>;

  /**
   * Moves a session's leaf, if it is still `options.expectedLeafId`.
   *
   * @param sessionId - A session `getSession` found.
   * @param leafId - An entry of the session, or `null`.
   * @param options - `expectedLeafId`: the leaf the wrapper read before it checked the move.
   * @returns `false` when the leaf was another (nothing moved), `true` once it is moved.
   */
  setLeaf(
    sessionId: string,
    leafId: string | null,
    options: { expectedLeafId: string | null },
  ): boolean | Promise<boolean>;

  /**
   * Optional: reads a path (or its context branch) without reading the whole session. Without it,
   * the wrapper reads `getEntries` and walks the path itself.
   *
   * @param sessionId - A session `getSession` found.
   * @param leafId - The last entry of the path; `undefined` for the current leaf.
   * @param options - `from: 'context'` asks for the context branch (see `SessionStore.getBranch`);
   * returning the whole path instead is always valid.
   * @returns The entries from the root to the leaf, root first.
   * @throws `SessionError` (`ENTRY_NOT_FOUND`) for an unknown leaf.
   */
  getBranch?(
    sessionId: string,
    leafId: string | null | undefined,
    options: { from: 'root' | 'context' },
  ): readonly SessionEntry[] | Promise<readonly SessionEntry[]>;

  /**
   * Optional: the flat transcript (see `SessionStore.getMessages`). Without it, the wrapper builds
   * it from `getEntries`.
   *
   * @param sessionId - A session `getSession` found.
   * @returns The transcript messages with their entry ids.
   */
  getMessages?(sessionId: string): readonly TranscriptMessage[] | Promise<readonly TranscriptMessage[]>;

  /** Optional: releases what the core holds (the wrapper first waits for pending writes). */
  close?(): void | Promise<void>;
}

/**
 * Options of {@link defineSessionStore}.
 *
 * @example
 * ```ts
 * const store = defineSessionStore(core, { now: () => 1_700_000_000_000, attempts: 3 });
 * ```
 */
export interface DefineSessionStoreOptions {
  /** The clock used for timestamps. @default Date.now */
  now?: () => number;
  /**
   * How many times a write without `expectedLeafId` is tried when other processes keep moving the
   * leaf between the wrapper's read and the core's write; then it fails with a `LeafConflictError`.
   * @default 8
   */
  attempts?: number;
}

const optionsSchema = /* @__PURE__ */ (() =>
  option.fields({
    now: option.clock().optional(),
    attempts: option.positive().optional(),
  }))();

/**
 * Builds a full {@link SessionStore} from a small {@link SessionStoreCore}: the way to write a
 * store for a new database (Redis, DynamoDB, a key-value service). The store validates every
 * input and every entry and session info it reads back (`StoreError` `STORE_CORRUPT` for a damaged
 * one), fills ids, timestamps and parents, refuses stale writes with a `LeafConflictError`, applies
 * one process's appends to a session in call order, and provides `getBranch` (with the context
 * branch) and `getMessages` from `getEntries` when the core does not. It passes the conformance
 * suite of `ctxkit/testing` (`describeSessionStoreConformance`) for any core that keeps what it is
 * given.
 *
 * Costs: a write reads the session's entries the first time this store writes to it, then only
 * its leaf (the store keeps an index of each session it wrote to, as the built-in stores do). A
 * read without the core's `getBranch` or `getMessages` reads the session's entries (entries the
 * core hands back as the same objects are checked once); a core over a remote database can add
 * `getBranch` to read only a path.
 *
 * @param core - The storage: seven required methods, two optional reads and `close`.
 * @param options - The clock and the retries of a write that raced another process.
 * @returns A store that keeps the `SessionStore` contract.
 * @throws `ConfigError` for invalid options.
 *
 * @example
 * ```ts
 * import { defineSessionStore, type SessionStoreCore } from 'ctxkit/session';
 *
 * export function createRedisSessionStore({ redis }: { redis: RedisLike }) {
 *   const core: SessionStoreCore = {
 *     createSession: async (info) => (await redis.set(`s:${info.id}`, JSON.stringify(info), { NX: true })) === 'OK',
 *     // … getSession, listSessions, getEntries, getLeaf, appendEntry and setLeaf (compare and set)
 *   };
 *   return defineSessionStore(core);
 * }
 * ```
 */
export function defineSessionStore(core: SessionStoreCore, options: DefineSessionStoreOptions = {}): SessionStore {
  parseOptions('defineSessionStore', optionsSchema, options);
  const now = options.now ?? Date.now;
  const attempts = options.attempts ?? 8;
  /** The last write queued for each session: one process's writes to a session run one at a time. */
  const tails = new Map<string, Promise<unknown>>();
  /** Entries already validated, when the core hands back the same objects. */
  const checked = new WeakSet<object>();

  function serialize<T>(sessionId: string, write: () => Promise<T>): Promise<T> {
    const run = (tails.get(sessionId) ?? Promise.resolve()).then(write, write);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    tails.set(sessionId, tail);
    void tail.then(() => {
      if (tails.get(sessionId) === tail) tails.delete(sessionId);
    });
    return run;
  }

  async function info(sessionId: string): Promise<SessionInfo> {
    const found =
      typeof sessionId === 'string' && isSessionId(sessionId)
        ? await call(() => core.getSession(sessionId))
        : undefined;
    if (found === undefined) throw sessionNotFound(sessionId);
    return storedSessionInfo(found, `Session "${sessionId}"`);
  }

  function checkEntries(sessionId: string, entries: readonly unknown[]): SessionEntry[] {
    return entries.map((value, position) => {
      if (typeof value === 'object' && value !== null && checked.has(value)) return value as SessionEntry;
      const parsed = parseStoredEntry(value);
      if ('problem' in parsed) {
        throw new StoreError({
          message: `Entry ${position} of session "${sessionId}" is not a valid entry: ${parsed.problem}. The stored session is damaged.`,
          code: 'STORE_CORRUPT',
        });
      }
      checked.add(parsed.entry);
      return parsed.entry;
    });
  }

  /** The session as the core holds it now: its entries indexed, its leaf. */
  async function load(sessionId: string): Promise<SessionIndex> {
    const index = new SessionIndex(await info(sessionId));
    for (const entry of checkEntries(sessionId, await call(() => core.getEntries(sessionId)))) index.add(entry);
    const leaf = await call(() => core.getLeaf(sessionId));
    if (leaf !== null && !index.has(leaf)) {
      throw new StoreError({
        message: `Session "${sessionId}" has leaf "${String(leaf)}", which is none of its entries. The stored session is damaged.`,
        code: 'STORE_CORRUPT',
      });
    }
    index.leafId = leaf;
    return index;
  }

  /**
   * The sessions this store wrote to, as it last saw them: a write checks the core's leaf (one
   * small read) instead of reading every entry again. Another writer moves the leaf when it
   * appends, so a cache whose leaf is still the core's holds every entry the new one can refer to;
   * a refusal from a cache (an id or a reference it does not know) is checked against a fresh read.
   */
  const written = new Map<string, SessionIndex>();

  async function current(sessionId: string): Promise<{ index: SessionIndex; cached: boolean }> {
    const cached = written.get(sessionId);
    if (cached !== undefined && (await call(() => core.getLeaf(sessionId))) === cached.leafId) {
      return { index: cached, cached: true };
    }
    const index = await load(sessionId);
    written.set(sessionId, index);
    return { index, cached: false };
  }

  /**
   * Runs a checked write: `prepare` checks it against the session as it is now; `write` asks the
   * core to apply it if the leaf is still the one seen, and `update` then records it in the cache.
   * Retried when another process moved the leaf first.
   */
  async function writeFromLeaf<T>(
    sessionId: string,
    stated: unknown,
    prepare: (index: SessionIndex) => T,
    write: (prepared: T, leafId: string | null) => boolean | Promise<boolean>,
    update: (index: SessionIndex, prepared: T) => void,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let { index, cached } = await current(sessionId);
      let prepared: T;
      try {
        checkExpectedLeaf(sessionId, stated, index.leafId);
        prepared = prepare(index);
      } catch (error) {
        if (!cached) throw error;
        written.delete(sessionId);
        ({ index, cached } = await current(sessionId));
        checkExpectedLeaf(sessionId, stated, index.leafId);
        prepared = prepare(index);
      }
      const seen = index.leafId;
      let applied: boolean;
      try {
        applied = await call(() => write(prepared, seen));
      } catch (error) {
        // Whether the core applied it is unknown: read the session again next time.
        written.delete(sessionId);
        throw error;
      }
      if (applied) {
        update(index, prepared);
        return prepared;
      }
      written.delete(sessionId);
      const expectedLeafId = (stated as { expectedLeafId?: string | null } | undefined)?.expectedLeafId;
      if (expectedLeafId !== undefined || attempt >= attempts) {
        const currentLeafId = await call(() => core.getLeaf(sessionId));
        throw new LeafConflictError({
          message: `Session "${sessionId}" moved on while this write was prepared: its leaf is ${currentLeafId === null ? 'empty' : `"${currentLeafId}"`}${expectedLeafId === undefined ? ` after ${attempt} attempts` : ''}; nothing was written. Read the branch again and retry from the current leaf.`,
          sessionId,
          expectedLeafId: expectedLeafId === undefined ? seen : expectedLeafId,
          currentLeafId,
        });
      }
    }
  }

  return {
    async createSession(init?: CreateSessionInit): Promise<SessionInfo> {
      const created = createSessionInfo(init, now());
      if (!(await call(() => core.createSession(created)))) throw sessionExists(created.id);
      return created;
    },
    async getSession(sessionId: string): Promise<SessionInfo | undefined> {
      if (typeof sessionId !== 'string' || !isSessionId(sessionId)) return undefined;
      const found = await call(() => core.getSession(sessionId));
      return found === undefined ? undefined : storedSessionInfo(found, `Session "${sessionId}"`);
    },
    async listSessions(): Promise<SessionInfo[]> {
      const infos = await call(() => core.listSessions());
      return sortSessions(infos.map((found, position) => storedSessionInfo(found, `Session ${position} of the list`)));
    },
    appendEntry(sessionId: string, input: SessionEntryInput, options?: AppendEntryOptions): Promise<SessionEntry> {
      return serialize(sessionId, () =>
        writeFromLeaf(
          sessionId,
          options,
          (index) => prepareEntry(index, input, now()),
          (entry, expectedLeafId) => core.appendEntry(sessionId, entry, { expectedLeafId }),
          (index, entry) => index.add(entry),
        ),
      ).then((entry) => {
        checked.add(entry);
        return entry;
      });
    },
    async getEntries(sessionId: string): Promise<SessionEntry[]> {
      await info(sessionId);
      return markStoreEntries(checkEntries(sessionId, await call(() => core.getEntries(sessionId))));
    },
    async getBranch(sessionId: string, leafId?: string | null, options?: { from?: 'root' | 'context' }) {
      const context = wantsContextBranch('getBranch', options);
      const readBranch = core.getBranch?.bind(core);
      if (readBranch === undefined) return (await load(sessionId)).branch(leafId, context);
      await info(sessionId);
      const branch = await call(() => readBranch(sessionId, leafId, { from: context ? 'context' : 'root' }));
      return markStoreEntries(checkEntries(sessionId, branch));
    },
    async getLeaf(sessionId: string): Promise<string | null> {
      await info(sessionId);
      return call(() => core.getLeaf(sessionId));
    },
    setLeaf(sessionId: string, entryId: string | null, options?: SetLeafOptions): Promise<void> {
      return serialize(sessionId, async () => {
        await writeFromLeaf(
          sessionId,
          options,
          (index) => index.checkEntry(entryId),
          (_, expectedLeafId) => core.setLeaf(sessionId, entryId, { expectedLeafId }),
          (index) => {
            index.leafId = entryId;
          },
        );
      });
    },
    async getMessages(sessionId: string): Promise<TranscriptMessage[]> {
      const readMessages = core.getMessages?.bind(core);
      if (readMessages === undefined) return (await load(sessionId)).messages();
      await info(sessionId);
      return [...(await call(() => readMessages(sessionId)))];
    },
    async close(): Promise<void> {
      await Promise.all(tails.values());
      await call(() => core.close?.());
    },
  };
}

/** Awaits a core call; anything but a ctxkit error it throws becomes a `StoreError` (`STORE_FAILED`). */
async function call<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (ContextError.isInstance(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreError({
      message: `The session store's storage failed: ${reason}`,
      code: 'STORE_FAILED',
      cause: error,
    });
  }
}
