import { deepFreeze } from '../internal/deep-freeze.js';
import { sessionEntrySchema } from '../schemas/entries.js';
import type { SessionEntry } from '../session-entry.js';
import { describeIssues } from '../validation/zod-issues.js';
import { isStoredEntry } from './is-stored-entry.js';

/**
 * Validates a stored entry (a line of a file, a row); returns a description of what is wrong
 * instead of throwing.
 *
 * @internal
 */
export function parseStoredEntry(value: unknown): { entry: SessionEntry } | { problem: string } {
  // The fast check accepts exactly what the schema accepts; the schema only words the refusal.
  // Valid entries are not marked one by one: the store marks the arrays it returns.
  if (isStoredEntry(value)) return { entry: deepFreeze(value as SessionEntry) };
  const parsed = sessionEntrySchema.safeParse(value);
  if (!parsed.success) return { problem: describeIssues(parsed.error, 'entry') };
  return { entry: deepFreeze(value as SessionEntry) };
}
