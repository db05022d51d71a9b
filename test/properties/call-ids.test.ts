import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { CallIds } from '../../src/manager/internal/call-ids.js';

// Ids of a few bases and suffixes, so raw ids equal to renamed ones (`a_2`, `a_2_3`, `a_02`, a Mistral-like
// nine-character id and its renames) come up often.
const id = fc.oneof(
  fc
    .tuple(fc.constantFrom('a', 'b', 'a_2'), fc.array(fc.constantFrom('_2', '_3', '_4', '_02', '_1'), { maxLength: 2 }))
    .map(([base, suffixes]) => base + suffixes.join('')),
  fc.constantFrom('abcdefgh1', 'abcdefgh2', 'abcdefgh3', 'abcdefg12'),
);
const step = fc.oneof(
  fc.record({ kind: fc.constant('raw' as const), id }),
  fc.record({ kind: fc.constant('rename' as const), id }),
);

test.prop([fc.array(step, { maxLength: 60 })], { numRuns: 400 })(
  'CallIds never makes an id it met or made before, and knows which ids it made',
  (steps) => {
    const ids = new CallIds();
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
