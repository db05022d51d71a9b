import { isObject, type WireObject } from './langchain-data.js';

// A zod schema that cannot convert itself (zod 3, zod/mini: neither has `toJSONSchema()` nor a
// Standard JSON Schema) read as the JSON Schema a LangChain provider sends for it, near enough to
// count its tokens: types, properties, required keys, enums, literals, defaults and descriptions.
// It reads the schema's own definition (`_def` in zod 3, `_zod.def` in zod 4) so this entry never
// imports zod or a converter of its own.

/** A JSON Schema, as built here. */
type JsonSchema = WireObject;

/** Deeper than any tool's parameters: a self-referencing schema stops here. */
const MAX_DEPTH = 32;

/** The `$schema` LangChain's converters write: zod 3's (`zodToJsonSchema`) and zod 4's (`toJSONSchema`). */
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** The metadata zod 4 keeps outside the schema (`.describe()`, `.meta()`), shared by its copies. */
interface ZodRegistry {
  get(schema: object): { description?: unknown } | undefined;
}

/** A zod schema's definition and how it names its kind: zod 4 `_zod.def.type`, zod 3 `_def.typeName`. */
interface ZodDefinition {
  kind: string;
  def: WireObject;
  version: 3 | 4;
}

function definitionOf(schema: unknown): ZodDefinition | undefined {
  if (!isObject(schema)) return undefined;
  const internals = schema._zod;
  if (isObject(internals) && isObject(internals.def) && typeof internals.def.type === 'string') {
    return { kind: internals.def.type, def: internals.def, version: 4 };
  }
  const def = schema._def;
  if (isObject(def) && typeof def.typeName === 'string') {
    // ZodString -> string, ZodDiscriminatedUnion -> discriminatedunion: one vocabulary with zod 4's.
    return { kind: def.typeName.replace(/^Zod/, '').toLowerCase(), def, version: 3 };
  }
  return undefined;
}

/**
 * Whether `value` is a zod schema (3 or 4, classic or mini). @internal
 *
 * @param value - A tool's `schema`.
 * @returns `true` for a zod schema.
 */
export function isZodSchema(value: unknown): boolean {
  return definitionOf(value) !== undefined;
}

function descriptionOf(schema: WireObject, zod: ZodDefinition): string | undefined {
  if (zod.version === 3) return typeof zod.def.description === 'string' ? zod.def.description : undefined;
  const registry = (globalThis as { __zod_globalRegistry?: ZodRegistry }).__zod_globalRegistry;
  // zod 3.25's zod/v4 does not share its registry on globalThis: its classic schemas still answer
  // `description` from it.
  const description = registry?.get(schema)?.description ?? schema.description;
  return typeof description === 'string' ? description : undefined;
}

/** Whether an object's key may be left out: `required` lists the others. */
function isOptional(schema: unknown): boolean {
  const zod = definitionOf(schema);
  if (!zod) return false;
  if (zod.version === 4) {
    // zod 4's converter writes the output side, where a defaulted key is always there.
    return (schema as { _zod: { optout?: unknown } })._zod.optout === 'optional';
  }
  return zod.kind === 'optional' || zod.kind === 'default';
}

/** The value a getter or a zod 3 thunk holds. */
function resolved(value: unknown): unknown {
  return typeof value === 'function' ? (value as () => unknown)() : value;
}

/** A zod 4 integer format (`int`, `safeint`, `int32`, …), on the schema or on one of its checks. */
function isIntegerFormat(def: unknown): boolean {
  return isObject(def) && typeof def.format === 'string' && def.format.includes('int');
}

function isInteger(zod: ZodDefinition): boolean {
  const checks = Array.isArray(zod.def.checks) ? zod.def.checks : [];
  if (zod.version === 3) return checks.some((check) => isObject(check) && check.kind === 'int');
  return (
    isIntegerFormat(zod.def) ||
    checks.some((check) => isObject(check) && isObject(check._zod) && isIntegerFormat(check._zod.def))
  );
}

/** A TypeScript enum's values (zod 3 `nativeEnum`, zod 4 `enum` of an object): without the reverse keys. */
function enumValues(entries: unknown): unknown[] {
  if (Array.isArray(entries)) return entries;
  if (!isObject(entries)) return [];
  return Object.entries(entries)
    .filter(([key]) => typeof entries[entries[key] as string] !== 'number')
    .map(([, value]) => value);
}

