/**
 * The light option checks (`light-schema.ts`) must decide exactly as the zod schema of the same shape
 * and word a refusal the same way through `parseOptions`: random schemas are built both ways and
 * handed values near them (valid, with a part deleted or replaced) and anything at all. The config
 * check resolveConfig uses is held equal to the public `contextConfigSchema` the same way.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import * as z from 'zod/v4';
import { contextConfigSchema } from '../../src/config/context-config-schema.js';
import { configInputSchema } from '../../src/config/schema.js';
import * as v from '../../src/validation/light-schema.js';
import { type OptionsSchema, parseOptions } from '../../src/validation/parse-options.js';

type Check = { kind: 'int' | 'min' | 'gt' | 'lte'; value: number; message?: string };
type Node =
  | { kind: 'number'; message?: string; checks: Check[] }
  | { kind: 'string'; message?: string; min?: { value: number; message?: string } }
  | { kind: 'boolean'; message?: string }
  | { kind: 'unknown' }
  | { kind: 'enum'; values: string[]; message?: string }
  | { kind: 'custom'; message?: string }
  | { kind: 'array'; item: Node; message?: string; frozen: boolean }
  | { kind: 'record'; item: Node; message?: string }
  | { kind: 'object'; mode: 'strip' | 'strict' | 'loose'; shape: Record<string, Node>; message?: string }
  | { kind: 'optional'; inner: Node };

const message = fc.option(fc.constantFrom('must be right', 'must be a thing ≥ 1', 'wrong'), { nil: undefined });
const KEYS = ['a', 'b', 'c', 'd'];

const nodes = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({
      kind: fc.constant('number' as const),
      message,
      checks: fc.array(
        fc.record({
          kind: fc.constantFrom('int' as const, 'min' as const, 'gt' as const, 'lte' as const),
          value: fc.constantFrom(-1, 0, 1, 2.5, 100),
          message,
        }),
        { maxLength: 3 },
      ),
    }),
    fc.record(
      {
        kind: fc.constant('string' as const),
        message,
        min: fc.record({ value: fc.nat(3), message }, { requiredKeys: ['value'] }),
      },
      { requiredKeys: ['kind'] },
    ),
    fc.record({ kind: fc.constant('boolean' as const), message }),
    fc.record({ kind: fc.constant('unknown' as const) }),
    fc.record({
      kind: fc.constant('enum' as const),
      values: fc.uniqueArray(fc.constantFrom('x', 'y', 'z'), { minLength: 1 }),
      message,
    }),
    fc.record({ kind: fc.constant('custom' as const), message }),
    fc.record({ kind: fc.constant('array' as const), item: tie('node'), message, frozen: fc.boolean() }),
    fc.record({ kind: fc.constant('record' as const), item: tie('node'), message }),
    fc.record({
      kind: fc.constant('object' as const),
      mode: fc.constantFrom('strip' as const, 'strict' as const, 'loose' as const),
      shape: fc.dictionary(fc.constantFrom(...KEYS), tie('node'), { maxKeys: 3 }),
      message,
    }),
    fc.record({ kind: fc.constant('optional' as const), inner: tie('node') }),
  ),
})).node;

/** The custom check of both builds: a string of at most 3 characters. */
const short = (value: unknown) => typeof value === 'string' && value.length <= 3;

function toZod(node: Node): z.ZodType {
  const error = (text: string | undefined) => (text === undefined ? undefined : { error: text });
  switch (node.kind) {
    case 'number': {
      let schema = z.number(error(node.message));
      for (const check of node.checks) {
        if (check.kind === 'int') schema = schema.int(check.message);
        else if (check.kind === 'min') schema = schema.min(check.value, check.message);
        else if (check.kind === 'gt') schema = schema.gt(check.value, check.message);
        else schema = schema.lte(check.value, check.message);
      }
      return schema;
    }
    case 'string':
      return node.min
        ? z.string(error(node.message)).min(node.min.value, node.min.message)
        : z.string(error(node.message));
    case 'boolean':
      return z.boolean(error(node.message));
    case 'unknown':
      return z.unknown();
    case 'enum':
      return z.enum(node.values as [string, ...string[]], error(node.message));
    case 'custom':
      return z.custom(short, node.message);
    case 'array': {
      const schema = z.array(toZod(node.item), error(node.message));
      return node.frozen ? schema.readonly() : schema;
    }
    case 'record':
      return z.record(z.string(), toZod(node.item), error(node.message));
    case 'object': {
      const shape = Object.fromEntries(Object.entries(node.shape).map(([key, child]) => [key, toZod(child)]));
      const build = { strip: z.object, strict: z.strictObject, loose: z.looseObject }[node.mode];
      return build(shape, error(node.message));
    }
    case 'optional':
      return toZod(node.inner).optional();
  }
}

