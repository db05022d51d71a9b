// Every archived result a checkpoint replaces leaves its recall id among the anchors, and nothing else
// does; with room, the pinned section names each of them.
import { test } from '@fast-check/vitest';
import type { Message } from 'ctxkit';
import { recallIdOf } from 'ctxkit/agent-tools';
import { extractAnchors, pinAnchors } from 'ctxkit/summarizing';
import { arbitraryConversation } from 'ctxkit/testing';
import { describe, expect } from 'vitest';

function archivedIds(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages)
    if (message.role === 'toolResult' && message.meta?.kind === 'tool_result_archived')
      ids.add(recallIdOf(message.toolCallId));
  return ids;
}

describe('recall anchors', () => {
  test.prop([arbitraryConversation({ minLength: 1, maxLength: 60 })])(
    'name the recall id of each archived result, and pinned with room, each appears in the checkpoint',
    (messages) => {
      const anchors = extractAnchors(messages).filter((anchor) => anchor.category === 'recall');
      const ids = new Set(anchors.map((anchor) => anchor.keys[0]!));
      expect(ids).toEqual(archivedIds(messages));
      expect(anchors.length).toBeLessThanOrEqual(64);
      const { text } = pinAnchors('', anchors, { maxChars: 100_000 });
      for (const id of ids) expect(text).toContain(id);
    },
  );
});
