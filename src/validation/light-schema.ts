// The option checks of the functions a browser or edge bundle reaches (`createContextManager`, the
// pipeline, the summarizers, the model tables), written by hand in zod's shape: `v.strictObject({
// budget: v.number().min(0) })` decides exactly what the zod schema of the same shape decides and
// reports the same first issue (code, path, message), so `parseOptions` words both alike. A
// property test builds random schemas both ways and holds them equal
// (`test/validation/light-schema.test.ts`). Zod itself would put ~27 KB gzipped into those bundles;
// this is about 1. Only what the option checks use is here: no unions, transforms or refinements
// (schemas that need them stay zod, in the entries that can carry it).

/** One problem with a value, in the shape of a zod issue (the fields `parseOptions` reads). @internal */
export interface Issue {
  readonly code:
    | 'invalid_type'
    | 'invalid_value'
    | 'unrecognized_keys'
    | 'too_small'
    | 'too_big'
    | 'custom'
    | 'invalid_key';
  readonly path: PropertyKey[];
  readonly message: string;
  /** For `invalid_type`: what the value must be (`number`, `object`, `record`, `int`, …). */
  readonly expected?: string;
  /** For `invalid_value`: the values allowed. */
  readonly values?: readonly unknown[];
  /** For `unrecognized_keys`: the keys not in the shape. */
  readonly keys?: string[];
}

/** What `safeParse` returns, as zod's does: the parsed value, or the issues. @internal */
export type SafeParseResult<T> = { success: true; data: T } | { success: false; error: { issues: Issue[] } };

/** A custom message: `'must be …'` or `{ error: 'must be …' }`, as zod takes it. @internal */
export type Message = string | { error: string };

const messageOf = (message: Message | undefined): string | undefined =>
  typeof message === 'string' ? message : message?.error;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A plain object as zod's records require it: no constructor, or one whose prototype is an object's. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const maker = (value as { constructor?: unknown }).constructor;
  if (maker === undefined || typeof maker !== 'function') return true;
  const prototype: unknown = maker.prototype;
  return isObject(prototype) && Object.hasOwn(prototype, 'isPrototypeOf');
}

/** zod's English words for an issue without a custom message (the ones the option checks can raise). */
function defaultMessage(issue: Omit<Issue, 'message'> & { bound?: number; inclusive?: boolean; origin?: string }) {
  const { code, origin = 'number', bound = 0 } = issue;
  const sized = origin === 'string' ? 'characters' : origin === 'array' ? 'items' : undefined;
  if (code === 'too_small' || code === 'too_big') {
    const adjective = `${code === 'too_small' ? '>' : '<'}${issue.inclusive ? '=' : ''}`;
    const head = code === 'too_small' ? 'Too small' : 'Too big';
    return sized
      ? `${head}: expected ${origin} to have ${adjective}${bound} ${sized}`
      : `${head}: expected ${origin} to be ${adjective}${bound}`;
  }
  if (code === 'invalid_key') return 'Invalid key in record';
  if (code === 'invalid_type') return `Invalid input: expected ${issue.expected}`;
  return 'Invalid input';
}

/**
 * A check in zod's shape. As in zod, a bound without a message of its own (`.min(1)`) words its
 * issue with the check's message (`v.number({ error })`), if any. `run` returns the parsed value, or the first issue (`fail`).
 *
 * @internal
 */
export abstract class Schema<Output> {
  /** The type of a parsed value (types only). */
  declare readonly _output: Output;
  /** Whether `undefined` (or a missing key) is accepted. */
  readonly isOptional: boolean = false;

  /** The parsed value, or an {@link Issue} (never thrown). */
  abstract run(value: unknown): unknown;

  /**
   * Parses `input` as zod's `safeParse` does.
   *
   * @param input - The value to check.
   * @returns `{ success: true, data }` or `{ success: false, error: { issues: [first issue] } }`.
   */
  safeParse(input: unknown): SafeParseResult<Output> {
    const result = this.run(input);
    return result instanceof Failure
      ? { success: false, error: { issues: [result.issue] } }
      : { success: true, data: result as Output };
  }

  /** This check, or `undefined` (and a missing key). */
  optional(): Schema<Output | undefined> {
    return new Optional(this);
  }
}

/** The issue a check found, told apart from any parsed value. */
class Failure {
  constructor(readonly issue: Issue) {}
}

function fail(
  code: Issue['code'],
  message: string | undefined,
  extra: {
    expected?: string;
    values?: readonly unknown[];
    keys?: string[];
    bound?: number;
    inclusive?: boolean;
    origin?: string;
  } = {},
): Failure {
  const { bound: _bound, inclusive: _inclusive, origin: _origin, ...fields } = extra;
  return new Failure({ code, path: [], message: message ?? defaultMessage({ code, path: [], ...extra }), ...fields });
}

/** The issue of a part (a field, an item), with the part's key in front of its path. */
function under(key: PropertyKey, failure: Failure): Failure {
  return new Failure({ ...failure.issue, path: [key, ...failure.issue.path] });
}

