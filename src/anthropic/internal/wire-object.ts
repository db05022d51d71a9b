import { ContextError } from '../../errors.js';

// Loose reading of the Anthropic wire objects, and the adapter's input error naming the function,
// the field and what it received.

/** A wire object, read loosely. @internal */
export type WireObject = Record<string, unknown>;

/** Throws the adapter's input error, naming the function and the field. @internal */
export function invalid(where: string, path: string, problem: string): never {
  throw new ContextError({ message: `${where}: ${path} ${problem}.`, code: 'INPUT_INVALID' });
}

/** Checks that `value` is a plain object. @internal */
export function expectObject(value: unknown, where: string, path: string): WireObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    invalid(
      where,
      path,
      `must be an object, received ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`,
    );
  }
  return value as WireObject;
}

/** Checks that `object[key]` is a string (non-empty when `nonEmpty`). @internal */
export function expectString(object: WireObject, key: string, where: string, path: string, nonEmpty = false): string {
  const value = object[key];
  if (typeof value !== 'string' || (nonEmpty && value.length === 0)) {
    invalid(where, `${path}.${key}`, `must be a ${nonEmpty ? 'non-empty ' : ''}string, received ${describe(value)}`);
  }
  return value;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value;
}
