/**
 * Boundary checks for session entries a host hands to the session functions (`walkBranch`,
 * `buildContextFromBranch`, …): a malformed entry fails with a `SessionError` (`INPUT_INVALID`) that
 * names the function, the entry and the field, not with a `TypeError` deep inside. Each entry object
 * is checked once (entries are immutable), and entries the stores validated are known good already.
 *
 * @internal
 */
import { SessionError } from '../errors.js';
import { describeValue } from '../validation/describe-value.js';
import { entryProblem } from './entry-problem.js';
import { isStoredEntry } from './is-stored-entry.js';

const known = new WeakSet<object>();

/** Records an entry as valid (the stores call it for what they validated). */
export function markValidEntry(entry: object): void {
  known.add(entry);
}

/** Arrays of entries a store returned: every entry in them is valid, so walks need not check them. */
const storeArrays = new WeakSet<readonly unknown[]>();

/**
 * Records an array a store returns as holding only valid entries. One mark per read, not one per
 * entry: a 100,000-entry read adds one object to the weak set, not 100,000 (which the garbage
 * collector pays for on every major collection).
 */
export function markStoreEntries<T extends readonly unknown[]>(entries: T): T {
  storeArrays.add(entries);
  return entries;
}

/** Whether an array came from a store (then the entries the store put in it are known valid). */
export function isStoreArray(entries: unknown): boolean {
  return Array.isArray(entries) && storeArrays.has(entries);
}

/**
 * Whether an entry of a store array is one the store put there: stores deep-freeze every entry
 * they return, so a value that is not a frozen object was pushed or put in place by the host, and
 * is checked like any other (one `Object.isFrozen` per entry, no record kept).
 */
export function isFrozenEntry(entry: unknown): boolean {
  return typeof entry === 'object' && entry !== null && Object.isFrozen(entry);
}

/** Throws unless `entries` is an array or a Map of entries. */
export function checkEntryCollection(functionName: string, entries: unknown): void {
  if (Array.isArray(entries) || entries instanceof Map) return;
  throw new SessionError({
    message: `${functionName}: entries must be an array of session entries (store.getEntries or store.getBranch) or a Map by id, received ${describeValue(entries)}.`,
    code: 'INPUT_INVALID',
  });
}

/** Throws unless `options` is an object or undefined. */
export function checkOptionsObject(functionName: string, options: unknown): void {
  if (options === undefined || (typeof options === 'object' && options !== null && !Array.isArray(options))) return;
  throw new SessionError({
    message: `${functionName}: options must be an object or left out, received ${describeValue(options)}.`,
    code: 'INPUT_INVALID',
  });
}

/** Throws unless `entry` is a valid session entry. */
export function checkEntry(functionName: string, entry: unknown): void {
  if (typeof entry === 'object' && entry !== null && known.has(entry)) return;
  if (isStoredEntry(entry)) {
    known.add(entry as object);
    return;
  }
  const problem = entryProblem(entry);
  if (problem === undefined) {
    known.add(entry as object);
    return;
  }
  const id = typeof (entry as { id?: unknown } | null)?.id === 'string' ? ` "${(entry as { id: string }).id}"` : '';
  throw new SessionError({
    message: `${functionName}: entry${id}${problem}; pass entries as the session stores return them (see the SessionEntry type).`,
    code: 'INPUT_INVALID',
  });
}

/** Throws unless `options` is an object with a store (a `SessionStore`) and a session id. */
export function checkSessionOptions(functionName: string, options: unknown): void {
  const value = options as { store?: { getBranch?: unknown }; sessionId?: unknown } | null | undefined;
  const problem =
    typeof value !== 'object' || value === null
      ? `options must be an object, received ${describeValue(options)}`
      : typeof value.store?.getBranch !== 'function'
        ? 'options.store must be a SessionStore (createInMemorySessionStore(), createJsonlStore(), …)'
        : typeof value.sessionId !== 'string'
          ? 'options.sessionId must be the id (a string) of a session in the store'
          : undefined;
  if (problem !== undefined) {
    throw new SessionError({ message: `${functionName}: ${problem}.`, code: 'INPUT_INVALID' });
  }
}
