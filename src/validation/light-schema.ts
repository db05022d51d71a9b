// The option checks of the functions a browser or edge bundle reaches (`createContextManager`, the
// pipeline, the summarizers, the model tables), written by hand in zod's shape: `v.strictObject({
// budget: v.number().min(0) })` decides exactly what the zod schema of the same shape decides and
// reports the same first issue (code, path, message), so `parseOptions` words both alike. A
// property test builds random schemas both ways and holds them equal
// (`test/validation/light-schema.test.ts`). Zod itself would put ~27 KB gzipped into those bundles;
// this is under 2. Only what the option checks use is here: no unions, transforms or refinements
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
 * issue with the check's message (`v.number({ error })`), if any.
 *
 * @internal
 */
export class Schema<Output> {
  /** The type of a parsed value (types only). */
  declare readonly _output: Output;

  /**
   * @param run - The parsed value of a value, or its first issue as a `Failure` (never thrown).
   * @param isOptional - Whether `undefined` (and a missing key) is accepted.
   */
  constructor(
    readonly run: (value: unknown) => unknown,
    readonly isOptional = false,
  ) {}

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
    return new Schema((value) => (value === undefined ? undefined : this.run(value)), true);
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

/** A bound of a number: at least / more than, at most, or a safe integer. */
type Bound = { kind: 'min' | 'max' | 'int'; value: number; inclusive: boolean; message: string | undefined };

/** The first issue of a finite number against `bounds`, in order. */
function boundIssue(value: number, bounds: readonly Bound[], fallback: string | undefined): Failure | undefined {
  for (const { message = fallback, ...bound } of bounds) {
    if (bound.kind === 'int') {
      if (!Number.isInteger(value)) return fail('invalid_type', message, { expected: 'int' });
      if (!Number.isSafeInteger(value)) {
        return value > 0
          ? fail('too_big', message, { origin: 'int', bound: Number.MAX_SAFE_INTEGER, inclusive: true })
          : fail('too_small', message, { origin: 'int', bound: Number.MIN_SAFE_INTEGER, inclusive: true });
      }
      continue;
    }
    const min = bound.kind === 'min';
    const within = min
      ? bound.inclusive
        ? value >= bound.value
        : value > bound.value
      : bound.inclusive
        ? value <= bound.value
        : value < bound.value;
    if (!within)
      return fail(min ? 'too_small' : 'too_big', message, { bound: bound.value, inclusive: bound.inclusive });
  }
  return undefined;
}

class NumberSchema extends Schema<number> {
  constructor(
    readonly message: string | undefined,
    readonly bounds: readonly Bound[] = [],
  ) {
    super((value) =>
      typeof value !== 'number' || !Number.isFinite(value)
        ? fail('invalid_type', message, { expected: 'number' })
        : (boundIssue(value, bounds, message) ?? value),
    );
  }
  /** This check with one more bound. */
  and(kind: Bound['kind'], value: number, inclusive: boolean, message: Message | undefined): NumberSchema {
    return new NumberSchema(this.message, [...this.bounds, { kind, value, inclusive, message: messageOf(message) }]);
  }
  /** A whole number (a safe integer). */
  int(message?: Message): NumberSchema {
    return this.and('int', 0, true, message);
  }
  /** At least `value`. */
  min(value: number, message?: Message): NumberSchema {
    return this.and('min', value, true, message);
  }
  /** Greater than `value`. */
  gt(value: number, message?: Message): NumberSchema {
    return this.and('min', value, false, message);
  }
  /** At most `value`. */
  lte(value: number, message?: Message): NumberSchema {
    return this.and('max', value, true, message);
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
    minimum?: { value: number; message: string | undefined },
  ) {
    super((value) => {
      if (typeof value !== 'string') return fail('invalid_type', message, { expected: 'string' });
      if (minimum === undefined || value.length >= minimum.value) return value;
      return fail('too_small', minimum.message ?? message, { origin: 'string', bound: minimum.value, inclusive: true });
    });
  }
  /** At least `value` characters (UTF-16 code units, as `length` counts). */
  min(value: number, message?: Message): StringSchema {
    return new StringSchema(this.message, { value, message: messageOf(message) });
  }
}

/** The items of an array, each parsed, or the first item's issue. */
function parseItems(value: unknown[], item: Schema<unknown>): unknown[] | Failure {
  const items: unknown[] = [];
  for (let index = 0; index < value.length; index++) {
    const parsed = item.run(value[index]);
    if (parsed instanceof Failure) return under(index, parsed);
    items.push(parsed);
  }
  return items;
}

class ArraySchema<Output> extends Schema<Output> {
  constructor(
    readonly item: Schema<unknown>,
    readonly message: string | undefined,
    frozen = false,
  ) {
    super((value) => {
      if (!Array.isArray(value)) return fail('invalid_type', message, { expected: 'array' });
      const items = parseItems(value, item);
      return frozen && Array.isArray(items) ? Object.freeze(items) : items;
    });
  }
  /** The parsed array, frozen. */
  readonly(): ArraySchema<Readonly<Output>> {
    return new ArraySchema(this.item, this.message, true);
  }
}

function parseRecord(value: unknown, item: Schema<unknown>, message: string | undefined): unknown {
  if (!isPlainObject(value)) return fail('invalid_type', message, { expected: 'record' });
  const parsed: Record<PropertyKey, unknown> = {};
  for (const key of Reflect.ownKeys(value)) {
    if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(value, key)) continue;
    if (typeof key === 'symbol') return under(key, fail('invalid_key', undefined));
    const result = item.run(value[key]);
    if (result instanceof Failure) return under(key, result);
    parsed[key] = result;
  }
  return parsed;
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

function parseObject(value: unknown, shape: Shape, unknownKeys: UnknownKeys, message: string | undefined): unknown {
  if (!isObject(value)) return fail('invalid_type', message, { expected: 'object' });
  const parsed: Record<string, unknown> = {};
  for (const key of Object.keys(shape)) {
    const field = shape[key] as Schema<unknown>;
    const present = key in value;
    if (!present && field.isOptional) continue;
    const result = field.run(value[key]);
    if (result instanceof Failure) return under(key, result);
    // A missing key that the check would let through as `undefined` is still missing.
    if (!present) return under(key, fail('invalid_type', undefined, { expected: 'nonoptional' }));
    parsed[key] = result;
  }
  if (unknownKeys === 'strip') return parsed;
  const unknown: string[] = [];
  for (const key in value) {
    if (Object.hasOwn(shape, key)) continue;
    if (unknownKeys === 'strict') unknown.push(key);
    else if (key !== '__proto__') parsed[key] = value[key];
  }
  return unknown.length > 0 ? fail('unrecognized_keys', undefined, { keys: unknown }) : parsed;
}

/** A finite number (`NaN` and `±Infinity` refused, as zod 4 does). @internal */
export const number = (message?: Message): NumberSchema => new NumberSchema(messageOf(message));
/** A string. @internal */
export const string = (message?: Message): StringSchema => new StringSchema(messageOf(message));
/** `true` or `false`. @internal */
export const boolean = (message?: Message): Schema<boolean> =>
  new Schema((value) =>
    typeof value === 'boolean' ? value : fail('invalid_type', messageOf(message), { expected: 'boolean' }),
  );
/** Anything. @internal */
export const unknown = (): Schema<unknown> => new Schema((value) => value);
/** One of `values`. @internal */
export const enumOf = <const Value extends string>(values: readonly Value[], message?: Message): Schema<Value> =>
  new Schema((value) =>
    values.includes(value as Value) ? value : fail('invalid_value', messageOf(message), { values }),
  );
/** A value `accepts` returns truthy for. @internal */
export const custom = <Output>(accepts: (value: unknown) => unknown, message?: Message): Schema<Output> =>
  new Schema((value) => (accepts(value) ? value : fail('custom', messageOf(message))));
/** An array of `item`. @internal */
export const array = <Item>(item: Schema<Item>, message?: Message): ArraySchema<Item[]> =>
  new ArraySchema<Item[]>(item, messageOf(message));
/** A plain object of string keys to `item` (`z.record(z.string(), item)`). @internal */
export const record = <Item>(item: Schema<Item>, message?: Message): Schema<Record<string, Item>> =>
  new Schema((value) => parseRecord(value, item, messageOf(message)));
/** An object of `shape`; other keys are dropped from the parsed value. @internal */
export const object = <S extends Shape>(shape: S, message?: Message): Schema<ShapeOutput<S>> =>
  new Schema((value) => parseObject(value, shape, 'strip', messageOf(message)));
/** An object of `shape` and nothing else: an unknown key (a typo) is refused. @internal */
export const strictObject = <S extends Shape>(shape: S, message?: Message): Schema<ShapeOutput<S>> =>
  new Schema((value) => parseObject(value, shape, 'strict', messageOf(message)));
/** An object of `shape`; other keys are kept as they are. @internal */
export const looseObject = <S extends Shape>(
  shape: S,
  message?: Message,
): Schema<ShapeOutput<S> & Record<string, unknown>> =>
  new Schema((value) => parseObject(value, shape, 'loose', messageOf(message)));
