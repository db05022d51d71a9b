import type { SessionEntry } from '../session-entry.js';

/**
 * Where a lazily indexed session's entries come from (the JSONL store's file).
 *
 * @internal
 */
export interface EntrySource {
  /** The entry at a position, parsed and validated (throws {@link SourceMismatch} when it is not an entry). */
  load(position: number): SessionEntry;
  /** The id of the entry at a position, without parsing the entry. */
  idAt(position: number): string;
  /** Whether the entry at a position has the id `id` (what {@link idAt} would return, compared without decoding it). */
  hasId(position: number, id: string): boolean;
}

/**
 * Thrown when a lazily indexed source turns out not to be what its index said (a damaged or
 * edited line): the store reads the session again in full.
 *
 * @internal
 */
export class SourceMismatch extends Error {
  override readonly name = 'SourceMismatch';
}