class Optional<Output> extends Schema<Output | undefined> {
  override readonly isOptional = true;
  constructor(readonly inner: Schema<Output>) {
    super();
  }
  run(value: unknown): unknown {
    return value === undefined ? undefined : this.inner.run(value);
  }
}

type Bound = { kind: 'min' | 'max'; value: number; inclusive: boolean; message: string | undefined };

class NumberSchema extends Schema<number> {
  constructor(
    readonly message: string | undefined,
    readonly bounds: readonly (Bound | { kind: 'int'; message: string | undefined })[] = [],
  ) {
    super();
  }
  run(value: unknown): unknown {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return fail('invalid_type', this.message, { expected: 'number' });
    }
    for (const { message = this.message, ...bound } of this.bounds) {
      if (bound.kind === 'int') {
        if (!Number.isInteger(value)) return fail('invalid_type', message, { expected: 'int' });
        if (!Number.isSafeInteger(value)) {
          return value > 0
            ? fail('too_big', message, { origin: 'int', bound: Number.MAX_SAFE_INTEGER, inclusive: true })
            : fail('too_small', message, { origin: 'int', bound: Number.MIN_SAFE_INTEGER, inclusive: true });
        }
      } else if (
        bound.kind === 'min'
          ? !(bound.inclusive ? value >= bound.value : value > bound.value)
          : !(bound.inclusive ? value <= bound.value : value < bound.value)
      ) {
        return fail(bound.kind === 'min' ? 'too_small' : 'too_big', message, {
          bound: bound.value,
          inclusive: bound.inclusive,
        });
      }
    }
    return value;
  }
  /** This check with one more bound. */
  and(bound: NumberSchema['bounds'][number]): NumberSchema {
    return new NumberSchema(this.message, [...this.bounds, bound]);
  }
  /** A whole number (a safe integer). */
  int(message?: Message): NumberSchema {
    return this.and({ kind: 'int', message: messageOf(message) });
  }
  /** At least `value`. */
  min(value: number, message?: Message): NumberSchema {
    return this.and({ kind: 'min', value, inclusive: true, message: messageOf(message) });
  }
  /** Greater than `value`. */
  gt(value: number, message?: Message): NumberSchema {
    return this.and({ kind: 'min', value, inclusive: false, message: messageOf(message) });
  }
  /** At most `value`. */
  lte(value: number, message?: Message): NumberSchema {
    return this.and({ kind: 'max', value, inclusive: true, message: messageOf(message) });
  }
  /** At least 0. */
  nonnegative(message?: Message): NumberSchema {
    return this.min(0, message);
  }
  /** Finite: every number here is (as in zod 4, where this is a no-op). */
  finite(): NumberSchema {
    return this;
  }
}

class StringSchema extends Schema<string> {
  constructor(
    readonly message: string | undefined,
    readonly minimum?: { value: number; message: string | undefined },
  ) {
    super();
  }
  run(value: unknown): unknown {
    if (typeof value !== 'string') return fail('invalid_type', this.message, { expected: 'string' });
    const { minimum } = this;
    if (minimum !== undefined && value.length < minimum.value) {
      return fail('too_small', minimum.message ?? this.message, {
        origin: 'string',
        bound: minimum.value,
        inclusive: true,
      });
    }
    return value;
  }
  /** At least `value` characters (UTF-16 code units, as `length` counts). */
  min(value: number, message?: Message): StringSchema {
    return new StringSchema(this.message, { value, message: messageOf(message) });
  }
}

class TypeSchema<Output> extends Schema<Output> {
  constructor(
    readonly expected: 'boolean' | 'unknown',
    readonly message: string | undefined,
  ) {
    super();
  }
  run(value: unknown): unknown {
    if (this.expected === 'boolean' && typeof value !== 'boolean') {
      return fail('invalid_type', this.message, { expected: 'boolean' });
    }
    return value;
  }
}

class EnumSchema<Value extends string> extends Schema<Value> {
  constructor(
    readonly values: readonly Value[],
    readonly message: string | undefined,
  ) {
    super();
  }
  run(value: unknown): unknown {
    return this.values.includes(value as Value) ? value : fail('invalid_value', this.message, { values: this.values });
  }
}

class CustomSchema<Output> extends Schema<Output> {
  constructor(
    readonly accepts: (value: unknown) => unknown,
    readonly message: string | undefined,
  ) {
    super();
  }
  run(value: unknown): unknown {
    return this.accepts(value) ? value : fail('custom', this.message);
  }
}

class ArraySchema<Output> extends Schema<Output> {
  constructor(
    readonly item: Schema<unknown>,
    readonly message: string | undefined,
    readonly frozen = false,
  ) {
    super();
  }
  run(value: unknown): unknown {
    if (!Array.isArray(value)) return fail('invalid_type', this.message, { expected: 'array' });
    const items: unknown[] = [];
    for (let index = 0; index < value.length; index++) {
      const item = this.item.run(value[index]);
      if (item instanceof Failure) return under(index, item);
      items.push(item);
    }
    return this.frozen ? Object.freeze(items) : items;
  }
  /** The parsed array, frozen. */
  readonly(): ArraySchema<Readonly<Output>> {
    return new ArraySchema(this.item, this.message, true);
  }
}

