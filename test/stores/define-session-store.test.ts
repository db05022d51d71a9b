import { ConfigError, LeafConflictError, StoreError } from 'ctxkit';
import { defineSessionStore, type SessionEntry, type SessionInfo, type SessionStoreCore } from 'ctxkit/session';
import { describeSessionStoreConformance, userMessage } from 'ctxkit/testing';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The smallest store a host writes for a key-value database: seven methods over Maps of JSON
 * text, as a Redis store keeps strings. Nothing else: validation, ids, branches, the context
 * branch and the transcript come from `defineSessionStore`.
 */
function createMapCore() {
  const infos = new Map<string, string>();
  const entries = new Map<string, string[]>();
  const leaves = new Map<string, string | null>();
  const core: SessionStoreCore = {
    createSession(info) {
      if (infos.has(info.id)) return false;
      infos.set(info.id, JSON.stringify(info));
      entries.set(info.id, []);
      leaves.set(info.id, null);
      return true;
    },
    getSession: (sessionId) => {
      const info = infos.get(sessionId);
      return info === undefined ? undefined : (JSON.parse(info) as SessionInfo);
    },
    listSessions: () => [...infos.values()].map((info) => JSON.parse(info) as SessionInfo),
    getEntries: (sessionId) => (entries.get(sessionId) ?? []).map((line) => JSON.parse(line) as SessionEntry),
    getLeaf: (sessionId) => leaves.get(sessionId) ?? null,
    async appendEntry(sessionId, entry, { expectedLeafId }) {
      await Promise.resolve();
      if (leaves.get(sessionId) !== expectedLeafId) return false;
      entries.get(sessionId)!.push(JSON.stringify(entry));
      leaves.set(sessionId, entry.id);
      return true;
    },
    setLeaf(sessionId, leafId, { expectedLeafId }) {
      if (leaves.get(sessionId) !== expectedLeafId) return false;
      leaves.set(sessionId, leafId);
      return true;
    },
  };
  return { core, infos, entries, leaves };
}

describeSessionStoreConformance({
  name: 'defineSessionStore over a Map-backed core',
  create: () => defineSessionStore(createMapCore().core),
  runner: { afterEach, describe, expect, it },
});

describeSessionStoreConformance({
  name: 'defineSessionStore over a core that keeps its data between stores',
  create: () => {
    const { core } = createMapCore();
    return { store: defineSessionStore(core), reopen: () => defineSessionStore(core) };
  },
  runner: { afterEach, describe, expect, it },
});

