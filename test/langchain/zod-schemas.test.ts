// Property: for any tool schema built of the usual parts (strings, numbers, integers, booleans,
// enums, literals, arrays, nested objects, unions, optional, nullable and defaulted fields,
// descriptions), in zod 3 or zod/mini, ctxkitMiddleware counts the tool about as what LangChain's
// own `convertToOpenAITool` sends for it (zod's converters word a few shapes differently: a
// nullable string as `type: ["string", "null"]`, a union of literals as one enum).

import { fc, test } from '@fast-check/vitest';
import { HumanMessage } from '@langchain/core/messages';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { createContextManager } from 'ctxkit';
import { ctxkitMiddleware } from 'ctxkit/langchain';
import { createScriptedSummarizer } from 'ctxkit/testing';
import { tool } from 'langchain';
import { expect } from 'vitest';
import * as zm from 'zod/mini';
import { z as z3 } from 'zod3';

/** A schema as data, built in both flavours. */
type Spec =
  | { kind: 'string' | 'number' | 'int' | 'boolean' }
  | { kind: 'enum'; values: string[] }
  | { kind: 'literal'; value: string }
  | { kind: 'array'; item: Spec }
  | { kind: 'object'; fields: Field[] }
  | { kind: 'union'; options: Spec[] };
interface Field {
  name: string;
  spec: Spec;
  wrap: 'none' | 'optional' | 'nullable' | 'default';
  description?: string | undefined;
}

const word = fc.stringMatching(/^[a-z]{2,10}$/);
const { spec } = fc.letrec<{ spec: Spec; field: Field }>((tie) => ({
  spec: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<Spec>({ kind: 'string' }, { kind: 'number' }, { kind: 'int' }, { kind: 'boolean' }),
    fc.uniqueArray(word, { minLength: 1, maxLength: 4 }).map((values): Spec => ({ kind: 'enum', values })),
    word.map((value): Spec => ({ kind: 'literal', value })),
    tie('spec').map((item): Spec => ({ kind: 'array', item })),
    fc
      .uniqueArray(tie('field') as fc.Arbitrary<Field>, { minLength: 1, maxLength: 4, selector: (field) => field.name })
      .map((fields): Spec => ({ kind: 'object', fields })),
    fc.array(tie('spec'), { minLength: 2, maxLength: 3 }).map((options): Spec => ({ kind: 'union', options })),
  ),
  field: fc.record(
    {
      name: word,
      spec: tie('spec') as fc.Arbitrary<Spec>,
      wrap: fc.constantFrom<Field['wrap']>('none', 'optional', 'nullable', 'default'),
      description: fc.option(fc.lorem({ maxCount: 8 }), { nil: undefined }),
    },
    { requiredKeys: ['name', 'spec', 'wrap'] },
  ),
}));

/** A value the spec accepts, for defaults. */
function exampleOf(spec: Spec): unknown {
  switch (spec.kind) {
    case 'string':
      return 'x';
    case 'number':
    case 'int':
      return 1;
    case 'boolean':
      return true;
    case 'enum':
      return spec.values[0];
    case 'literal':
      return spec.value;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(
        spec.fields.filter((field) => field.wrap === 'none').map((f) => [f.name, exampleOf(f.spec)]),
      );
    case 'union':
      return exampleOf(spec.options[0]!);
  }
}

function zod3Of(spec: Spec): z3.ZodTypeAny {
  switch (spec.kind) {
    case 'string':
      return z3.string();
    case 'number':
      return z3.number();
    case 'int':
      return z3.number().int();
    case 'boolean':
      return z3.boolean();
    case 'enum':
      return z3.enum(spec.values as [string, ...string[]]);
    case 'literal':
      return z3.literal(spec.value);
    case 'array':
      return z3.array(zod3Of(spec.item));
    case 'object':
      return z3.object(
        Object.fromEntries(
          spec.fields.map((field) => {
            let schema = zod3Of(field.spec);
            if (field.description) schema = schema.describe(field.description);
            if (field.wrap === 'optional') schema = schema.optional();
            if (field.wrap === 'nullable') schema = schema.nullable();
            if (field.wrap === 'default') schema = schema.default(exampleOf(field.spec));
            return [field.name, schema];
          }),
        ),
      );
    case 'union':
      return z3.union(spec.options.map(zod3Of) as [z3.ZodTypeAny, z3.ZodTypeAny]);
  }
}

function miniOf(spec: Spec): zm.ZodMiniType {
  switch (spec.kind) {
    case 'string':
      return zm.string();
    case 'number':
      return zm.number();
    case 'int':
      return zm.int();
    case 'boolean':
      return zm.boolean();
    case 'enum':
      return zm.enum(spec.values as [string, ...string[]]);
    case 'literal':
      return zm.literal(spec.value);
    case 'array':
      return zm.array(miniOf(spec.item));
    case 'object':
      return zm.object(
        Object.fromEntries(
          spec.fields.map((field) => {
            let schema: zm.ZodMiniType = miniOf(field.spec);
            if (field.description) schema = schema.check(zm.describe(field.description));
            if (field.wrap === 'optional') schema = zm.optional(schema);
            if (field.wrap === 'nullable') schema = zm.nullable(schema);
            if (field.wrap === 'default') schema = zm._default(schema, exampleOf(field.spec) as never);
            return [field.name, schema];
          }),
        ),
      );
    case 'union':
      return zm.union(spec.options.map(miniOf));
  }
}

const fields = fc
  .uniqueArray(
    spec.chain((s) => fc.record({ name: word, spec: fc.constant(s) })),
    {
      minLength: 1,
      maxLength: 5,
      selector: (field) => field.name,
    },
  )
  .map((list): Spec => ({ kind: 'object', fields: list.map((field) => ({ ...field, wrap: 'none' as const })) }));

const toolsCost = (tools: unknown[]) =>
  createContextManager({ model: 'gpt-4o', summarizer: createScriptedSummarizer([]), tools }).stats([]).breakdown.tools;

async function counted(schema: unknown): Promise<{ counted: number; sent: number }> {
  const made = tool(async () => '', { name: 'act', description: 'Act on the input', schema: schema as never });
  const sent = toolsCost([convertToOpenAITool(made).function]);
  const middleware = ctxkitMiddleware({ model: 'gpt-4o', summarizer: createScriptedSummarizer([]) });
  await middleware.wrapModelCall(
    {
      messages: [new HumanMessage({ content: 'a', id: 'm1' })],
      tools: [made],
      runtime: { configurable: { thread_id: 't' } },
    },
    async () => new HumanMessage('ok') as never,
  );
  return { counted: middleware.managerOf('t')!.stats([]).breakdown.tools, sent };
}

test.prop([fields], { numRuns: 60 })(
  'zod 3 and zod/mini tools are counted about as LangChain sends them',
  async (object) => {
    for (const schema of [zod3Of(object), miniOf(object)]) {
      const { counted: ours, sent } = await counted(schema);
      expect(Math.abs(ours - sent), `${ours} counted, ${sent} sent`).toBeLessThanOrEqual(0.25 * sent + 10);
    }
  },
);
