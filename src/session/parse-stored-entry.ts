import { deepFreeze } from '../internal/deep-freeze.js';
import type { SessionEntry } from '../session-entry.js';
import { entryProblems } from './entry-problem.js';
import { isStoredEntry } from './is-stored-entry.js';

/**
 * The problems of a value that is not an entry, each naming its field under `entry`
 * (`entry.message.content must be …`), joined for an error message or a diagnostic.
 *
 * @internal
 */
export function describeEntryProblems(value: unknown, input = false): string {
  return entryProblems(value, input)
    .map((problem) => `entry${problem}`)
    .join('; ');
}

/**
 * Validates a stored entry (a line of a file, a row); returns a description of what is wrong
 * instead of throwing.
 *
 * @internal
 */
export function parseStoredEntry(value: unknown): { entry: SessionEntry } | { problem: string } {
  // The fast check accepts exactly what `sessionEntrySchema` accepts; the problem finder (held equal
  // to it too) only words the refusal. Valid entries are not marked one by one: the store marks the
  // arrays it returns.
  if (isStoredEntry(value)) return { entry: deepFreeze(value as SessionEntry) };
  const problem = describeEntryProblems(value);
  if (problem !== '') return { problem };
  return { entry: deepFreeze(value as SessionEntry) };
}
