import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  buildContextFromBranch,
  createInMemorySessionStore,
  type Message,
  type SessionEntry,
  SessionError,
} from '../../src/index.js';
import { entryToMessage, walkBranch } from '../../src/session/index.js';
import {
  assistant,
  call,
  chain,
  messageEntry,
  pairingProblems,
  result,
  sessionTreeArbitrary,
  user,
} from './fixtures.js';

function codeOf(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    return SessionError.isInstance(error) ? error.code : `not a SessionError: ${String(error)}`;
  }
  return undefined;
}

const texts = (messages: readonly Message[]) =>
  messages.map((message) =>
    typeof message.content === 'string'
      ? message.content
      : message.content.map((part) => (part.type === 'text' ? part.text : part.type)).join('+'),
  );

describe('buildContextFromBranch', () => {
  it('applies a plain path in order and returns the entries’ own message objects', () => {
    const entries: SessionEntry[] = [
      messageEntry('a', null, user('hello')),
      { type: 'model_change', id: 'm', parentId: 'a', timestamp: 1, provider: 'anthropic', modelId: 'claude' },
      { type: 'thinking_level_change', id: 't', parentId: 'm', timestamp: 1, thinkingLevel: 'high' },
      messageEntry('b', 't', assistant('hi')),
      { type: 'label', id: 'l', parentId: 'b', timestamp: 1, targetId: 'a', label: 'start' },
      { type: 'session_info', id: 'i', parentId: 'l', timestamp: 1, name: 'demo' },
      { type: 'custom', id: 'c', parentId: 'i', timestamp: 1, customType: 'state', data: 1 },
      {
        type: 'custom_message',
        id: 'cm',
        parentId: 'c',
        timestamp: 1,
        customType: 'note',
        content: 'remember',
        display: false,
      },
      { type: 'branch_summary', id: 'bs', parentId: 'cm', timestamp: 1, fromId: 'x', summary: 'tried X' },
      messageEntry('d', 'bs', user('next')),
    ];
    const context = buildContextFromBranch(entries);
    expect(texts(context.messages)).toEqual(['hello', 'hi', 'remember', expect.stringContaining('tried X'), 'next']);
    expect(context.entryIds).toEqual(['a', 'b', 'cm', 'bs', 'd']);
    expect(context.messages[0]).toBe((entries[0] as { message: Message }).message);
    expect(context.messages[2]!.meta).toEqual({ kind: 'custom', userVisible: false });
    expect(context.messages[3]!.meta).toEqual({ kind: 'branch_summary' });
    expect(context).toMatchObject({ model: 'claude', provider: 'anthropic', thinkingLevel: 'high', leafId: 'd' });
    expect(context.path).toEqual(entries);
    const again = buildContextFromBranch(new Map(entries.map((entry) => [entry.id, entry])));
    again.messages.forEach((message, index) => {
      expect(message).toBe(context.messages[index]);
    });
  });

  it('builds from the given leaf, the newest entry by default, or nothing for null', () => {
    const main = chain([user('a'), assistant('b'), user('c')]);
    const side = messageEntry('side', 'e1', user('other way'));
    const entries = [...main, side];
    expect(texts(buildContextFromBranch(entries).messages)).toEqual(['a', 'b', 'other way']);
    expect(texts(buildContextFromBranch(entries, { leafId: 'e2' }).messages)).toEqual(['a', 'b', 'c']);
    expect(buildContextFromBranch(entries, { leafId: null })).toMatchObject({
      messages: [],
      entryIds: [],
      path: [],
      leafId: null,
    });
    expect(buildContextFromBranch([]).messages).toEqual([]);
  });

  it('starts from the latest compaction: its summary, the kept entries, then what follows', () => {
    const entries = [
      ...chain([user('u0'), assistant('a1'), user('u2'), assistant('a3'), user('u4'), assistant('a5')]),
      {
        type: 'compaction',
        id: 'k1',
        parentId: 'e5',
        timestamp: 1,
        summary: 'first',
        firstKeptEntryId: 'e2',
        tokensBefore: 10,
      } as SessionEntry,
      messageEntry('f0', 'k1', user('u6')),
      messageEntry('f1', 'f0', assistant('a7')),
      {
        type: 'compaction',
        id: 'k2',
        parentId: 'f1',
        timestamp: 1,
        summary: 'second',
        firstKeptEntryId: 'e4',
        tokensBefore: 10,
      } as SessionEntry,
      messageEntry('g0', 'k2', user('u8')),
    ];
    const context = buildContextFromBranch(entries);
    expect(texts(context.messages)).toEqual(['[Previous conversation summary]\nsecond', 'u4', 'a5', 'u6', 'a7', 'u8']);
    expect(context.entryIds).toEqual(['k2', 'e4', 'e5', 'f0', 'f1', 'g0']);
    expect(context.messages[0]!.meta?.kind).toBe('compaction_summary');
    expect(context.compaction?.id).toBe('k2');
    expect(buildContextFromBranch(entries).messages[0]).toBe(context.messages[0]);
    const earlier = buildContextFromBranch(entries, { leafId: 'f1' });
    expect(texts(earlier.messages)).toEqual([
      '[Previous conversation summary]\nfirst',
      'u2',
      'a3',
      'u4',
      'a5',
      'u6',
      'a7',
    ]);
  });

  it('keeps model changes that come before the kept entries', () => {
    const entries: SessionEntry[] = [
      { type: 'model_change', id: 'm', parentId: null, timestamp: 1, provider: 'openai', modelId: 'gpt-4o' },
      ...chain([user('u0'), assistant('a1'), user('u2')], 'e', 'm'),
      {
        type: 'compaction',
        id: 'k',
        parentId: 'e2',
        timestamp: 1,
        summary: 's',
        firstKeptEntryId: 'e2',
        tokensBefore: 1,
      },
    ];
    expect(buildContextFromBranch(entries)).toMatchObject({
      model: 'gpt-4o',
      provider: 'openai',
      entryIds: ['k', 'e2'],
    });
  });

  it('accepts a context branch, and still reports a missing parent in anything else', () => {
    const path = chain([user('a'), user('b'), user('c')]);
    const model: SessionEntry = {
      type: 'model_change',
      id: 'm',
      parentId: null,
      timestamp: 1,
      provider: 'p',
      modelId: 'x',
    };
    const rooted = [model, ...chain([user('a'), user('b'), user('c')], 'e', 'm')];
    const compaction: SessionEntry = {
      type: 'compaction',
      id: 'k',
      parentId: 'e2',
      timestamp: 9,
      summary: 's',
      firstKeptEntryId: 'e1',
      tokensBefore: 10,
    };
    const whole = buildContextFromBranch([...rooted, compaction]);
    const part = buildContextFromBranch([model, ...rooted.slice(2), compaction]);
    expect(part.messages).toEqual(whole.messages);
    expect(part.entryIds).toEqual(whole.entryIds);
    expect(part.model).toBe('x');
    expect(part.path.map((entry) => entry.id)).toEqual(['m', 'e1', 'e2', 'k']);
    // Not a context branch: no compaction, a message ahead of the gap, or a gap inside the kept range.
    expect(codeOf(() => buildContextFromBranch(path.slice(1)))).toBe('PARENT_MISSING');
    expect(codeOf(() => buildContextFromBranch([rooted[1]!, ...rooted.slice(3), compaction]))).toBe('PARENT_MISSING');
    expect(codeOf(() => buildContextFromBranch([model, ...rooted.slice(3), compaction]))).toBe('PARENT_MISSING');
    expect(codeOf(() => walkBranch([model, ...rooted.slice(2), compaction]))).toBe('PARENT_MISSING');
  });

  it('reports broken trees with clear codes instead of walking forever', () => {
    const cycle: SessionEntry[] = [messageEntry('a', 'b', user('a')), messageEntry('b', 'a', user('b'))];
    expect(codeOf(() => buildContextFromBranch(cycle))).toBe('TREE_CYCLE');
    const self: SessionEntry[] = [messageEntry('a', 'a', user('a'))];
    expect(codeOf(() => walkBranch(self))).toBe('TREE_CYCLE');
    const orphan: SessionEntry[] = [messageEntry('a', 'gone', user('a'))];
    expect(codeOf(() => buildContextFromBranch(orphan))).toBe('PARENT_MISSING');
    expect(codeOf(() => buildContextFromBranch(chain([user('a')]), { leafId: 'nope' }))).toBe('ENTRY_NOT_FOUND');
    const badCompaction: SessionEntry[] = [
      ...chain([user('a')]),
      {
        type: 'compaction',
        id: 'k',
        parentId: 'e0',
        timestamp: 1,
        summary: 's',
        firstKeptEntryId: 'elsewhere',
        tokensBefore: 1,
      },
    ];
    expect(codeOf(() => buildContextFromBranch(badCompaction))).toBe('ENTRY_NOT_FOUND');
  });

  it("'user-assistant' drops tool results and the calls they answered, keeping summaries", () => {
    const entries = [
      ...chain([user('run it'), call(['c1']), result('c1'), call(['c2'], 'checking'), result('c2'), assistant('done')]),
      {
        type: 'custom_message',
        id: 'cm',
        parentId: 'e5',
        timestamp: 1,
        customType: 'n',
        content: 'note',
      } as SessionEntry,
      { type: 'branch_summary', id: 'bs', parentId: 'cm', timestamp: 1, fromId: 'x', summary: 'left' } as SessionEntry,
    ];
    const context = buildContextFromBranch(entries, { modelFacing: 'user-assistant' });
    expect(texts(context.messages)).toEqual(['run it', 'checking', 'done', expect.stringContaining('left')]);
    expect(context.entryIds).toEqual(['e0', 'e3', 'e5', 'bs']);
    expect(context.messages[1]).toMatchObject({ role: 'assistant', stopReason: 'stop' });
    expect(pairingProblems(context.messages)).toEqual([]);
    const again = buildContextFromBranch(entries, { modelFacing: 'user-assistant' });
    expect(again.messages[1]).toBe(context.messages[1]);
    expect((entries[3] as { message: Message }).message.content).toHaveLength(2);
  });

  it('a custom filter never parts a call from its results', () => {
    const entries = chain([
      user('go'),
      call(['c1', 'c2'], 'two'),
      result('c1'),
      result('c2'),
      call(['c3']),
      result('c3'),
      assistant('ok'),
    ]);
    const dropFirst = buildContextFromBranch(entries, {
      modelFacing: (message) => !(message.role === 'toolResult' && message.toolCallId === 'c1'),
    });
    expect(dropFirst.messages[1]!.content).toEqual([
      { type: 'text', text: 'two' },
      expect.objectContaining({ id: 'c2' }),
    ]);
    expect(dropFirst.entryIds).toEqual(['e0', 'e1', 'e3', 'e4', 'e5', 'e6']);
    const dropCall = buildContextFromBranch(entries, { modelFacing: (_message, entry) => entry.id !== 'e4' });
    expect(dropCall.entryIds).toEqual(['e0', 'e1', 'e2', 'e3', 'e6']);
    for (const context of [dropFirst, dropCall]) expect(pairingProblems(context.messages)).toEqual([]);
  });

  it('pairs by position when ids are reused, and drops interrupted calls under the filters', () => {
    const entries = chain([
      user('go'),
      call(['x'], 'first'),
      result('x'),
      call(['x'], 'second'),
      result('x'),
      call(['lost'], 'interrupted'),
      user('stop, do something else'),
      call(['pending'], 'pending'),
    ]);
    const dropFirstResult = buildContextFromBranch(entries, { modelFacing: (_message, entry) => entry.id !== 'e2' });
    // The first call loses its result, so it goes; the second keeps its own result.
    expect(dropFirstResult.entryIds).toEqual(['e0', 'e1', 'e3', 'e4', 'e5', 'e6', 'e7']);
    expect(dropFirstResult.messages[1]!.content).toEqual([{ type: 'text', text: 'first' }]);
    expect(dropFirstResult.messages[2]!.content).toContainEqual(expect.objectContaining({ id: 'x' }));
    // The interrupted call is stripped; the pending turn at the end keeps its call.
    expect(dropFirstResult.messages[4]!.content).toEqual([{ type: 'text', text: 'interrupted' }]);
    expect(dropFirstResult.messages[6]!.content).toContainEqual(expect.objectContaining({ id: 'pending' }));
    const strict = buildContextFromBranch(entries, { modelFacing: 'user-assistant' });
    expect(strict.messages.every((message) => message.role !== 'toolResult')).toBe(true);
    const calls = strict.messages.flatMap((message) =>
      message.role === 'assistant' ? message.content.filter((part) => part.type === 'toolCall') : [],
    );
    expect(calls).toEqual([]);
  });

  it('keeps from the call when a compaction keeps from one of its results', () => {
    const entries: SessionEntry[] = [
      ...chain([user('go'), call(['c1']), result('c1'), assistant('done')]),
      {
        type: 'compaction',
        id: 'k',
        parentId: 'e3',
        timestamp: 0,
        summary: 'S',
        firstKeptEntryId: 'e2',
        tokensBefore: 9,
      },
    ];
    const context = buildContextFromBranch(entries);
    expect(context.entryIds).toEqual(['k', 'e1', 'e2', 'e3']);
    expect(pairingProblems(context.messages)).toEqual([]);
  });

  it('gives derived messages once per entry object', () => {
    const entry: SessionEntry = {
      type: 'compaction',
      id: 'k',
      parentId: null,
      timestamp: 1,
      summary: 's',
      firstKeptEntryId: 'k',
      tokensBefore: 1,
    };
    expect(entryToMessage(entry)).toBe(entryToMessage(entry));
    expect(
      entryToMessage({ type: 'label', id: 'l', parentId: null, timestamp: 1, targetId: 'k', label: 'x' }),
    ).toBeUndefined();
  });
});

