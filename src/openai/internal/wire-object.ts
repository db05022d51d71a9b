import { ContextError } from '../../errors.js';

// Loose reading of the OpenAI wire objects, and the converters' input error naming the function,
// the field and what it received.

/** Any JSON object from the wire. @internal */
export type WireObject = Record<string, unknown>;

/** Whether `value` is a plain object (not null, not an array). @internal */
export function isObject(value: unknown): value is WireObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A `ContextError` for input that is not the wire format, naming where. @internal */
export function invalid(where: string, path: string, detail: string): ContextError {
  return new ContextError({ message: `${where}: ${path} ${detail}`, code: 'INPUT_INVALID' });
}

/** A short description of a received value, for error messages. @internal */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/** Checks that `value` is a string. @internal */
export function expectString(value: unknown, where: string, path: string): string {
  if (typeof value !== 'string') throw invalid(where, path, `must be a string, received ${describe(value)}.`);
  return value;
}

/** Checks that `value` is a plain object; `fix` is appended to the error. @internal */
export function expectObject(value: unknown, where: string, path: string, fix = ''): WireObject {
  if (!isObject(value)) throw invalid(where, path, `must be an object, received ${describe(value)}.${fix}`);
  return value;
}

/** Checks that `value` is an array. @internal */
export function expectArray(value: unknown, where: string, path: string): unknown[] {
  if (!Array.isArray(value)) throw invalid(where, path, `must be an array, received ${describe(value)}.`);
  return value;
}
