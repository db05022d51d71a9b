import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildContextFromBranch,
  CompactionError,
  createInMemorySessionStore,
  type Message,
  type SessionEntry,
  SessionError,
  type SessionStore,
  type Summarizer,
  sumMessageTokens,
} from '../../src/index.js';
import { createJsonlStore } from '../../src/node/index.js';
import {
  type CompactionEntry,
  compactSession,
  planSessionCompaction,
  type SessionEntryInput,
} from '../../src/session/index.js';
import { assistant, call, pairingProblems, recordingSummarizer, result, user } from './fixtures.js';

const config = { keepRecentTokens: 60 };
const filler = 'lorem ipsum dolor sit amet '.repeat(4);

async function appendAll(store: SessionStore, sessionId: string, messages: Message[]): Promise<string[]> {
  const ids: string[] = [];
  for (const message of messages) ids.push((await store.appendEntry(sessionId, { type: 'message', message })).id);
  return ids;
}

/** `turns` exchanges of a question, a tool call with its result, and an answer. */
function conversation(turns: number, start = 0): Message[] {
  return Array.from({ length: turns }, (_, index) => {
    const turn = start + index;
    return [
      user(`question ${turn} ${filler}`),
      call([`c${turn}`]),
      result(`c${turn}`, `result ${turn} ${filler}`),
      assistant(`answer ${turn} ${filler}`),
    ];
  }).flat();
}

const contentOf = (message: Message) =>
  typeof message.content === 'string' ? message.content : JSON.stringify(message.content);