const treeWithLeaf = sessionTreeArbitrary.chain((entries) =>
  fc.record({ entries: fc.constant(entries), leaf: fc.constantFrom(...entries.map((entry) => entry.id)) }),
);
const filters = ['default', 'user-assistant'] as const;

describe('buildContextFromBranch on an array a store returned', () => {
  async function storedBranch(): Promise<SessionEntry[]> {
    const store = createInMemorySessionStore();
    const { id } = await store.createSession();
    await store.appendEntry(id, { type: 'message', message: { role: 'user', content: 'hi' } });
    await store.appendEntry(id, {
      type: 'message',
      message: { role: 'assistant', content: [{ type: 'text', text: 'yo' }] },
    });
    return store.getBranch(id);
  }
  const refusal = (entries: unknown) => {
    try {
      buildContextFromBranch(entries as SessionEntry[]);
    } catch (error) {
      return error;
    }
    return undefined;
  };

  it('checks the entries a host pushed onto it or put in place of the store’s', async () => {
    const pushed = await storedBranch();
    pushed.push({ id: 'x', parentId: pushed[1]!.id, timestamp: 1, type: 'message', message: null } as never);
    expect(refusal(pushed)).toMatchObject({
      name: 'SessionError',
      code: 'INPUT_INVALID',
      message: expect.stringContaining('entry "x".message'),
    });
    const replaced = await storedBranch();
    replaced[1] = { ...replaced[1]!, message: { role: 'user', content: 42 } } as never;
    expect(refusal(replaced)).toMatchObject({ code: 'INPUT_INVALID', message: expect.stringContaining('.message') });
    const text = await storedBranch();
    text.push('not an entry' as never);
    expect(refusal(text)).toMatchObject({ code: 'INPUT_INVALID' });
  });

  it('still takes the store’s own entries, and a valid entry the host added', async () => {
    const branch = await storedBranch();
    branch.push({
      id: 'x',
      parentId: branch[1]!.id,
      timestamp: 1,
      type: 'message',
      message: { role: 'user', content: 'next' },
    });
    expect(buildContextFromBranch(branch).messages.map((message) => message.content)).toEqual([
      'hi',
      [{ type: 'text', text: 'yo' }],
      'next',
    ]);
  });
});

