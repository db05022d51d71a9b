// How every error message describes a value it was given, without converting it to a string
// (which throws for objects without a prototype, symbols and BigInt in JSON).

/** A short, printable description of a value for an error message. @internal */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'function') return 'a function';
  return typeof value === 'object' ? 'an object' : typeof value;
}