const say = (text: string) => ({ type: 'message' as const, message: userMessage(text) });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('defineSessionStore', () => {
  it('retries a write another process raced, and refuses it when the caller stated the leaf', async () => {
    const { core, entries, leaves } = createMapCore();
    // Another process appends once between this store's read and its write.
    let races = 1;
    const racing: SessionStoreCore = {
      ...core,
      async appendEntry(sessionId, entry, options) {
        if (races-- > 0) {
          const other = { ...entry, id: `other-${entry.id}`, parentId: leaves.get(sessionId) ?? null };
          entries.get(sessionId)!.push(JSON.stringify(other));
          leaves.set(sessionId, other.id);
        }
        return core.appendEntry(sessionId, entry, options);
      },
    };
    const store = defineSessionStore(racing);
    const { id } = await store.createSession();
    const first = await store.appendEntry(id, say('first'));
    const [other] = await store.getEntries(id);
    // The first attempt lost to the other writer; the second one attached after its entry.
    expect(other!.id).toMatch(/^other-/);
    expect(first.parentId).toBe(other!.id);
    races = 1;
    const stale = await rejection(store.appendEntry(id, say('stated'), { expectedLeafId: first.id }));
    expect(LeafConflictError.isInstance(stale) && stale.currentLeafId).toMatch(/^other-/);
    expect(await store.getEntries(id)).toHaveLength(3);
    expect(await store.getLeaf(id)).toBe((stale as LeafConflictError).currentLeafId);
  });

  it('reads the entries once, then only the leaf per write; sees entries another writer added', async () => {
    const { core, entries, leaves } = createMapCore();
    let reads = 0;
    const store = defineSessionStore({
      ...core,
      getEntries: (sessionId) => {
        reads++;
        return core.getEntries(sessionId);
      },
    });
    const { id } = await store.createSession();
    const first = await store.appendEntry(id, say('first'));
    for (let index = 0; index < 20; index++) await store.appendEntry(id, say(`m${index}`));
    expect(reads).toBe(1);
    // Another writer appends an entry, then moves the leaf back to where this store left it.
    const ours = leaves.get(id)!;
    const other = { id: 'other', parentId: first.id, timestamp: 1, type: 'message', message: userMessage('x') };
    entries.get(id)!.push(JSON.stringify(other));
    leaves.set(id, ours);
    const label = await store.appendEntry(id, { type: 'label', targetId: 'other', label: 'seen' });
    expect(label.parentId).toBe(ours);
    expect(reads).toBe(2);
    const taken = await rejection(store.appendEntry(id, { ...say('again'), id: 'other' }));
    expect(taken).toMatchObject({ code: 'INPUT_INVALID' });
    // Another writer moves the leaf: the next append follows it.
    leaves.set(id, 'other');
    expect((await store.appendEntry(id, say('after other'))).parentId).toBe('other');
  });

  it('gives up with a LeafConflictError after the configured attempts', async () => {
    const { core } = createMapCore();
    const store = defineSessionStore({ ...core, appendEntry: () => false }, { attempts: 2 });
    const { id } = await store.createSession();
    const error = await rejection(store.appendEntry(id, say('never')));
    expect(LeafConflictError.isInstance(error) && error.message).toContain('after 2 attempts');
  });

  it('turns a failing core into STORE_FAILED and a damaged one into STORE_CORRUPT', async () => {
    const { core, entries, leaves } = createMapCore();
    const failing = defineSessionStore({
      ...core,
      getEntries: () => {
        throw new Error('connection reset');
      },
    });
    const { id } = await failing.createSession({ id: 's' });
    const failed = await rejection(failing.getEntries(id));
    expect(StoreError.isInstance(failed) && failed.code).toBe('STORE_FAILED');
    expect((failed as Error).message).toContain('connection reset');
    const store = defineSessionStore(core);
    await store.appendEntry(id, say('fine'));
    entries.get(id)!.push(JSON.stringify({ type: 'message', id: 'torn' }));
    const corrupt = await rejection(store.getBranch(id));
    expect(StoreError.isInstance(corrupt) && corrupt.code).toBe('STORE_CORRUPT');
    expect((corrupt as Error).message).toContain('Entry 1 of session "s"');
    entries.get(id)!.pop();
    leaves.set(id, 'ghost');
    const lost = await rejection(store.appendEntry(id, say('after')));
    expect(StoreError.isInstance(lost) && lost.code).toBe('STORE_CORRUPT');
  });

  it('uses the core’s own getBranch and getMessages when it has them', async () => {
    const { core } = createMapCore();
    const calls: string[] = [];
    const store = defineSessionStore({
      ...core,
      getBranch: (sessionId, _leafId, { from }) => {
        calls.push(`branch ${from}`);
        return core.getEntries(sessionId);
      },
      getMessages: () => {
        calls.push('messages');
        return [];
      },
    });
    const { id } = await store.createSession();
    const entry = await store.appendEntry(id, say('one'));
    expect(await store.getBranch(id, undefined, { from: 'context' })).toEqual([entry]);
    expect(await store.getMessages(id)).toEqual([]);
    expect(calls).toEqual(['branch context', 'messages']);
  });

  it('checks its options', () => {
    const { core } = createMapCore();
    expect(() => defineSessionStore(core, { attempts: 0 })).toThrow(ConfigError);
    expect(() => defineSessionStore(core, { attempts: 0 })).toThrow(/attempts/);
  });
});
