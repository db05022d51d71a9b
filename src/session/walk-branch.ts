import { SessionError } from '../errors.js';
import type { SessionEntry } from '../session-entry.js';
import { describeValue } from '../validation/describe-value.js';
import { checkEntry, checkEntryCollection, checkOptionsObject, isFrozenEntry, isStoreArray } from './check-entries.js';
import { contextBranchHead } from './context-branch.js';

/**
 * Entries of a session tree: an array (in append order) or a map by id.
 *
 * @example
 * ```ts
 * const entries: SessionEntries = await store.getEntries(sessionId);
 * ```
 */
export type SessionEntries = readonly SessionEntry[] | ReadonlyMap<string, SessionEntry>;

/**
 * Options of {@link walkBranch}.
 *
 * @example
 * ```ts
 * const options: WalkBranchOptions = { leafId: 'e42' };
 * ```
 */
export interface WalkBranchOptions {
  /** The last entry of the path; `null` gives an empty path. @default the newest entry */
  leafId?: string | null;
}

interface EntryIndex {
  length: number;
  last: SessionEntry | undefined;
  byId: Map<string, SessionEntry>;
}

const indexes = new WeakMap<readonly SessionEntry[], EntryIndex>();

/**
 * The entries by id. An array is indexed once and then only for what was appended to it (entries
 * are append-only; an array that shrank or whose indexed tail changed is indexed again).
 *
 * @internal
 */
function indexEntries(entries: SessionEntries): ReadonlyMap<string, SessionEntry> {
  if (!Array.isArray(entries)) return entries as ReadonlyMap<string, SessionEntry>;
  const list = entries as readonly SessionEntry[];
  let index = indexes.get(list);
  if (index === undefined || index.length > list.length || list[index.length - 1] !== index.last) {
    index = { length: 0, last: undefined, byId: new Map() };
    indexes.set(list, index);
  }
  for (let position = index.length; position < list.length; position++) {
    const entry = list[position]!;
    if (typeof entry !== 'object' || entry === null) {
      throw new SessionError({
        message: `entries[${position}] must be a session entry object (got ${describeValue(entry)}).`,
        code: 'INPUT_INVALID',
      });
    }
    index.byId.set(entry.id, entry);
  }
  index.length = list.length;
  index.last = list[list.length - 1];
  return index.byId;
}

/**
 * The newest entry's id: the last of the array, or the last inserted into the map.
 *
 * @internal
 */
function newestEntryId(entries: SessionEntries): string | null {
  if (Array.isArray(entries)) {
    const list = entries as readonly SessionEntry[];
    return list.length === 0 ? null : list[list.length - 1]!.id;
  }
  let last: string | null = null;
  for (const id of (entries as ReadonlyMap<string, SessionEntry>).keys()) last = id;
  return last;
}

/**
 * Walks a session tree from a leaf back to its root by `parentId`, and returns the path root
 * first. The walk always ends: an unknown leaf, a missing parent or a cycle is a `SessionError`.
 *
 * @param entries - The session's entries, as an array (append order) or a map by id; not mutated.
 * @param options - The leaf.
 * @returns The entries from the root to the leaf.
 * @throws `SessionError` with code `ENTRY_NOT_FOUND` (unknown leaf), `PARENT_MISSING` (an entry
 * names a parent that is not there) or `TREE_CYCLE`.
 *
 * @example
 * ```ts
 * const path = walkBranch(await store.getEntries(sessionId), { leafId: await store.getLeaf(sessionId) });
 * ```
 */
export function walkBranch(entries: SessionEntries, options: WalkBranchOptions = {}): SessionEntry[] {
  return walkCheckedBranch('walkBranch', entries, options);
}

/**
 * {@link walkBranch} for a named public function: checks the collection, the options and every entry
 * on the path, so bad input fails with a `SessionError` (`INPUT_INVALID`) naming `functionName`.
 * With `acceptContextBranch`, an array that is a context branch (see `SessionStore.getBranch`)
 * is walked as far as it goes and returned with its metadata entries ahead.
 *
 * @internal
 */
export function walkCheckedBranch(
  functionName: string,
  entries: SessionEntries,
  options: WalkBranchOptions | undefined,
  acceptContextBranch = false,
): SessionEntry[] {
  checkEntryCollection(functionName, entries);
  checkOptionsObject(functionName, options);
  const leafOption = options?.leafId;
  if (leafOption !== undefined && leafOption !== null && typeof leafOption !== 'string') {
    throw new SessionError({
      message: `${functionName}: options.leafId must be an entry id (a string), null or left out.`,
      code: 'INPUT_INVALID',
    });
  }
  const list = Array.isArray(entries) ? (entries as readonly unknown[]) : undefined;
  const last = list === undefined ? undefined : list[list.length - 1];
  // Entries a store returned are valid (as long as they are its frozen ones); the rest are checked.
  const trusted = isStoreArray(entries);
  const check = (entry: unknown) => {
    if (!trusted || !isFrozenEntry(entry)) checkEntry(functionName, entry);
  };
  if (list !== undefined && list.length > 0) check(last);
  const leafId = leafOption === undefined ? newestEntryId(entries) : leafOption;
  if (leafId === null) return [];
  const byId = indexEntries(entries);
  const leaf = byId.get(leafId);
  if (leaf === undefined) {
    throw new SessionError({
      message: `Entry "${leafId}" is not in the session, so there is no branch to walk from it. Pass the id of an existing entry (or null for an empty branch).`,
      code: 'ENTRY_NOT_FOUND',
    });
  }
  const path: SessionEntry[] = [];
  let entry: SessionEntry = leaf;
  for (;;) {
    // A path longer than the number of entries must have come back to one: a cycle. Counting
    // instead of remembering every id keeps a 100,000-entry walk cheap.
    if (path.length >= byId.size) {
      const again = path.find((earlier) => earlier.id === entry.id) ?? entry;
      throw new SessionError({
        message: `The session tree has a cycle through entry "${again.id}": following parentId from "${leafId}" comes back to it. The stored tree is corrupt.`,
        code: 'TREE_CYCLE',
      });
    }
    check(entry);
    path.push(entry);
    if (entry.parentId === null) break;
    const parent = byId.get(entry.parentId);
    if (parent === undefined && acceptContextBranch && list !== undefined) {
      const head = contextBranchHead(list as readonly SessionEntry[], path);
      if (head !== undefined) {
        for (const metadata of head) check(metadata);
        return [...head, ...path.reverse()];
      }
    }
    if (parent === undefined) {
      throw new SessionError({
        message: `Entry "${entry.id}" names parent "${entry.parentId}", which is not in the session. The stored tree is incomplete; move the leaf to another branch with setLeaf.`,
        code: 'PARENT_MISSING',
      });
    }
    entry = parent;
  }
  return path.reverse();
}
