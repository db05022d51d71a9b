import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { CallIds } from '../../src/manager/internal/call-ids.js';
import type { Message } from '../../src/types.js';

test.prop(
  [fc.array(fc.array(fc.nat({ max: 3_000 }), { minLength: 1, maxLength: 3 }), { minLength: 50, maxLength: 1_500 })],
  {
    numRuns: 25,
  },
)('the sent-id table answers as a set of every id it was given, through its growth', (messages) => {
  const sent: Message[] = [];
  const ids = new CallIds(sent);
  const model = new Set<string>();
  for (const numbers of messages) {
    const fresh = [...new Set(numbers.map((number) => `call_${number}`))].filter((id) => !model.has(id));
    for (const number of numbers) expect(ids.wasSent(`call_${number}`)).toBe(model.has(`call_${number}`));
    const position = sent.push({
      role: 'assistant',
      content: numbers.map((number) => ({
        type: 'toolCall' as const,
        id: `call_${number}`,
        name: 'ls',
        arguments: {},
      })),
    });
    for (const id of fresh) {
      ids.addSent(id, position - 1);
      model.add(id);
    }
  }
  for (let number = 0; number <= 3_000; number++)
    expect(ids.wasSent(`call_${number}`)).toBe(model.has(`call_${number}`));
});
