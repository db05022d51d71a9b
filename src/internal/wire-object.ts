import { ContextError } from '../errors.js';

// Loose reading of a provider's wire objects (OpenAI, Anthropic, the AI SDK), with one contract for
// input that is not the wire format: a thrown `ContextError` (code `INPUT_INVALID`) naming the
// function, the field and what it received.

/** Any JSON object from the wire, read loosely. @internal */
export type WireObject = Record<string, unknown>;

/** Whether `value` is a plain object (not null, not an array). @internal */
export function isObject(value: unknown): value is WireObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Throws the converters' input error: `where: path problem.` (the full stop added unless the problem
 * already ends a sentence). @internal
 */
export function invalid(where: string, path: string, problem: string): never {
  const stop = /[.!?]$/.test(problem) ? '' : '.';
  throw new ContextError({ message: `${where}: ${path} ${problem}${stop}`, code: 'INPUT_INVALID' });
}

/** A short description of a received value, for error messages. @internal */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/** Checks that `value` is a string (non-empty when `nonEmpty`). @internal */
export function expectString(value: unknown, where: string, path: string, nonEmpty = false): string {
  if (typeof value !== 'string' || (nonEmpty && value.length === 0)) {
    invalid(where, path, `must be a ${nonEmpty ? 'non-empty ' : ''}string, received ${describe(value)}`);
  }
  return value;
}

/** Checks that `object[key]` is a string (non-empty when `nonEmpty`); the error names `path.key`. @internal */
export function expectStringField(
  object: WireObject,
  key: string,
  where: string,
  path: string,
  nonEmpty = false,
): string {
  return expectString(object[key], where, `${path}.${key}`, nonEmpty);
}

/** Checks that `value` is a plain object; `fix` is appended to the error. @internal */
export function expectObject(value: unknown, where: string, path: string, fix = ''): WireObject {
  if (!isObject(value)) invalid(where, path, `must be an object, received ${describe(value)}.${fix}`);
  return value;
}

/** Checks that `value` is an array. @internal */
export function expectArray(value: unknown, where: string, path: string): unknown[] {
  if (!Array.isArray(value)) invalid(where, path, `must be an array, received ${describe(value)}`);
  return value;
}
