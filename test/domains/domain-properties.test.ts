/**
 * The domain sessions' invariants over random conversations: turns in any of several scripts, of
 * random length, with or without tool calls, through the manager, the heuristic summarizer and a
 * session store, against a provider counting exactly with o200k.
 */
import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { type DomainTurn, requestTokens, runDomainSession } from './domain-session.js';

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
  .tuple(fc.array(fc.constantFrom(...sentences), { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 40 }))
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
  'every request fits the window with its tool calls paired, the store keeps every message, and the newest request goes out verbatim',
  async (turns) => {
    const result = await runDomainSession(turns);
    expect(result.problems).toEqual([]);
    expect(result.stored).toEqual(result.appended);
    for (const request of result.requests) expect(requestTokens(request)).toBeLessThanOrEqual(3_000);
    const last = result.requests.at(-1)!;
    const lastUser = [...last].reverse().find((message) => message.role === 'user' && message.meta?.kind === undefined);
    expect(lastUser?.content).toEqual(turns.at(-1)!.user);
    const compactions = result.events.filter((event) => event.type === 'compaction-end' && event.error === undefined);
    for (const compaction of compactions) expect(compaction.tokensAfter).toBeLessThan(compaction.tokensBefore);
  },
);
