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

// Ids of a few bases and suffixes, so raw ids equal to renamed ones (`a#2`, `a#2#3`, `a#02`) come up often.
const id = fc
  .tuple(fc.constantFrom('a', 'b', 'a#2'), fc.array(fc.constantFrom('#2', '#3', '#4', '#02', '#1'), { maxLength: 2 }))
  .map(([base, suffixes]) => base + suffixes.join(''));
const step = fc.oneof(
  fc.record({ kind: fc.constant('raw' as const), id }),
  fc.record({ kind: fc.constant('rename' as const), id }),
);

test.prop([fc.array(step, { maxLength: 60 })], { numRuns: 400 })(
  'CallIds knows its renamed ids without keeping them: isFresh agrees with a set of every id it made',
  (steps) => {
    const ids = new CallIds([]);
    const made = new Set<string>();
    const raw = new Set<string>();
    for (const next of steps) {
      if (next.kind === 'rename') {
        const fresh = ids.freshId(next.id);
        expect(made.has(fresh) || raw.has(fresh)).toBe(false);
        made.add(fresh);
        continue;
      }
      // A raw id is asked about before it is noted, as the projection does (and rebuilds when it is fresh).
      expect(ids.isFresh(next.id)).toBe(made.has(next.id));
      if (made.has(next.id)) return;
      ids.note(next.id);
      raw.add(next.id);
    }
  },
);
