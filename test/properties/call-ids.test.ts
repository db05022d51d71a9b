import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { CallIds } from '../../src/manager/internal/call-ids.js';

// Ids of a few bases and suffixes, so raw ids equal to renamed ones (`a#2`, `a#2#3`, `a#02`) come up often.
const id = fc
  .tuple(fc.constantFrom('a', 'b', 'a#2'), fc.array(fc.constantFrom('#2', '#3', '#4', '#02', '#1'), { maxLength: 2 }))
  .map(([base, suffixes]) => base + suffixes.join(''));
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
