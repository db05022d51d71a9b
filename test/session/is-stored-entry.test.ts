/**
 * The stores' fast entry check must decide exactly as `sessionEntrySchema`: on valid entries of
 * every type, and on the same entries with one field deleted or replaced by anything. So must the
 * hand-written problem finder that words a refusal without zod (`entryProblem`), and, for what a
 * host appends, `entryProblems(value, true)` as `sessionEntryInputSchema`. The other checks the
 * stores run without zod (session info and `createSession` inputs, tool-result searches, JSONL
 * header lines) are held to the zod schemas they replaced the same way.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import * as z from 'zod/v4';
import { isHeaderLine } from '../../src/node/jsonl-file.js';
import { sessionEntryInputSchema, sessionEntrySchema } from '../../src/schemas/index.js';
import { entryProblem, entryProblems } from '../../src/session/entry-problem.js';
import { isStoredEntry } from '../../src/session/is-stored-entry.js';
import { MAX_TOOL_RESULT_HITS, parseToolResultSearch } from '../../src/session/search-tool-results.js';
import { sessionInfoSchema, sessionInitSchema } from '../../src/session/session-info.js';
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

test.prop(
  [
    entry,
    fc.nat(),
    fc.option(
      odd.map((value) => ({ value })),
      { nil: undefined },
    ),
  ],
  { numRuns: 1000 },
)(
  'decides like sessionEntryInputSchema on what a host appends (id, parentId and timestamp optional)',
  (value, pick, replacement) => {
    const all = paths(value);
    const mutated = all.length === 0 ? value : mutate(value, all[pick % all.length]!, replacement);
    expect(entryProblems(mutated, true).length === 0).toBe(sessionEntryInputSchema.safeParse(mutated).success);
  },
);

test.prop([fc.anything()])('decides like sessionEntryInputSchema on anything at all', (value) => {
  expect(entryProblems(value, true).length === 0).toBe(sessionEntryInputSchema.safeParse(value).success);
});

// The zod schemas the stores used before their checks were written by hand.
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const sessionFields = {
  name: z.string().optional(),
  parentSessionId: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
};
const zodSessionInit = z.object({ id: z.string().regex(SESSION_ID).optional(), ...sessionFields });
const zodSessionInfo = z.object({
  id: z.string().regex(SESSION_ID),
  createdAt: z.number().nonnegative(),
  ...sessionFields,
});
const zodSearch = z
  .strictObject({
    id: z.string().min(1).max(1000).optional(),
    query: z.string().trim().min(1).max(1000).optional(),
    limit: z.number().int().min(1).max(MAX_TOOL_RESULT_HITS).optional(),
    leafId: z.string().min(1).nullable().optional(),
  })
  .refine((search) => (search.id === undefined) !== (search.query === undefined));
const zodHeader = z.object({ type: z.literal('session'), version: z.number().int().positive() });

const sessionId = fc.stringMatching(SESSION_ID);
const sessionOptional = {
  name: fc.string(),
  parentSessionId: fc.string(),
  metadata: fc.dictionary(fc.string(), fc.jsonValue()),
};
const text = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom(' ', ' a ', 'x'.repeat(1000), ` ${'x'.repeat(1000)} `),
);
const checks = [
  {
    name: 'session info (sessionInfoSchema)',
    valid: fc.record({ id: sessionId, createdAt: fc.nat(), ...sessionOptional }, { requiredKeys: ['id', 'createdAt'] }),
    zod: zodSessionInfo,
    accepts: (value: unknown) => sessionInfoSchema.safeParse(value).success,
  },
  {
    name: 'a createSession input (sessionInitSchema)',
    valid: fc.record({ id: sessionId, ...sessionOptional }, { requiredKeys: [] }),
    zod: zodSessionInit,
    accepts: (value: unknown) => sessionInitSchema.safeParse(value).success,
  },
  {
    name: 'a tool-result search (parseToolResultSearch)',
    valid: fc
      .record(
        {
          id: text,
          limit: fc.oneof(fc.integer({ min: 0, max: 101 }), fc.constant(1.5)),
          leafId: fc.option(fc.string({ maxLength: 3 }), { nil: null }),
        },
        { requiredKeys: [] },
      )
      .chain((search) => {
        const { id, ...rest } = search;
        return fc.constantFrom<unknown>(search, { ...rest, query: id }, { ...search, query: id });
      }),
    zod: zodSearch,
    accepts: (value: unknown) => !('problem' in parseToolResultSearch(value)),
  },
  {
    name: 'a JSONL header line (isHeaderLine)',
    valid: fc.record({
      type: fc.constant('session'),
      version: fc.oneof(fc.integer({ min: -1, max: 3 }), fc.double()),
      id: sessionId,
    }),
    zod: zodHeader,
    accepts: isHeaderLine,
  },
];

describe.each(checks)('the hand-written check of $name', ({ valid, zod, accepts }) => {
  test.prop(
    [
      valid as fc.Arbitrary<unknown>,
      fc.nat(),
      fc.option(
        odd.map((value) => ({ value })),
        { nil: undefined },
      ),
    ],
    {
      numRuns: 500,
    },
  )('decides like the zod schema on a value with one field deleted or replaced', (value, pick, replacement) => {
    const all = paths(value);
    const mutated = all.length === 0 ? value : mutate(value, all[pick % all.length]!, replacement);
    expect(accepts(mutated)).toBe(zod.safeParse(mutated).success);
  });

  test.prop([fc.anything()])('decides like the zod schema on anything at all', (value) => {
    expect(accepts(value)).toBe(zod.safeParse(value).success);
  });
});

test.prop([fc.string({ maxLength: 8 }), fc.boolean()])(
  'a search keeps its query as the zod schema does: trimmed',
  (query, pad) => {
    const search = { query: pad ? ` ${query}\n` : query };
    const zodResult = zodSearch.safeParse(search);
    const parsed = parseToolResultSearch(search);
    expect('search' in parsed ? parsed.search.query : undefined).toBe(
      zodResult.success ? zodResult.data.query : undefined,
    );
  },
);
