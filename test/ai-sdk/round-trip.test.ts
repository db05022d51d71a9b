import { test } from '@fast-check/vitest';
import { fromModelMessages, toModelMessages } from 'ctxkit/ai-sdk';
import { messageSchema } from 'ctxkit/schemas';
import { describe, expect } from 'vitest';
import { modelMessages } from './ai-sdk-arbitraries.js';

describe('AI SDK ModelMessage round trip', () => {
  test.prop([modelMessages], { numRuns: 150 })('toModelMessages(fromModelMessages(x)) deep-equals x', (messages) => {
    const converted = fromModelMessages(messages as never);
    expect(converted.warnings).toEqual([]);
    for (const message of converted.messages) expect(messageSchema.safeParse(message).success).toBe(true);
    const back = toModelMessages(converted);
    expect(back.warnings).toEqual([]);
    expect(back.messages).toStrictEqual(messages);
  });
});
