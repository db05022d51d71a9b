import { test } from '@fast-check/vitest';
import { fromAnthropic, toAnthropic } from 'ctxkit/anthropic';
import { messageSchema } from 'ctxkit/schemas';
import { checkNotMutated, deepFreeze } from 'ctxkit/testing';
import { describe, expect } from 'vitest';
import { anthropicMessages, anthropicSystem } from './anthropic-arbitraries.js';
import { findRequestViolation } from './anthropic-request-rules.js';

type Request = Parameters<typeof fromAnthropic>[0];

describe('Anthropic round trip', () => {
  test.prop([anthropicMessages, anthropicSystem], { numRuns: 150 })(
    'toAnthropic(fromAnthropic(x)) deep-equals x, and leaves x untouched',
    (messages, system) => {
      const request = deepFreeze({ ...(system === undefined ? {} : { system }), messages }) as Request;
      const converted = fromAnthropic(request);
      expect(converted.warnings).toEqual([]);
      const back = toAnthropic(converted);
      expect(back.warnings).toEqual([]);
      expect(back.messages).toStrictEqual(messages);
      if (system === undefined) expect(back).not.toHaveProperty('system');
      else expect(back.system).toStrictEqual(system);
    },
  );

  test.prop([anthropicMessages])('the arbitraries are requests the API accepts', (messages) => {
    expect(findRequestViolation(messages)).toBeUndefined();
  });

  test.prop([anthropicMessages])(
    'fromAnthropic writes valid ctxkit messages and leaves its input alone',
    (messages) => {
      const snapshot = structuredClone(messages);
      const { messages: converted } = fromAnthropic({ messages: messages as Request['messages'] });
      expect(checkNotMutated(snapshot, messages)).toEqual([]);
      for (const message of converted) expect(messageSchema.safeParse(message).success).toBe(true);
    },
  );
});