describe('compactSession', () => {
  it('appends a compaction entry after the leaf and rebuilds the context from it', async () => {
    const store = createInMemorySessionStore();
    const { id } = await store.createSession();
    const ids = await appendAll(store, id, conversation(6));
    const summarizer = recordingSummarizer();
    const plan = planSessionCompaction(await store.getBranch(id), { config });
    const { entry, result: outcome, context } = await compactSession({ store, sessionId: id, summarizer, config });

    expect(entry).toMatchObject({
      type: 'compaction',
      parentId: ids.at(-1),
      summary: expect.stringMatching(/^summary 1 of \d+ messages(\n\n## Pinned Facts\n|$)/),
    });
    expect(entry.firstKeptEntryId).toBe(plan.firstKeptEntryId);
    expect(entry.tokensBefore).toBe(outcome.tokensBefore);
    expect(await store.getLeaf(id)).toBe(entry.id);
    const firstKept = ids.indexOf(entry.firstKeptEntryId);
    expect(context.entryIds).toEqual([entry.id, ...ids.slice(firstKept)]);
    expect(contentOf(context.messages[0]!)).toBe(`[Previous conversation summary]\n${entry.summary}`);
    expect(summarizer.requests[0]!.messages).toHaveLength(firstKept);
    expect(pairingProblems(context.messages)).toEqual([]);
    // History is untouched: every entry is still there, and the transcript still has every message.
    expect((await store.getEntries(id)).map((stored) => stored.id)).toEqual([...ids, entry.id]);
    const transcript = await store.getMessages(id);
    expect(transcript).toHaveLength(ids.length + 1);
    expect(context.messages.length).toBeLessThan(transcript.length);
  });

  it('compacts again from the previous kept entries, updating the summary and dropping nothing it kept', async () => {
    const store = createInMemorySessionStore();
    const { id } = await store.createSession();
    const ids = await appendAll(store, id, conversation(5));
    const summarizer = recordingSummarizer();
    const first = await compactSession({ store, sessionId: id, summarizer, config });
    const keptByFirst = first.context.messages.slice(1);
    const more = await appendAll(store, id, conversation(5, 5));
    const second = await compactSession({ store, sessionId: id, summarizer, config });

    const [, request] = summarizer.requests;
    expect(request!.previousSummary).toBe(first.entry.summary);
    expect(second.entry.parentId).toBe(more.at(-1));
    const all = [...ids, ...more];
    expect(all.indexOf(second.entry.firstKeptEntryId)).toBeGreaterThan(all.indexOf(first.entry.firstKeptEntryId));
    // Whatever the first compaction kept is either summarized by the second or still kept.
    const seen = new Set<Message>([...request!.messages, ...second.context.messages]);
    const summarizedOrKept = [...request!.messages.map(contentOf), ...second.context.messages.map(contentOf)];
    for (const message of keptByFirst) {
      expect(seen.has(message) || summarizedOrKept.includes(contentOf(message))).toBe(true);
    }
    expect(second.context.entryIds[0]).toBe(second.entry.id);
    expect(second.context.messages.filter((message) => message.meta?.kind === 'compaction_summary')).toHaveLength(1);
    expect(contentOf(second.context.messages[0]!)).toContain('after [summary 1');
    expect(await store.getEntries(id)).toHaveLength(all.length + 2);
    expect(pairingProblems(second.context.messages)).toEqual([]);
  });

  it('keeps compaction and branches apart', async () => {
    const store = createInMemorySessionStore();
    const { id } = await store.createSession();
    const ids = await appendAll(store, id, conversation(6));
    const { entry } = await compactSession({ store, sessionId: id, summarizer: recordingSummarizer(), config });
    const compactedLeaf = await store.getLeaf(id);
    // Branch from before the compaction: the new branch sees the full history, not the summary.
    await store.setLeaf(id, ids[7]!);
    await appendAll(store, id, [user('a different direction')]);
    const side = buildContextFromBranch(await store.getBranch(id));
    expect(side.compaction).toBeUndefined();
    expect(side.entryIds).toEqual([...ids.slice(0, 8), side.leafId]);
    // The compacted branch is unchanged, and continuing it keeps the summary.
    const main = buildContextFromBranch(await store.getEntries(id), { leafId: compactedLeaf });
    expect(main.compaction?.id).toBe(entry.id);
    await store.setLeaf(id, compactedLeaf);
    await appendAll(store, id, [user('carry on')]);
    const continued = buildContextFromBranch(await store.getBranch(id));
    expect(continued.entryIds.slice(0, -1)).toEqual(main.entryIds);
  });

  it('keeps a last message larger than the whole budget', async () => {
    const store = createInMemorySessionStore();
    const { id } = await store.createSession();
    const ids = await appendAll(store, id, [...conversation(3), user(`huge ${'x'.repeat(4_000)}`)]);
    const { entry, context } = await compactSession({
      store,
      sessionId: id,
      summarizer: recordingSummarizer(),
      config,
    });
    expect(entry.firstKeptEntryId).toBe(ids.at(-1));
    expect(context.entryIds).toEqual([entry.id, ids.at(-1)]);
  });

  it('appends nothing when the compaction fails', async () => {
    const store = createInMemorySessionStore();
    const { id } = await store.createSession();
    await appendAll(store, id, conversation(4));
    const before = await store.getEntries(id);
    const leaf = await store.getLeaf(id);
    const failing: Summarizer = {
      async summarize() {
        throw new Error('model down');
      },
    };
    const empty: Summarizer = { summarize: async () => '  ' };
    for (const summarizer of [failing, empty]) {
      const error = await compactSession({ store, sessionId: id, summarizer, config }).catch(
        (caught: unknown) => caught,
      );
      expect(CompactionError.isInstance(error)).toBe(true);
    }
    const tooFew = createInMemorySessionStore();
    const session = await tooFew.createSession();
    await appendAll(tooFew, session.id, [user('only one')]);
    await expect(
      compactSession({ store: tooFew, sessionId: session.id, summarizer: recordingSummarizer(), config }),
    ).rejects.toMatchObject({
      code: 'NOTHING_TO_COMPACT',
    });
    expect(await store.getEntries(id)).toEqual(before);
    expect(await store.getLeaf(id)).toBe(leaf);
  });

  it('keeps entries appended on the branch while the summary was written', async () => {
    const store = createInMemorySessionStore();
    const { id } = await store.createSession();
    await appendAll(store, id, conversation(5));
    let late = '';
    const summarizer: Summarizer = {
      async summarize() {
        late = (await store.appendEntry(id, { type: 'message', message: user('late arrival') })).id;
        return 'the summary';
      },
    };
    const { entry, context } = await compactSession({ store, sessionId: id, summarizer, config });
    expect(entry.parentId).toBe(late);
    expect(context.entryIds.at(-1)).toBe(late);
  });

  it('keeps a message whose append is still in flight when the summary is done (JSONL store)', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'ctxkit-session-'));
    try {
      const store = createJsonlStore({ directory });
      const { id } = await store.createSession();
      await appendAll(store, id, conversation(5));
      let pending: Promise<SessionEntry> | undefined;
      const summarizer: Summarizer = {
        async summarize() {
          pending = store.appendEntry(id, { type: 'message', message: user('typed during the compaction') });
          return 'the summary';
        },
      };
      const { entry } = await compactSession({ store, sessionId: id, summarizer, config });
      const late = await pending!;
      expect(entry.parentId).toBe(late.id);
      const context = buildContextFromBranch(await store.getBranch(id));
      expect(context.entryIds.at(-1)).toBe(late.id);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('appends nothing when the rebuilt context would not be smaller', async () => {
    const store = createInMemorySessionStore();
    const { id } = await store.createSession();
    await appendAll(store, id, [user('hi'), assistant('hello'), user('run the tools')]);
    // Fourteen tool results in the kept tail: compact() archives four of them under a digest, but
    // the tree keeps the tail verbatim, so only the summary would change.
    for (let turn = 0; turn < 14; turn++)
      await appendAll(store, id, [call([`c${turn}`]), result(`c${turn}`, 'x'.repeat(2000))]);
    const summary = 'A summary of the greeting, longer than the greeting itself. '.repeat(3);
    const tail = sumMessageTokens(
      (await store.getBranch(id)).slice(2).flatMap((entry) => (entry.type === 'message' ? [entry.message] : [])),
    );
    const error = await compactSession({
      store,
      sessionId: id,
      summarizer: { summarize: async () => summary },
      config: { contextWindow: 100_000, reserveTokens: 1_000, keepRecentTokens: tail },
    }).catch((caught: unknown) => caught);
    expect(CompactionError.isInstance(error) && error.code).toBe('NOT_SMALLER');
    expect((await store.getEntries(id)).some((entry) => entry.type === 'compaction')).toBe(false);
  });

  it('records the tokens of the context it really gives', async () => {
    const store = createInMemorySessionStore();
    const { id } = await store.createSession();
    await appendAll(store, id, conversation(6));
    const { entry, context, tokensAfter } = await compactSession({
      store,
      sessionId: id,
      summarizer: { summarize: async () => 'the summary' },
      config,
    });
    expect(tokensAfter).toBe(sumMessageTokens(context.messages));
    expect(entry.details).toMatchObject({ tokensAfter });
    expect(tokensAfter).toBeLessThan(entry.tokensBefore);
  });

  it('appends nothing when the leaf moved to another branch meanwhile', async () => {
    const store = createInMemorySessionStore();
    const { id } = await store.createSession();
    const ids = await appendAll(store, id, conversation(5));
    const summarizer: Summarizer = {
      async summarize() {
        await store.setLeaf(id, ids[0]!);
        return 'the summary';
      },
    };
    const error = await compactSession({ store, sessionId: id, summarizer, config }).catch((caught: unknown) => caught);
    expect(SessionError.isInstance(error)).toBe(true);
    expect((await store.getEntries(id)).some((entry) => entry.type === 'compaction')).toBe(false);
  });

  it('rebuilds the same context from a session reopened from disk', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'ctxkit-session-'));
    try {
      const store = createJsonlStore({ directory });
      const { id } = await store.createSession();
      await appendAll(store, id, conversation(5));
      const { context } = await compactSession({ store, sessionId: id, summarizer: recordingSummarizer(), config });
      const input: SessionEntryInput = { type: 'message', message: user('after the compaction') };
      await store.appendEntry(id, input);
      const expected = buildContextFromBranch(await store.getBranch(id));
      const reopened = createJsonlStore({ directory });
      const rebuilt = buildContextFromBranch(await reopened.getBranch(id));
      expect(rebuilt.messages).toEqual(expected.messages);
      expect(rebuilt.entryIds).toEqual([...context.entryIds, rebuilt.leafId]);
      expect((rebuilt.compaction as CompactionEntry).id).toBe(context.entryIds[0]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
