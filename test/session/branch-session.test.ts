import { describe, expect, it } from 'vitest';
import {
  buildContextFromBranch,
  CompactionError,
  createInMemorySessionStore,
  heuristicSummarizer,
  type Message,
  SessionError,
  type SessionStore,
  type Summarizer,
} from '../../src/index.js';
import { branchSession } from '../../src/session/index.js';
import { assistant, call, recordingSummarizer, result, user } from './fixtures.js';

async function setup(): Promise<{ store: SessionStore; id: string; ids: string[] }> {
  const store = createInMemorySessionStore();
  const { id } = await store.createSession();
  const ids: string[] = [];
  const messages: Message[] = [
    user('fix the parser'),
    assistant('I will try a regex'),
    user('ok'),
    call(['c1']),
    result('c1', 'regex failed on nested input'),
    assistant('the regex approach does not work'),
  ];
  for (const message of messages) ids.push((await store.appendEntry(id, { type: 'message', message })).id);
  return { store, id, ids };
}

describe('branchSession', () => {
  it('moves the leaf back without a summarizer, appending nothing', async () => {
    const { store, id, ids } = await setup();
    const outcome = await branchSession({ store, sessionId: id, toEntryId: ids[1]! });
    expect(outcome).toMatchObject({ leafId: ids[1], summary: undefined });
    expect(outcome.abandoned.map((entry) => entry.id)).toEqual(ids.slice(2));
    expect(await store.getLeaf(id)).toBe(ids[1]);
    expect(await store.getEntries(id)).toHaveLength(ids.length);
  });

  it('summarizes the abandoned branch and continues after the summary', async () => {
    const { store, id, ids } = await setup();
    const summarizer = recordingSummarizer();
    const outcome = await branchSession({
      store,
      sessionId: id,
      toEntryId: ids[1]!,
      summarizer,
      instructions: 'why it failed',
    });
    const [request] = summarizer.requests;
    expect(request).toMatchObject({ kind: 'branch', instructions: 'why it failed' });
    expect(request!.messages).toHaveLength(4);
    expect(request!.text).toContain('regex failed on nested input');
    expect(outcome.summary).toMatchObject({
      type: 'branch_summary',
      parentId: ids[1],
      fromId: ids[5],
      summary: 'summary 1 of 4 messages',
    });
    expect(await store.getLeaf(id)).toBe(outcome.summary!.id);

    await store.appendEntry(id, { type: 'message', message: user('try a real parser') });
    const context = buildContextFromBranch(await store.getBranch(id));
    expect(context.entryIds).toEqual([ids[0], ids[1], outcome.summary!.id, context.leafId]);
    expect(context.messages[2]).toMatchObject({ role: 'user', meta: { kind: 'branch_summary' } });
    expect(context.messages[2]!.content).toContain('summary 1 of 4 messages');
    // The old branch is still there.
    expect(buildContextFromBranch(await store.getEntries(id), { leafId: ids[5]! }).messages).toHaveLength(6);
  });

  it('works with the heuristic summarizer and with a new root', async () => {
    const { store, id } = await setup();
    const outcome = await branchSession({ store, sessionId: id, toEntryId: null, summarizer: heuristicSummarizer });
    expect(outcome.summary?.parentId).toBeNull();
    expect(outcome.summary!.summary.length).toBeGreaterThan(0);
    expect(outcome.abandoned).toHaveLength(6);
  });

  it('leaves the leaf where it was when the summary fails', async () => {
    const { store, id, ids } = await setup();
    const failing: Summarizer = {
      async summarize() {
        throw new Error('model down');
      },
    };
    const cutOff: Summarizer = { summarize: async () => ({ text: 'partial', stopReason: 'length' }) };
    for (const summarizer of [failing, cutOff]) {
      const error = await branchSession({ store, sessionId: id, toEntryId: ids[1]!, summarizer }).catch(
        (caught: unknown) => caught,
      );
      expect(CompactionError.isInstance(error)).toBe(true);
    }
    expect(await store.getLeaf(id)).toBe(ids[5]);
    expect(await store.getEntries(id)).toHaveLength(ids.length);
  });

  it('rejects an unknown target entry', async () => {
    const { store, id } = await setup();
    const error = await branchSession({ store, sessionId: id, toEntryId: 'ghost' }).catch((caught: unknown) => caught);
    expect(SessionError.isInstance(error) && error.code).toBe('ENTRY_NOT_FOUND');
  });
});