describe('buildContextFromBranch properties', () => {
  test.prop([treeWithLeaf, fc.constantFrom(...filters)])(
    'is deterministic and returns the same objects',
    ({ entries, leaf }, filter) => {
      const first = buildContextFromBranch(entries, { leafId: leaf, modelFacing: filter });
      const second = buildContextFromBranch([...entries].reverse(), { leafId: leaf, modelFacing: filter });
      expect(second.entryIds).toEqual(first.entryIds);
      second.messages.forEach((message, index) => {
        expect(message).toBe(first.messages[index]);
      });
    },
  );

  test.prop([treeWithLeaf, fc.constantFrom(...filters)])(
    'never includes an entry off the path',
    ({ entries, leaf }, filter) => {
      const context = buildContextFromBranch(entries, { leafId: leaf, modelFacing: filter });
      const onPath = new Set(walkBranch(entries, { leafId: leaf }).map((entry) => entry.id));
      expect(context.path.map((entry) => entry.id)).toEqual([...onPath]);
      for (const id of context.entryIds) expect(onPath.has(id)).toBe(true);
      expect(context.entryIds).toHaveLength(context.messages.length);
    },
  );

  test.prop([treeWithLeaf, fc.constantFrom(...filters)])(
    'keeps tool calls paired with their results',
    ({ entries, leaf }, filter) => {
      const context = buildContextFromBranch(entries, { leafId: leaf, modelFacing: filter });
      expect(pairingProblems(context.messages)).toEqual([]);
      if (filter === 'user-assistant')
        expect(context.messages.some((message) => message.role === 'toolResult')).toBe(false);
    },
  );

  test.prop([treeWithLeaf])('equals the plain path when there is no compaction', ({ entries, leaf }) => {
    const path = walkBranch(entries, { leafId: leaf });
    fc.pre(!path.some((entry) => entry.type === 'compaction'));
    const context = buildContextFromBranch(entries, { leafId: leaf });
    const plain = path.map((entry) => entryToMessage(entry)).filter((message) => message !== undefined);
    expect(context.messages).toEqual(plain);
    context.messages.forEach((message, index) => {
      expect(message).toBe(plain[index]);
    });
  });

  test.prop([treeWithLeaf])(
    'with a compaction, is its summary then the path from its first kept entry',
    ({ entries, leaf }) => {
      const context = buildContextFromBranch(entries, { leafId: leaf });
      fc.pre(context.compaction !== undefined);
      const { compaction, path } = context;
      let first = path.findIndex((entry) => entry.id === compaction!.firstKeptEntryId);
      // A cut on a tool result keeps from the call it answers.
      const cut = path[first]!;
      if (cut.type === 'message' && cut.message.role === 'toolResult') {
        const id = cut.message.toolCallId;
        let call = first - 1;
        while (call >= 0) {
          const entry = path[call]!;
          const calls =
            entry.type === 'message' && entry.message.role === 'assistant'
              ? entry.message.content.some((part) => part.type === 'toolCall' && part.id === id)
              : false;
          if (calls) break;
          call--;
        }
        if (call >= 0) first = call;
      }
      const kept = path.slice(first).filter((entry) => entry.type !== 'compaction');
      const expected = [compaction!, ...kept]
        .map((entry) => entryToMessage(entry))
        .filter((message) => message !== undefined);
      const keptMessages = kept.filter(
        (entry) => path.indexOf(entry) < path.indexOf(compaction!) && entryToMessage(entry) !== undefined,
      ).length;
      const summary = expected[0]!;
      expect(context.messages[0]).toEqual({
        ...summary,
        meta: { ...summary.meta, ...(keptMessages > 0 ? { keptMessages } : {}) },
      });
      expect(context.messages.slice(1)).toEqual(expected.slice(1));
      expect(context.entryIds[0]).toBe(compaction!.id);
      expect(path.slice(path.indexOf(compaction!) + 1).some((entry) => entry.type === 'compaction')).toBe(false);
    },
  );
});
