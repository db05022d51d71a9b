// Runs only in the `zod3` vitest project, where `zod/v4` resolves to zod 3.25's copy, and is
// type-checked against that copy by tsconfig.zod3.json: what a host on zod 3.25 writes.

import type { Message } from 'ctxkit';
import { contextConfigSchema, messageSchema, sessionEntrySchema } from 'ctxkit/schemas';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod/v4';

describe('ctxkit on zod 3.25', () => {
  it("builds its schemas with zod 3.25's zod/v4", () => {
    expect(z.core.version).toEqual({ major: 4, minor: 0, patch: 0 });
    expect(messageSchema._zod.version).toEqual(z.core.version);
    expect(contextConfigSchema._zod.version).toEqual(z.core.version);
  });

  it("composes ctxkit's schemas into a host's own", () => {
    const request = z.object({
      session: z.string(),
      messages: z.array(messageSchema),
      entry: sessionEntrySchema.optional(),
    });
    expectTypeOf<z.infer<typeof request>['messages']>().toEqualTypeOf<Message[]>();
    const parsed = request.safeParse({ session: 's', messages: [{ role: 'user', content: 'hi' }, { role: 'bot' }] });
    expect(parsed.error?.issues).toMatchObject([
      {
        path: ['messages', 1, 'role'],
        message: "Invalid discriminator value. Expected 'user' | 'assistant' | 'toolResult'",
      },
    ]);
  });
});
