/**
 * The stores' fast entry check must decide exactly as `sessionEntrySchema`: on valid entries of
 * every type, and on the same entries with one field deleted or replaced by anything. So must the
 * hand-written problem finder that words a refusal without zod (`entryProblem`).
 */
import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { sessionEntrySchema } from '../../src/schemas/index.js';
import { entryProblem } from '../../src/session/entry-problem.js';
import { isStoredEntry } from '../../src/session/is-stored-entry.js';
import { arbitraryMessage } from '../../src/testing/index.js';

const id = fc.string({ minLength: 1, maxLength: 6 });
const base = { id, parentId: fc.option(id, { nil: null }), timestamp: fc.nat() };
const content = fc.oneof(
  fc.string(),
  fc.array(
    fc.oneof(
      fc.record({ type: fc.constant('text'), text: fc.string() }),
      fc.record({ type: fc.constant('image'), data: fc.string(), mimeType: fc.constant('image/png') }),
    ),
  ),
);
const entry = fc.oneof(
  fc.record({ ...base, type: fc.constant('message'), message: arbitraryMessage() }),
  fc.record({ ...base, type: fc.constant('custom_message'), customType: fc.string(), content, display: fc.boolean() }),
  fc.record({
    ...base,
    type: fc.constant('compaction'),
    summary: fc.string(),
    firstKeptEntryId: id,
    tokensBefore: fc.nat(),
  }),
  fc.record({ ...base, type: fc.constant('branch_summary'), fromId: id, summary: fc.string() }),
  fc.record({ ...base, type: fc.constant('model_change'), provider: fc.string(), modelId: fc.string() }),
  fc.record({ ...base, type: fc.constant('thinking_level_change'), thinkingLevel: fc.string() }),
  fc.record(
    { ...base, type: fc.constant('label'), targetId: id, label: fc.string() },
    { requiredKeys: ['id', 'parentId', 'timestamp', 'type', 'targetId'] },
  ),
  fc.record({
    ...base,
    type: fc.constant('session_info'),
    name: fc.string(),
    data: fc.dictionary(fc.string(), fc.jsonValue()),
  }),
  fc.record({ ...base, type: fc.constant('custom'), customType: fc.string(), data: fc.jsonValue() }),
);

/** Every path to an object property inside `value`. */
function paths(value: unknown, prefix: PropertyKey[] = []): PropertyKey[][] {
  if (typeof value !== 'object' || value === null) return [];
  const found: PropertyKey[][] = [];
  for (const [key, child] of Object.entries(value)) {
    const path = [...prefix, Array.isArray(value) ? Number(key) : key];
    found.push(path, ...paths(child, path));
  }
  return found;
}

/** A deep copy of `value` with the property at `path` deleted, or set to `replacement`. */
function mutate(value: unknown, path: PropertyKey[], replacement: { value: unknown } | undefined): unknown {
  const copy = structuredClone(value) as Record<PropertyKey, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<PropertyKey, unknown>;
  const last = path[path.length - 1]!;
  if (replacement === undefined) delete parent[last];
  else parent[last] = replacement.value;
  return copy;
}

const odd = fc.oneof(
  fc.constantFrom(null, undefined, '', 0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, true, [], {}, 9e15),
  fc.anything(),
);

test.prop([entry], { numRuns: 300 })('accepts every valid entry the schema accepts', (value) => {
  expect(isStoredEntry(value)).toBe(sessionEntrySchema.safeParse(value).success);
  expect(entryProblem(value)).toBeUndefined();
});

test.prop(
  [
    entry,
    fc.nat(),
    fc.option(
      odd.map((value) => ({ value })),
      { nil: undefined },
    ),
  ],
  { numRuns: 1500 },
)('decides like the schema on an entry with one field deleted or replaced', (value, pick, replacement) => {
  const all = paths(value);
  const mutated = all.length === 0 ? value : mutate(value, all[pick % all.length]!, replacement);
  const accepted = sessionEntrySchema.safeParse(mutated).success;
  expect(isStoredEntry(mutated)).toBe(accepted);
  expect(entryProblem(mutated) === undefined).toBe(accepted);
});

test.prop([fc.anything()])('decides like the schema on anything at all', (value) => {
  const accepted = sessionEntrySchema.safeParse(value).success;
  expect(isStoredEntry(value)).toBe(accepted);
  expect(entryProblem(value) === undefined).toBe(accepted);
});
