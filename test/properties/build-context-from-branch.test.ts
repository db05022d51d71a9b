import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { buildContextFromBranch, type Message, prepareModelMessages, type SessionEntry } from '../../src/index.js';
import { entryToMessage, walkBranch } from '../../src/session/index.js';
import { checkToolPairing, deepFreeze } from '../../src/testing/index.js';
import { sessionTreeArbitrary } from '../session/fixtures.js';

/** A random tree and one of its entries as the leaf. */
const treeWithLeaf = fc
  .tuple(sessionTreeArbitrary, fc.nat())
  .map(([entries, pick]) => ({ entries, leafId: entries[pick % entries.length]!.id }));

function messagesOf(entries: readonly SessionEntry[]): Message[] {
  const messages: Message[] = [];
  for (const entry of entries) {
    const message = entryToMessage(entry);
    if (message !== undefined) messages.push(message);
  }
  return messages;
}

test.prop([treeWithLeaf])(
  'buildContextFromBranch: deterministic, and the same objects each time',
  ({ entries, leafId }) => {
    const input = deepFreeze(entries);
    const first = buildContextFromBranch(input, { leafId });
    const second = buildContextFromBranch([...input], { leafId });
    expect(second.messages).toEqual(first.messages);
    for (const [index, message] of second.messages.entries()) expect(message).toBe(first.messages[index]);
    expect(second.entryIds).toEqual(first.entryIds);
  },
);

test.prop([treeWithLeaf])('buildContextFromBranch: never includes an entry off the path', ({ entries, leafId }) => {
  const context = buildContextFromBranch(deepFreeze(entries), { leafId });
  const onPath = new Set(walkBranch(entries, { leafId }).map((entry) => entry.id));
  expect(context.entryIds.length).toBe(context.messages.length);
  for (const id of context.entryIds) expect(onPath.has(id)).toBe(true);
  expect(context.leafId).toBe(leafId);
});

test.prop([treeWithLeaf])(
  "buildContextFromBranch: without a compaction, it is the path's messages; with one, it starts with the summary and keeps all after it",
  ({ entries, leafId }) => {
    const context = buildContextFromBranch(entries, { leafId });
    const path = walkBranch(entries, { leafId });
    let latest = -1;
    path.forEach((entry, index) => {
      if (entry.type === 'compaction') latest = index;
    });
    if (latest < 0) {
      expect(context.compaction).toBeUndefined();
      expect(context.messages).toEqual(messagesOf(path));
      return;
    }
    const compaction = path[latest]!;
    expect(context.compaction).toBe(compaction);
    expect(context.entryIds[0]).toBe(compaction.id);
    expect(context.messages[0]?.meta?.kind).toBe('compaction_summary');
    const after = messagesOf(path.slice(latest + 1));
    expect(context.messages.slice(context.messages.length - after.length)).toEqual(after);
  },
);

test.prop([treeWithLeaf])(
  'buildContextFromBranch: the projection of any branch keeps tool pairing',
  ({ entries, leafId }) => {
    const context = buildContextFromBranch(entries, { leafId });
    expect(checkToolPairing(prepareModelMessages(context.messages))).toEqual([]);
  },
);
