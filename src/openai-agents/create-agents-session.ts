import { ConfigError } from '../errors.js';
import type { SessionStore } from '../session/session-store.js';
import type { SessionEntry } from '../session-entry.js';
import { fromAgentItems, toAgentItems } from './agent-items.js';
import type { AgentItem } from './item-types.js';

/**
 * Options of {@link createAgentsSession}.
 *
 * @example
 * ```ts
 * const options: CreateAgentsSessionOptions = { store: createPostgresStore({ pool }), sessionId: 'support-4711' };
 * ```
 */
export interface CreateAgentsSessionOptions {
  /** The ctxkit store that holds the conversation (in memory, JSONL, SQLite, PostgreSQL…). */
  store: SessionStore;
  /** The conversation's session in the store; created on first use. */
  sessionId: string;
}

/**
 * An Agents SDK `Session` backed by a ctxkit session store: pass it as `run(agent, input, { session })`.
 * `Item` is the SDK's `AgentInputItem` (ctxkit does not import it; name it to get the SDK's `Session` type).
 *
 * @example
 * ```ts
 * const session: AgentsSession<AgentInputItem> = createAgentsSession({ store, sessionId: 'support-4711' });
 * await run(agent, 'Where is my order?', { session });
 * ```
 */
export interface AgentsSession<Item extends object = AgentItem> {
  /** The store the session is kept in. */
  readonly store: SessionStore;
  /** Ensures the session exists and returns its id. */
  getSessionId(): Promise<string>;
  /** The conversation's items, oldest first; with `limit`, the latest `limit` of them. */
  getItems(limit?: number): Promise<Item[]>;
  /** Appends items, each as a message entry of the session. */
  addItems(items: Item[]): Promise<void>;
  /** Takes the latest item off the conversation (its entry stays in the store, off the branch) and returns it. */
  popItem(): Promise<Item | undefined>;
  /** Starts the conversation over (every entry stays in the store, off the branch). */
  clearSession(): Promise<void>;
}

/** What runs after each `addItems` of a session, by session object. */
const addedListeners = new WeakMap<object, Set<() => Promise<void>>>();

/**
 * Calls `listener` after every `addItems` of `session` (one made by {@link createAgentsSession}),
 * until the returned function is called: a filter records there a compaction whose first kept item
 * the SDK stores only when the run ends. The listener must not throw. @internal
 */
export function afterItemsAdded(session: object, listener: () => Promise<void>): () => void {
  let listeners = addedListeners.get(session);
  if (!listeners) {
    listeners = new Set();
    addedListeners.set(session, listeners);
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The message entries of the branch, oldest first. @internal */
export function itemEntries(branch: readonly SessionEntry[]): SessionEntry[] {
  return branch.filter((entry) => entry.type === 'message');
}

/** The item a stored message keeps (this session writes every message from one item). @internal */
export function itemOf(entry: SessionEntry): AgentItem[] {
  if (entry.type !== 'message') return [];
  const data = entry.message.providerData?.['openai-agents'];
  const item = typeof data === 'object' && data !== null ? (data as { item?: unknown }).item : undefined;
  return typeof item === 'object' && item !== null ? [item as AgentItem] : toAgentItems([entry.message]);
}

/**
 * An Agents SDK `Session` over any ctxkit session store, so Agents SDK workers keep conversations in
 * the JSONL, SQLite or PostgreSQL store (a fleet of workers shares PostgreSQL sessions) and ctxkit's
 * tools (`npx ctxkit inspect`, `buildContextFromBranch`) read them. Each item is one message entry
 * that keeps the item whole, so `getItems` returns exactly what `addItems` was given. Nothing is ever
 * deleted: `popItem` and `clearSession` move the session's leaf back, as ctxkit's stores do.
 *
 * @param options - The store and the session id.
 * @returns The session.
 * @throws `ConfigError` when `store` is not a session store or `sessionId` is not a non-empty string.
 *
 * @example
 * ```ts
 * import { Agent, run } from '@openai/agents';
 * import { createSqliteStore } from 'ctxkit/sqlite';
 *
 * const session = createAgentsSession<AgentInputItem>({ store: createSqliteStore({ database }), sessionId: 'support-4711' });
 * const result = await run(agent, 'Where is my order?', { session });
 * ```
 */
export function createAgentsSession<Item extends object = AgentItem>(
  options: CreateAgentsSessionOptions,
): AgentsSession<Item> {
  const { store, sessionId } = options ?? ({} as never);
  if (typeof store?.appendEntry !== 'function' || typeof store.getBranch !== 'function') {
    throw new ConfigError({ message: 'createAgentsSession needs `store`, a ctxkit session store.', field: 'store' });
  }
  if (typeof sessionId !== 'string' || sessionId.length === 0) {
    throw new ConfigError({
      message: 'createAgentsSession needs `sessionId`, a non-empty string.',
      field: 'sessionId',
    });
  }
  let ready: Promise<void> | undefined;
  /** The items as of a leaf: reading the branch again is skipped while the leaf has not moved. */
  let cache: { leaf: string | null; items: Item[] } | undefined;
  const read = async (): Promise<Item[]> => {
    const leaf = await store.getLeaf(sessionId);
    if (cache?.leaf === leaf) return cache.items;
    const items = itemEntries(await store.getBranch(sessionId, leaf)).flatMap(itemOf) as Item[];
    cache = { leaf, items };
    return items;
  };
  const ensure = () => {
    ready ??= (async () => {
      if (!(await store.getSession(sessionId))) {
        try {
          await store.createSession({ id: sessionId });
        } catch (error) {
          // Another worker created it in between: that is the session we want.
          if (!(await store.getSession(sessionId))) throw error;
        }
      }
    })();
    ready.catch(() => {
      ready = undefined;
    });
    return ready;
  };
  const session: AgentsSession<Item> = {
    store,
    async getSessionId() {
      await ensure();
      return sessionId;
    },
    async getItems(limit) {
      await ensure();
      const items = await read();
      return limit === undefined ? [...items] : items.slice(Math.max(0, items.length - limit));
    },
    async addItems(items) {
      await ensure();
      const before = cache;
      let leaf: string | null = await store.getLeaf(sessionId);
      // The cache continues while each append attaches to the one before it (no other writer between).
      let continues = before?.leaf === leaf;
      const added: Item[] = [];
      for (const item of items) {
        for (const message of fromAgentItems([item as AgentItem]).messages) {
          const entry = await store.appendEntry(sessionId, { type: 'message', message });
          continues &&= entry.parentId === leaf;
          leaf = entry.id;
        }
        added.push(item);
      }
      cache = before && continues ? { leaf, items: [...before.items, ...added] } : undefined;
      for (const listener of [...(addedListeners.get(session) ?? [])]) await listener();
    },
    async popItem() {
      await ensure();
      const entries = itemEntries(await store.getBranch(sessionId));
      const last = entries[entries.length - 1];
      if (last?.type !== 'message') return undefined;
      await store.setLeaf(sessionId, last.parentId);
      cache = undefined;
      return itemOf(last)[0] as Item | undefined;
    },
    async clearSession() {
      await ensure();
      await store.setLeaf(sessionId, null);
      cache = undefined;
    },
  };
  return session;
}
