import { SESSION_ENTRY_TYPES } from '../session-entry.js';
import { messageProblem, nativeCompactionProblem } from '../validation/is-well-formed-message.js';

// What is wrong with a value that is not a session entry, written by hand so that a function that
// walks a host's entries can say it without carrying zod: it refuses exactly what
// `sessionEntrySchema` refuses (a property test holds the two equal, `test/session/is-stored-entry.test.ts`),
// and words the first problem as `<field> must be …`. It runs only once `isStoredEntry` has refused.

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A plain object: what a zod record accepts (an object literal or one without a prototype). */
function isRecord(value: unknown): boolean {
  if (!isObject(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

const id = (value: unknown, field: string) =>
  typeof value === 'string' && value.length > 0 ? undefined : `${field} must be a non-empty string`;
const string = (value: unknown, field: string) => (typeof value === 'string' ? undefined : `${field} must be a string`);
const optional = (value: unknown, problem: (value: unknown) => string | undefined) =>
  value === undefined ? undefined : problem(value);

/**
 * The first problem of `value` as a stored session entry: the field (`.message.content[0].text`, or
 * `''` for the value itself) followed by what it must be; `undefined` when it is an entry.
 *
 * @internal
 */
export function entryProblem(value: unknown): string | undefined {
  return entryProblems(value)[0];
}

/**
 * What is wrong with `value` as a stored session entry, or (`input`) as an entry a host appends
 * (`id`, `parentId` and `timestamp` may be left out): its problems, in the order
 * `sessionEntrySchema` / `sessionEntryInputSchema` report theirs (an unknown `type` alone, else the
 * fields every entry has, then the first problem of the entry's own fields). Empty when it is one.
 *
 * @internal
 */
export function entryProblems(value: unknown, input = false): string[] {
  if (!isObject(value)) return [' must be an object'];
  if (!(SESSION_ENTRY_TYPES as readonly string[]).includes(value.type as string))
    return [`.type must be one of ${SESSION_ENTRY_TYPES.map((type) => `'${type}'`).join(', ')}`];
  const { timestamp, parentId } = value;
  const skip = (field: unknown) => input && field === undefined;
  const problems = [
    skip(value.id) ? undefined : id(value.id, '.id'),
    skip(parentId) || parentId === null ? undefined : id(parentId, '.parentId')?.replace('string', 'string or null'),
    skip(timestamp) ||
    (typeof timestamp === 'number' && Number.isFinite(timestamp) && timestamp >= 0 && timestamp <= 8.64e15)
      ? undefined
      : '.timestamp must be a number of milliseconds since 1970, from 0 to 8.64e15',
    ownFieldProblem(value),
  ];
  return problems.filter((problem) => problem !== undefined);
}

/** The first problem of the fields of an entry of a known `type`. */
function ownFieldProblem(value: Record<string, unknown>): string | undefined {
  switch (value.type) {
    case 'message': {
      const problem = messageProblem(value.message);
      return problem === undefined ? undefined : `.message${problem}`;
    }
    case 'custom_message': {
      const content = value.content;
      const contentProblem =
        typeof content === 'string' || Array.isArray(content)
          ? messageProblem({ role: 'user', content })
          : '.content must be a string or an array of text and image parts';
      return (
        string(value.customType, '.customType') ??
        contentProblem ??
        optional(value.display, (display) => (typeof display === 'boolean' ? undefined : '.display must be a boolean'))
      );
    }
    case 'compaction':
      return (
        string(value.summary, '.summary') ??
        id(value.firstKeptEntryId, '.firstKeptEntryId') ??
        (typeof value.tokensBefore === 'number' && Number.isFinite(value.tokensBefore) && value.tokensBefore >= 0
          ? undefined
          : '.tokensBefore must be a finite number ≥ 0') ??
        nativeCompactionProblem(value.native, '.native')
      );
    case 'branch_summary':
      return id(value.fromId, '.fromId') ?? string(value.summary, '.summary');
    case 'model_change':
      return string(value.provider, '.provider') ?? string(value.modelId, '.modelId');
    case 'thinking_level_change':
      return string(value.thinkingLevel, '.thinkingLevel');
    case 'label':
      return id(value.targetId, '.targetId') ?? optional(value.label, (label) => string(label, '.label'));
    case 'session_info':
      return (
        optional(value.name, (name) => string(name, '.name')) ??
        optional(value.data, (data) => (isRecord(data) ? undefined : '.data must be a plain object'))
      );
    case 'custom':
      return string(value.customType, '.customType');
    default:
      return undefined;
  }
}
