/**
 * The domain sessions' invariants over random conversations: turns in any of several scripts, of
 * random length, with or without tool calls, through the manager, the heuristic summarizer and a
 * session store, against a provider counting exactly with o200k.
 */
import { fc, test } from '@fast-check/vitest';
import type { Message } from 'ctxkit';
import { summaryText } from 'ctxkit/summarizing';
import { expect } from 'vitest';
import { type DomainTurn, requestTokens, runDomainSession } from './domain-session.js';

/**
 * The user's newest request goes out verbatim; or, when it and the tool step that answers it do not
 * both fit the kept tail (a long request, long tool output, a small window), the kept tail starts
 * at the tool step and the checkpoint carries the request's start (as the request to continue, or
 * pinned as a goal when the checkpoint was cut to make room for the pinned facts).
 */
function expectNewestRequestKept(request: readonly Message[], newest: string) {
  const kept = [...request].reverse().find((message) => message.role === 'user' && message.meta?.kind === undefined);
  if (kept !== undefined) {
    expect(kept.content).toEqual(newest);
    return;
  }
  const checkpoint = request[0]?.role === 'user' ? summaryText(request[0]) : undefined;
  expect(checkpoint?.replace(/\s+/g, ' ')).toContain(newest.replace(/\s+/g, ' ').slice(0, 40));
}

const sentences = [
  'Order #A-10293 has not arrived; email jane.doe@example.com.',
  'Clause 4.2(b) caps the indemnity at $2,000,000.',
  'HbA1c 8.1% on 2024-02-01; do not prescribe NSAIDs.',
  '| EMEA | 1,204,330 | 1,398,112 |',
  '请帮我把订单号 CN-88231 的地址改成上海市。',
  'مرحبا، رقم الطلب AR-4410 لم يصل بعد.',
  'कृपया मेरी बुकिंग HI-7781 बदल दें। 🙏',
  '注文番号 JP-1209 をキャンセルしてください 🚫',
  'Family 👨‍👩‍👧 and flags 🇯🇵🇸🇦 in one line.',
  'src/parser.ts:42 throws TypeError: cannot read properties of undefined.',
];

const text = fc
  .tuple(fc.array(fc.constantFrom(...sentences), { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 150 }))
  .map(([picked, repeat]) => `${picked.join(' ')}${' Más detalles, more details.'.repeat(repeat)}`);

const turn: fc.Arbitrary<DomainTurn> = fc.record(
  {
    user: text,
    answer: text,
    tools: fc.array(
      fc.record({
        name: fc.constantFrom('lookup_order', 'read_file', 'python'),
        arguments: fc.record({ query: fc.constantFrom(...sentences) }),
        output: text,
      }),
      { maxLength: 2 },
    ),
  },
  { requiredKeys: ['user', 'answer'] },
);

test.prop([fc.array(turn, { minLength: 2, maxLength: 12 })], { numRuns: 12 })(
  'every request fits the window with its tool calls paired, the store keeps every message, and the newest request goes out verbatim or its start is in the checkpoint',
  async (turns) => {
    const result = await runDomainSession(turns);
    expect(result.problems).toEqual([]);
    expect(result.stored).toEqual(result.appended);
    for (const request of result.requests) expect(requestTokens(request)).toBeLessThanOrEqual(3_000);
    expectNewestRequestKept(result.requests.at(-1)!, turns.at(-1)!.user as string);
    for (const event of result.events)
      if (event.type === 'compaction-end' && event.error === undefined)
        expect(event.tokensAfter).toBeLessThan(event.tokensBefore);
  },
);