class RecordSchema<Output> extends Schema<Output> {
  constructor(
    readonly item: Schema<unknown>,
    readonly message: string | undefined,
  ) {
    super();
  }
  run(value: unknown): unknown {
    if (!isPlainObject(value)) return fail('invalid_type', this.message, { expected: 'record' });
    const parsed: Record<PropertyKey, unknown> = {};
    for (const key of Reflect.ownKeys(value)) {
      if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(value, key)) continue;
      if (typeof key === 'symbol') return under(key, fail('invalid_key', undefined));
      const item = this.item.run(value[key]);
      if (item instanceof Failure) return under(key, item);
      parsed[key] = item;
    }
    return parsed;
  }
}

/** The fields of an object schema. @internal */
export type Shape = Record<string, Schema<unknown>>;

type OptionalKeys<S extends Shape> = { [K in keyof S]: undefined extends S[K]['_output'] ? K : never }[keyof S];

/** The parsed type of an object of `S`: optional where the field's check accepts `undefined`. @internal */
export type ShapeOutput<S extends Shape> = { [K in Exclude<keyof S, OptionalKeys<S>>]: S[K]['_output'] } & {
  [K in OptionalKeys<S>]?: S[K]['_output'];
};

/** What an object does with keys not in its shape: drop them, refuse them, or keep them. */
type UnknownKeys = 'strip' | 'strict' | 'loose';

class ObjectSchema<S extends Shape, Output> extends Schema<Output> {
  constructor(
    readonly shape: S,
    readonly unknownKeys: UnknownKeys,
    readonly message: string | undefined,
  ) {
    super();
  }
  run(value: unknown): unknown {
    if (!isObject(value)) return fail('invalid_type', this.message, { expected: 'object' });
    const parsed: Record<string, unknown> = {};
    for (const key of Object.keys(this.shape)) {
      const field = this.shape[key] as Schema<unknown>;
      const present = key in value;
      if (!present && field.isOptional) continue;
      const result = field.run(value[key]);
      if (result instanceof Failure) return under(key, result);
      // A missing key that the check would let through as `undefined` is still missing.
      if (!present) return under(key, fail('invalid_type', undefined, { expected: 'nonoptional' }));
      parsed[key] = result;
    }
    if (this.unknownKeys === 'strip') return parsed;
    const unknown: string[] = [];
    for (const key in value) {
      if (Object.hasOwn(this.shape, key)) continue;
      if (this.unknownKeys === 'strict') unknown.push(key);
      else if (key !== '__proto__') parsed[key] = value[key];
    }
    return unknown.length > 0 ? fail('unrecognized_keys', undefined, { keys: unknown }) : parsed;
  }
}

/** A finite number (`NaN` and `±Infinity` refused, as zod 4 does). @internal */
export const number = (message?: Message): NumberSchema => new NumberSchema(messageOf(message));
/** A string. @internal */
export const string = (message?: Message): StringSchema => new StringSchema(messageOf(message));
/** `true` or `false`. @internal */
export const boolean = (message?: Message): Schema<boolean> => new TypeSchema<boolean>('boolean', messageOf(message));
/** Anything. @internal */
export const unknown = (): Schema<unknown> => new TypeSchema<unknown>('unknown', undefined);
/** One of `values`. @internal */
export const enumOf = <const Value extends string>(values: readonly Value[], message?: Message): Schema<Value> =>
  new EnumSchema(values, messageOf(message));
/** A value `accepts` returns truthy for. @internal */
export const custom = <Output>(accepts: (value: unknown) => unknown, message?: Message): Schema<Output> =>
  new CustomSchema<Output>(accepts, messageOf(message));
/** An array of `item`. @internal */
export const array = <Item>(item: Schema<Item>, message?: Message): ArraySchema<Item[]> =>
  new ArraySchema<Item[]>(item, messageOf(message));
/** A plain object of string keys to `item` (`z.record(z.string(), item)`). @internal */
export const record = <Item>(item: Schema<Item>, message?: Message): Schema<Record<string, Item>> =>
  new RecordSchema<Record<string, Item>>(item, messageOf(message));
/** An object of `shape`; other keys are dropped from the parsed value. @internal */
export const object = <S extends Shape>(shape: S, message?: Message): Schema<ShapeOutput<S>> =>
  new ObjectSchema<S, ShapeOutput<S>>(shape, 'strip', messageOf(message));
/** An object of `shape` and nothing else: an unknown key (a typo) is refused. @internal */
export const strictObject = <S extends Shape>(shape: S, message?: Message): Schema<ShapeOutput<S>> =>
  new ObjectSchema<S, ShapeOutput<S>>(shape, 'strict', messageOf(message));
/** An object of `shape`; other keys are kept as they are. @internal */
export const looseObject = <S extends Shape>(
  shape: S,
  message?: Message,
): Schema<ShapeOutput<S> & Record<string, unknown>> =>
  new ObjectSchema<S, ShapeOutput<S> & Record<string, unknown>>(shape, 'loose', messageOf(message));
