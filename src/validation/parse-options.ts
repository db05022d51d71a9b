// One way to validate the options of a public function: a schema, parsed by `parseOptions`, whose
// error names the function, the field and the fix:
//   splitByTokenBudget: options.budget must be a finite number ≥ 0 (got -1)
// Schemas say what a field must be (`must be …`); the helper adds who, where and what was given.
// The schemas are the light ones of `light-schema.ts` (zod's shape and verdicts, without zod's weight),
// or zod schemas where an entry carries zod anyway (`zod-option.ts`): both report zod-shaped issues.
import type { TokenCounter } from '../counting/token-counter.js';
import { ConfigError } from '../errors.js';
import type { Summarizer } from '../summarizing/summarizer-types.js';
import { describeValue } from './describe-value.js';
import * as v from './light-schema.js';

const isCount = (value: unknown) =>
  value === undefined || (typeof value === 'number' && Number.isFinite(value) && value >= 0);

/** The fields of a zod issue (or a light schema's) the message is made of. */
type Issue =
  | { code: 'unrecognized_keys'; keys: readonly string[]; path: readonly PropertyKey[]; message: string }
  | { code: 'invalid_value'; values: readonly unknown[]; path: readonly PropertyKey[]; message: string }
  | { code: 'invalid_type'; expected: string; path: readonly PropertyKey[]; message: string }
  | { code: string; path: readonly PropertyKey[]; message: string };

