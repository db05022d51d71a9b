import { test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { messageSchema, sessionEntryInputSchema, sessionEntrySchema } from '../../src/schemas/index.js';
import { sessionTreeArbitrary } from '../session/fixtures.js';

describe('entry schemas', () => {
  test.prop([sessionTreeArbitrary])('accept every entry a tree can hold, unchanged', (entries) => {
    for (const entry of entries) expect(sessionEntrySchema.parse(entry)).toEqual(entry);
  });

  it('accept a label whose label was removed (no key after JSON)', () => {
    const entry = { type: 'label', id: 'l', parentId: null, timestamp: 1, targetId: 'x' };
    expect(sessionEntrySchema.parse(entry)).toMatchObject({ type: 'label', targetId: 'x' });
  });

  it('reject entries with a missing or wrong field, naming it', () => {
    const missingParent = sessionEntrySchema.safeParse({
      type: 'message',
      id: 'a',
      timestamp: 1,
      message: { role: 'user', content: 'x' },
    });
    expect(missingParent.error?.issues[0]?.path).toEqual(['parentId']);
    const badRole = sessionEntrySchema.safeParse({
      type: 'message',
      id: 'a',
      parentId: null,
      timestamp: 1,
      message: { role: 'system', content: 'x' },
    });
    expect(badRole.error?.issues[0]?.path).toEqual(['message', 'role']);
    const badCompaction = sessionEntrySchema.safeParse({
      type: 'compaction',
      id: 'k',
      parentId: null,
      timestamp: 1,
      summary: 's',
      tokensBefore: -1,
      firstKeptEntryId: 'a',
    });
    expect(badCompaction.error?.issues[0]?.path).toEqual(['tokensBefore']);
  });

  it('make id, parentId and timestamp optional on input only', () => {
    const input = { type: 'custom', customType: 'state', data: { a: 1 } };
    expect(sessionEntryInputSchema.safeParse(input).success).toBe(true);
    expect(sessionEntrySchema.safeParse(input).success).toBe(false);
  });

  it('validate every content part of a message', () => {
    expect(
      messageSchema.safeParse({
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hm', redacted: true },
          { type: 'toolCall', id: 'c', name: 'ls', arguments: { path: '.' } },
        ],
        usage: { input: 1, output: 2 },
        stopReason: 'toolUse',
      }).success,
    ).toBe(true);
    expect(
      messageSchema.safeParse({ role: 'toolResult', toolCallId: 'c', toolName: 'ls', content: [{ type: 'toolCall' }] })
        .success,
    ).toBe(false);
    expect(messageSchema.safeParse({ role: 'user', content: [{ type: 'image', data: 'x' }] }).success).toBe(false);
  });
});
