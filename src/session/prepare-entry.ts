import { SessionError } from '../errors.js';
import { deepFreeze } from '../internal/deep-freeze.js';
import type { SessionEntry } from '../session-entry.js';
import { markValidEntry } from './check-entries.js';
import { describeEntryProblems } from './parse-stored-entry.js';
import type { SessionIndex } from './session-index.js';
import { toJson } from './session-info.js';

/**
 * Validates an entry appended to a session and fills in its id, parent (the leaf) and timestamp,
 * without changing the index.
 *
 * @internal
 */
export function prepareEntry(index: SessionIndex, input: unknown, now: number): SessionEntry {
  // Validate what will be stored: the JSON form (a `toJSON` method or an `undefined` field changes it).
  const json = toJson(input);
  const problem = describeEntryProblems(json, true);
  if (problem !== '') {
    throw new SessionError({
      message: `Invalid entry for session "${index.info.id}": ${problem}.`,
      code: 'INPUT_INVALID',
    });
  }
  const { id, parentId, timestamp, type, ...rest } = json as Record<string, unknown>;
  const entryId = (id as string | undefined) ?? crypto.randomUUID();
  if (index.has(entryId)) {
    throw new SessionError({
      message: `Entry id "${entryId}" is already used in session "${index.info.id}"; entry ids are unique.`,
      code: 'INPUT_INVALID',
    });
  }
  const parent = parentId === undefined ? index.leafId : (parentId as string | null);
  if (parent !== null && !index.has(parent)) {
    throw new SessionError({
      message: `entry.parentId: "${parent}" is not an entry of session "${index.info.id}". Omit parentId to continue from the leaf.`,
      code: 'PARENT_MISSING',
    });
  }
  // The fields every line starts with, in this order, let a reader index a file without parsing it.
  const entry = { id: entryId, parentId: parent, timestamp: timestamp ?? now, type, ...rest } as SessionEntry;
  checkReferences(index, entry);
  markValidEntry(entry);
  return deepFreeze(entry);
}

/**
 * An entry that points at another must point at one that can serve: a compaction keeps from an
 * entry on its own branch (or every later context of the branch fails to build), and a branch
 * summary or a label names an entry of the session.
 */
function checkReferences(index: SessionIndex, entry: SessionEntry): void {
  if (entry.type === 'compaction') {
    const parent = entry.parentId === null ? undefined : index.positionOf(entry.parentId);
    if (keepsFromItsBranch(index, entry.firstKeptEntryId, parent)) return;
    throw new SessionError({
      message: `entry.firstKeptEntryId: "${entry.firstKeptEntryId}" is not on the branch the compaction is appended to. Keep from an entry between the root and the compaction's parent.`,
      code: 'INPUT_INVALID',
    });
  }
  const target = entry.type === 'branch_summary' ? entry.fromId : entry.type === 'label' ? entry.targetId : undefined;
  if (target !== undefined && !index.has(target)) {
    const field = entry.type === 'branch_summary' ? 'fromId' : 'targetId';
    throw new SessionError({
      message: `entry.${field}: "${target}" is not an entry of session "${index.info.id}".`,
      code: 'INPUT_INVALID',
    });
  }
}

/**
 * Whether a compaction keeps from an entry of its own branch: `firstKeptEntryId` is its parent
 * (at position `parent` of `index`, which does not hold the compaction yet) or an ancestor of it.
 *
 * @internal
 */
export function keepsFromItsBranch(index: SessionIndex, firstKeptEntryId: string, parent: number | undefined): boolean {
  let position = parent;
  for (let steps = 0; position !== undefined && position >= 0 && steps <= index.size; steps++) {
    if (index.hasIdAt(position, firstKeptEntryId)) return true;
    position = index.parentOf(position);
  }
  return false;
}
