// Runs twice: in the shared project on zod 4, and in the `zod3` project with `zod/v4` resolved to zod
// 3.25's copy (what a host on zod 3.25 gets). The words and JSON Schema must not depend on which.
import { memoryCommandSchema } from 'ctxkit/memory';
import { contextConfigSchema, messageSchema, sessionEntryInputSchema, sessionEntrySchema } from 'ctxkit/schemas';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';

const entry = { type: 'message', id: 'a', parentId: null, timestamp: 1 };

describe('ctxkit schemas on the zod/v4 a host brings', () => {
  it('name the allowed values of a discriminator that matches no option', () => {
    expect(messageSchema.safeParse({ role: 'system', content: 'x' }).error?.issues).toMatchObject([
      { path: ['role'], message: "Invalid discriminator value. Expected 'user' | 'assistant' | 'toolResult'" },
    ]);
    const part = sessionEntrySchema.safeParse({
      ...entry,
      message: { role: 'assistant', content: [{ type: 'audio', data: '' }] },
    });
    expect(part.error?.issues).toMatchObject([
      {
        path: ['message', 'content', 0, 'type'],
        message: "Invalid discriminator value. Expected 'text' | 'thinking' | 'toolCall'",
      },
    ]);
    const input = sessionEntryInputSchema.safeParse({ type: 'note' });
    expect(input.error?.issues[0]?.message).toMatch(/^Invalid discriminator value\. Expected 'message' \| /);
    expect(memoryCommandSchema.safeParse({ command: 'copy', path: '/memories/a' }).error?.issues).toMatchObject([
      {
        path: ['command'],
        message:
          "Invalid discriminator value. Expected 'view' | 'create' | 'str_replace' | 'insert' | 'delete' | 'rename'",
      },
    ]);
  });

  it("keep zod's words for a matched option's own problems", () => {
    const wrong = messageSchema.safeParse({ role: 'user', content: 5 });
    expect(wrong.error?.issues[0]?.path).toEqual(['content']);
    expect(messageSchema.safeParse(5).error?.issues[0]?.message).toBe(
      'Invalid input: expected object, received number',
    );
  });

  it('prettify an error with the field it concerns', () => {
    const result = contextConfigSchema.safeParse({ contextWindow: -1, reserveTokens: 1.5, typo: true });
    expect(result.success).toBe(false);
    const text = z.prettifyError(result.error as z.ZodError);
    expect(text).toContain('→ at contextWindow');
    expect(text).toContain('→ at reserveTokens');
    expect(text).toMatch(/Unrecognized key: "typo"/);
  });

  it('convert to JSON Schema with the discriminator values listed', () => {
    // zod 4.1+ writes a discriminated union as `oneOf`, zod 3.25's zod/v4 as `anyOf`: the options are
    // disjoint (each has its own `role`), so both accept the same messages.
    type Options = { properties: { role: unknown } }[];
    const schema = z.toJSONSchema(messageSchema, { io: 'input' }) as { oneOf?: Options; anyOf?: Options };
    expect((schema.oneOf ?? schema.anyOf)?.map((option) => option.properties.role)).toEqual([
      { type: 'string', const: 'user' },
      { type: 'string', const: 'assistant' },
      { type: 'string', const: 'toolResult' },
    ]);
    expect(() => z.toJSONSchema(contextConfigSchema, { io: 'input' })).not.toThrow();
  });
});