/** An enum of strings or numbers says its type, as both converters write it. */
function enumSchema(values: unknown[]): JsonSchema {
  for (const type of ['string', 'number'] as const) {
    if (values.length > 0 && values.every((value) => typeof value === type)) return { type, enum: values };
  }
  return { enum: values };
}

function literal(values: readonly unknown[]): JsonSchema {
  return values.length === 1 ? { const: values[0] } : { enum: [...values] };
}

function objectSchema(shape: unknown, walk: (schema: unknown) => JsonSchema): JsonSchema {
  const properties: WireObject = {};
  const required: string[] = [];
  for (const [key, value] of Object.entries(isObject(shape) ? shape : {})) {
    properties[key] = walk(value);
    if (!isOptional(value)) required.push(key);
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** The JSON Schema of one zod kind, its parts walked with `walk`. */
function kindSchema(zod: ZodDefinition, walk: (schema: unknown) => JsonSchema): JsonSchema {
  const { def } = zod;
  switch (zod.kind) {
    case 'string':
      return { type: 'string' };
    case 'number':
      if (zod.version === 4 && def.format === 'safeint') {
        // z.int(): zod 4 writes its bounds.
        return { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
      }
      return { type: isInteger(zod) ? 'integer' : 'number' };
    case 'bigint':
      return { type: 'integer', format: 'int64' };
    case 'boolean':
      return { type: 'boolean' };
    case 'null':
      return { type: 'null' };
    case 'date':
      return { type: 'string', format: 'date-time' };
    case 'object':
      return objectSchema(resolved(def.shape), walk);
    case 'array':
    case 'set':
      return {
        type: 'array',
        items: walk(zod.version === 4 ? (def.element ?? def.valueType) : (def.type ?? def.valueType)),
      };
    case 'tuple': {
      const items = Array.isArray(def.items) ? def.items.map(walk) : [];
      return { type: 'array', prefixItems: items, ...(def.rest ? { items: walk(def.rest) } : {}) };
    }
    case 'record':
    case 'map':
      return { type: 'object', additionalProperties: walk(def.valueType) };
    case 'enum':
    case 'nativeenum':
      return enumSchema(enumValues(zod.version === 4 ? def.entries : def.values));
    case 'literal':
      return literal(zod.version === 4 && Array.isArray(def.values) ? def.values : [def.value]);
    case 'union':
    case 'discriminatedunion':
      return { anyOf: (Array.isArray(def.options) ? def.options : []).map(walk) };
    case 'intersection':
      return { allOf: [walk(def.left), walk(def.right)] };
    case 'nullable':
      return { anyOf: [walk(def.innerType), { type: 'null' }] };
    case 'default':
    case 'prefault':
      return { ...walk(def.innerType), default: resolved(def.defaultValue) };
    case 'optional':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
    case 'success':
      return walk(def.innerType);
    case 'promise':
    case 'branded':
      return walk(zod.version === 4 ? def.innerType : def.type);
    case 'effects':
      return walk(def.schema);
    case 'pipe':
    case 'pipeline':
      return walk(def.in);
    case 'lazy':
      return walk(resolved(def.getter));
    default:
      // z.any(), z.unknown(), transforms, custom schemas and kinds a later zod adds: the empty
      // schema, which accepts every value.
      return {};
  }
}

/**
 * A zod 3 or zod 4 (classic or mini) schema as JSON Schema, read from its definition: what a tool's
 * parameters cost, near enough to count. `undefined` when `schema` is not a zod schema. @internal
 *
 * @param schema - A tool's zod schema.
 * @returns Its JSON Schema, or `undefined`.
 */
export function zodJsonSchema(schema: unknown): JsonSchema | undefined {
  if (!isZodSchema(schema)) return undefined;
  const path = new Set<unknown>();
  const walk = (part: unknown): JsonSchema => {
    const zod = definitionOf(part);
    // A schema inside itself (z.lazy) or deeper than a real tool's: the empty schema (every value),
    // as a $ref would count.
    if (!zod || path.has(part) || path.size >= MAX_DEPTH) return {};
    path.add(part);
    try {
      const description = descriptionOf(part as WireObject, zod);
      const result = kindSchema(zod, walk);
      return description === undefined ? result : { ...result, description };
    } finally {
      path.delete(part);
    }
  };
  const draft = definitionOf(schema)!.version === 3 ? DRAFT_07 : DRAFT_2020_12;
  return { $schema: draft, ...walk(schema) };
}