/** What `parseOptions` takes: a zod schema or a light one, both parsed with `safeParse`. @internal */
export interface OptionsSchema<Output = unknown> {
  safeParse(input: unknown): { success: true; data: Output } | { success: false; error: { issues: readonly object[] } };
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

const ARTICLE: Record<string, string> = { array: 'an array', object: 'an object', function: 'a function' };

/** What the field must be, as a phrase that completes "`<field>` …". */
function requirement(issue: Issue): string {
  if ('keys' in issue && issue.code === 'unrecognized_keys') {
    return `has unknown key${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((key) => `"${key}"`).join(', ')}: remove ${issue.keys.length === 1 ? 'it' : 'them'} or check the spelling`;
  }
  if ('values' in issue && issue.code === 'invalid_value') {
    return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
  }
  // A custom message (`v.number({ error: 'must be …' })`) wins over the generic one.
  if (issue.message.startsWith('must ')) return issue.message;
  if ('expected' in issue && issue.code === 'invalid_type') {
    return `must be ${ARTICLE[issue.expected] ?? `a ${issue.expected}`}`;
  }
  return `is invalid: ${issue.message}`;
}

/**
 * The {@link ConfigError} for a failed parse: `<function>: <name>.<field> <requirement> (got <value>)`.
 *
 * @internal
 */
function optionsError(
  functionName: string,
  error: { issues: readonly object[] },
  input: unknown,
  name = 'options',
): ConfigError {
  const issue = error.issues[0] as Issue | undefined;
  const path = issue?.path ?? [];
  const field = path.map(String).join('.');
  const where = field === '' ? name : `${name}.${field}`;
  // The field as the host spells it inside the value: `where` without its first segment (`options`).
  const dotted = where.includes('.') ? where.slice(where.indexOf('.') + 1) : where;
  if (issue === undefined) {
    return new ConfigError({ message: `${functionName}: ${where} is invalid`, field: dotted, cause: error });
  }
  const got = issue.code === 'unrecognized_keys' ? '' : ` (got ${describeValue(valueAt(input, path))})`;
  return new ConfigError({
    message: `${functionName}: ${where} ${requirement(issue)}${got}`,
    field: dotted,
    cause: error,
  });
}

/**
 * Parses the options of a public function with `schema`, or throws a {@link ConfigError} that names
 * the function, the field and the fix.
 *
 * @param functionName - The public function, as the host calls it (`splitByTokenBudget`).
 * @param schema - The options schema; give fields messages that start with `must` (see `option`).
 * @param input - What the host passed.
 * @param name - How the host knows the value in the message. @default 'options'
 * @returns The parsed options.
 *
 * @internal
 */
export function parseOptions<Output>(
  functionName: string,
  schema: OptionsSchema<Output>,
  input: unknown,
  name = 'options',
): Output {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw optionsError(functionName, parsed.error, input, name);
}

/**
 * The schema of {@link option.bag}: built once, on first use (functions check their options on every
 * call).
 */
let optionsBag: v.Schema<Record<string, unknown> | undefined> | undefined;

/**
 * Field schemas with messages in the shape `parseOptions` prints (`must be …`), shared so every
 * function words the same rule the same way.
 *
 * @internal
 */
export const option = {
  /** A finite number ≥ 0 (token budgets, counts that may be fractional). */
  tokens: () => v.number({ error: 'must be a finite number ≥ 0' }).min(0, 'must be a finite number ≥ 0'),
  /** A whole number ≥ 0. */
  count: () =>
    v
      .number({ error: 'must be a whole number ≥ 0' })
      .int('must be a whole number ≥ 0')
      .min(0, 'must be a whole number ≥ 0'),
  /** A whole number ≥ 1. */
  positive: () =>
    v
      .number({ error: 'must be a whole number ≥ 1' })
      .int('must be a whole number ≥ 1')
      .min(1, 'must be a whole number ≥ 1'),
  /** A share of a whole: greater than 0, at most 1. */
  share: () =>
    v
      .number({ error: 'must be a number greater than 0 and at most 1' })
      .gt(0, 'must be a number greater than 0 and at most 1')
      .lte(1, 'must be a number greater than 0 and at most 1'),
  /** A token counter: an object with a `count(text)` method. */
  counter: () =>
    v.custom<TokenCounter>((value) => {
      if (typeof value !== 'object' || value === null) return false;
      const counter = value as TokenCounter;
      return typeof counter.count === 'function' && isCount(counter.imageTokens) && isCount(counter.messageOverhead);
    }, 'must be a TokenCounter: an object with a count(text) method, and imageTokens and messageOverhead finite numbers ≥ 0 when set'),
  /** A summarizer: an object with a `summarize(request)` method. */
  summarizer: () =>
    v.custom<Summarizer>(
      (value) => typeof (value as { summarize?: unknown } | null)?.summarize === 'function',
      'must be a Summarizer, an object with a summarize() method: createSummarizer({ complete }) for a model, or heuristicSummarizer when none is available',
    ),
  /**
   * An options object, or nothing: only that it is an object (its fields are checked by the
   * function's own schema). Use it where a function reads its options before validating them, so
   * `null` or a string fails naming `options` instead of as a `TypeError`.
   */
  bag: () => {
    optionsBag ??= v.looseObject({}, { error: 'must be an object (or left out)' }).optional();
    return optionsBag;
  },
  /** An options object of exactly these fields, or nothing: an unknown field (a typo) is refused. */
  fields: <Shape extends v.Shape>(shape: Shape) =>
    v.strictObject(shape, { error: 'must be an object (or left out)' }).optional(),
  /** A directory path: a non-empty string. */
  directory: () =>
    v
      .string({ error: 'must be a directory path (a non-empty string)' })
      .min(1, 'must be a directory path (a non-empty string)'),
  /** A clock: a function that returns the time in milliseconds. */
  clock: () =>
    v.custom<() => number>(
      (value) => typeof value === 'function',
      'must be a function that returns the time in milliseconds, like Date.now',
    ),
  /** An AbortSignal. */
  signal: () =>
    v.custom<AbortSignal>((value) => {
      const signal = value as Partial<AbortSignal> | null;
      return typeof signal === 'object' && signal !== null && typeof signal.aborted === 'boolean';
    }, 'must be an AbortSignal (from an AbortController)'),
};
