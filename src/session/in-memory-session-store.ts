import type { SessionEntry, SessionEntryInput } from '../session-entry.js';
import { option, parseOptions } from '../validation/parse-options.js';
import { checkExpectedLeaf } from './check-expected-leaf.js';
import { wantsContextBranch } from './context-branch.js';
import { prepareEntry } from './prepare-entry.js';
import { SessionIndex } from './session-index.js';
import { createSessionInfo, sessionExists, sessionNotFound, sortSessions } from './session-info.js';
import type {
  AppendEntryOptions,
  CreateSessionInit,
  SessionInfo,
  SessionStore,
  SetLeafOptions,
  TranscriptMessage,
} from './session-store.js';

/**
 * Options of {@link createInMemorySessionStore}.
 *
 * @example
 * ```ts
 * const options: CreateInMemorySessionStoreOptions = { now: () => 1_700_000_000_000 };
 * ```
 */
export interface CreateInMemorySessionStoreOptions {
  /** The clock used for timestamps. @default Date.now */
  now?: () => number;
}

const optionsSchema = /* @__PURE__ */ (() => option.fields({ now: option.clock().optional() }))();

/**
 * A {@link SessionStore} that keeps everything in memory: for tests, short-lived agents and
 * browsers. Entries are stored as frozen JSON copies, and the same objects are returned on every
 * call, so token counts stay cached.
 *
 * @param options - The clock.
 * @returns An empty store.
 *
 * @example
 * ```ts
 * const store = createInMemorySessionStore();
 * const session = await store.createSession();
 * await store.appendEntry(session.id, { type: 'message', message: { role: 'user', content: 'hi' } });
 * ```
 */
export function createInMemorySessionStore(options: CreateInMemorySessionStoreOptions = {}): SessionStore {
  parseOptions('createInMemorySessionStore', optionsSchema, options);
  const now = options.now ?? Date.now;
  const sessions = new Map<string, SessionIndex>();

  function session(sessionId: string): SessionIndex {
    const found = sessions.get(sessionId);
    if (found === undefined) throw sessionNotFound(sessionId);
    return found;
  }

  return {
    async createSession(init?: CreateSessionInit): Promise<SessionInfo> {
      const info = createSessionInfo(init, now());
      if (sessions.has(info.id)) throw sessionExists(info.id);
      sessions.set(info.id, new SessionIndex(info));
      return info;
    },
    async getSession(sessionId: string): Promise<SessionInfo | undefined> {
      return sessions.get(sessionId)?.info;
    },
    async listSessions(): Promise<SessionInfo[]> {
      return sortSessions([...sessions.values()].map((index) => index.info));
    },
    async appendEntry(
      sessionId: string,
      input: SessionEntryInput,
      options?: AppendEntryOptions,
    ): Promise<SessionEntry> {
      const index = session(sessionId);
      checkExpectedLeaf(sessionId, options, index.leafId);
      const entry = prepareEntry(index, input, now());
      index.add(entry);
      return entry;
    },
    async getEntries(sessionId: string): Promise<SessionEntry[]> {
      return session(sessionId).entries();
    },
    async getBranch(sessionId: string, leafId?: string | null, options?: { from?: 'root' | 'context' }) {
      const context = wantsContextBranch('getBranch', options);
      return session(sessionId).branch(leafId, context);
    },
    async getLeaf(sessionId: string): Promise<string | null> {
      return session(sessionId).leafId;
    },
    async setLeaf(sessionId: string, entryId: string | null, options?: SetLeafOptions): Promise<void> {
      const index = session(sessionId);
      checkExpectedLeaf(sessionId, options, index.leafId);
      index.checkEntry(entryId);
      index.leafId = entryId;
    },
    async getMessages(sessionId: string): Promise<TranscriptMessage[]> {
      return session(sessionId).messages();
    },
    async close(): Promise<void> {},
  };
}