function toLight(node: Node): v.Schema<unknown> {
  const error = (text: string | undefined) => (text === undefined ? undefined : { error: text });
  switch (node.kind) {
    case 'number': {
      let schema = v.number(error(node.message));
      for (const check of node.checks) {
        if (check.kind === 'int') schema = schema.int(check.message);
        else if (check.kind === 'min') schema = schema.min(check.value, check.message);
        else if (check.kind === 'gt') schema = schema.gt(check.value, check.message);
        else schema = schema.lte(check.value, check.message);
      }
      return schema;
    }
    case 'string':
      return node.min
        ? v.string(error(node.message)).min(node.min.value, node.min.message)
        : v.string(error(node.message));
    case 'boolean':
      return v.boolean(error(node.message));
    case 'unknown':
      return v.unknown();
    case 'enum':
      return v.enumOf(node.values, error(node.message));
    case 'custom':
      return v.custom(short, node.message);
    case 'array': {
      const schema = v.array(toLight(node.item), error(node.message));
      return node.frozen ? schema.readonly() : schema;
    }
    case 'record':
      return v.record(toLight(node.item), error(node.message));
    case 'object': {
      const shape = Object.fromEntries(Object.entries(node.shape).map(([key, child]) => [key, toLight(child)]));
      const build = { strip: v.object, strict: v.strictObject, loose: v.looseObject }[node.mode];
      return build(shape, error(node.message));
    }
    case 'optional':
      return toLight(node.inner).optional();
  }
}

const odd = fc.oneof(
  fc.constantFrom(
    null,
    undefined,
    '',
    'abcd',
    'x',
    0,
    -1,
    1,
    1.5,
    2.5,
    100,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    2 ** 60,
    -(2 ** 60),
    true,
    [],
    {},
    Object.create(null),
    new Date(0),
  ),
  fc.anything(),
);

/** Values near `node`: mostly its shape, each part sometimes something else. */
function near(node: Node, depth = 0): fc.Arbitrary<unknown> {
  const exact = (): fc.Arbitrary<unknown> => {
    switch (node.kind) {
      case 'number':
        return fc.oneof(fc.constantFrom(-1, 0, 1, 2, 2.5, 99, 100, 101), fc.double());
      case 'string':
        return fc.string({ maxLength: 4 });
      case 'boolean':
        return fc.boolean();
      case 'unknown':
        return fc.anything();
      case 'enum':
        return fc.constantFrom(...node.values, 'w');
      case 'custom':
        return fc.string({ maxLength: 5 });
      case 'array':
        return fc.array(near(node.item, depth + 1), { maxLength: 3 });
      case 'record':
        return fc.dictionary(fc.constantFrom('p', 'q', '__proto__'), near(node.item, depth + 1), { maxKeys: 2 });
      case 'object': {
        const fields = Object.fromEntries(
          Object.entries(node.shape).map(([key, child]) => [key, near(child, depth + 1)]),
        );
        return fc
          .tuple(
            fc.record(fields, { requiredKeys: [] }),
            fc.dictionary(fc.constantFrom('e', 'f', 'a'), fc.anything(), { maxKeys: 2 }),
          )
          .map(([known, extra]) => ({ ...extra, ...known }));
      }
      case 'optional':
        return fc.option(near(node.inner, depth), { nil: undefined });
    }
  };
  return fc.oneof({ weight: 6, arbitrary: exact() }, { weight: 1, arbitrary: odd });
}

/** What `parseOptions` makes of `input` with `schema`: the parsed value or the error's message. */
function outcome(schema: OptionsSchema, input: unknown): { data: unknown } | { error: string } {
  try {
    return { data: parseOptions('check', schema, input) };
  } catch (error) {
    expect(error).toMatchObject({ name: 'ConfigError' });
    return { error: (error as Error).message };
  }
}

const schemaAndValue = nodes.chain((node) => fc.tuple(fc.constant(node), fc.oneof(near(node), odd)));

describe('light schemas', () => {
  test.prop([schemaAndValue], { numRuns: 1000 })(
    'decide and word a refusal as the zod schema of the same shape',
    ([node, input]) => {
      expect(outcome(toLight(node), input)).toEqual(outcome(toZod(node), input));
    },
  );

  test('a frozen array parses to a frozen copy, as zod’s readonly does', () => {
    const parsed = v.array(v.string()).readonly().safeParse(['a']);
    expect(parsed.success && Object.isFrozen(parsed.data)).toBe(true);
  });
});

const share = fc.constantFrom(0, 0.5, 1, 1.5, -0.1);
const count = fc.constantFrom(0, 1, 1.5, -1, 1_000, 200_000);
const configInput = fc.record(
  {
    maxMessages: count,
    maxTokens: count,
    keepRecent: count,
    keepRecentTokens: count,
    reserveTokens: count,
    toolCallCutoff: count,
    toolSummaryBatch: count,
    toolSummaryStrategy: fc.constantFrom('llm', 'heuristic', 'off', 'other'),
    toolSummaryBudget: fc.constantFrom('scaled', 'reference', 'other'),
    autoCompact: fc.oneof(fc.boolean(), fc.constant('yes')),
    contextWindow: count,
    warningThreshold: share,
    compactionThreshold: share,
    toolOutput: fc.record(
      {
        maxLines: count,
        maxBytes: count,
        maxChars: count,
        largeOutputThreshold: count,
        truncateMode: fc.constantFrom('head', 'head_tail', 'tail'),
        typo: fc.constant(1),
      },
      { requiredKeys: [] },
    ),
    typo: fc.constant(1),
  },
  { requiredKeys: [] },
);

test.prop([fc.oneof({ weight: 4, arbitrary: configInput }, { weight: 1, arbitrary: odd })], { numRuns: 1000 })(
  'the config check resolveConfig uses is the public contextConfigSchema',
  (input) => {
    expect(outcome(configInputSchema, input)).toEqual(outcome(contextConfigSchema, input));
  },
);
