/**
 * The in-memory index of one session that the memory and JSONL stores share (and the SQLite store
 * uses as its cache): validation and filling of appended entries, the leaf, branches and context
 * branches, the flat transcript. Entries are held by position (append order); a store that reads
 * lazily (JSONL) gives an {@link EntrySource} and only the entries a read needs are parsed.
 *
 * @internal
 */
import { SessionError } from '../errors.js';
import type { SessionEntry, SessionEntryType } from '../session-entry.js';
import { markStoreEntries } from './check-entries.js';
import { contextBranchOrder } from './context-cut.js';
import { type EntrySource, SourceMismatch } from './entry-source.js';
import { entryToMessage } from './entry-to-message.js';
import type { SessionInfo, TranscriptMessage } from './session-store.js';

/** A parent that is resolved by id on each walk (an entry added whole, whose parent may come later). */
const BY_ID = -2;
const ROOT = -1;

/**
 * One session held in memory.
 *
 * @internal
 */
export class SessionIndex {
  /** The leaf's id; `undefined` until read when {@link addIndexed} set the leaf by position. */
  private leaf: string | null | undefined = null;
  /** The leaf's position, when known (`-1` otherwise). */
  private leafPosition = -1;
  private readonly ids: (string | undefined)[] = [];
  private readonly parentIds: (string | null | undefined)[] = [];
  /** The parent's position, `ROOT`, or `BY_ID`. */
  private readonly parents: number[] = [];
  private readonly types: SessionEntryType[] = [];
  private readonly cached: (SessionEntry | undefined)[] = [];
  /** The positions by id, built on first use (a read of a whole branch never needs it). */
  private positions: Map<string, number> | undefined;
  /** The flat transcript, built on first use from positions `[0, transcriptLength)`. */
  private readonly transcript: TranscriptMessage[] = [];
  private transcriptLength = 0;

  constructor(
    readonly info: SessionInfo,
    private readonly source?: EntrySource,
  ) {}

  /** The type of the entry at a position. */
  typeAt(position: number): SessionEntryType {
    return this.types[position]!;
  }

  /** How many entries the session holds. */
  get size(): number {
    return this.types.length;
  }

  /** Whether an entry of this id is in the session. */
  has(id: string): boolean {
    return this.byPosition().has(id);
  }

  /** The entry of this id, if any. */
  get(id: string): SessionEntry | undefined {
    const position = this.byPosition().get(id);
    return position === undefined ? undefined : this.entryAt(position);
  }

  /** Every entry, in append order. */
  entries(): SessionEntry[] {
    const all: SessionEntry[] = new Array(this.size);
    for (let position = 0; position < this.size; position++) all[position] = this.entryAt(position);
    return markStoreEntries(all);
  }

  /** Adds a whole entry and moves the leaf to it. */
  add(entry: SessionEntry): void {
    const position = this.types.length;
    // Indexed, not pushed: after lazily indexed entries these arrays are sparse.
    this.ids[position] = entry.id;
    const { parentId } = entry;
    this.parentIds[position] = parentId;
    // Most entries continue from the one added before them: their parent is known without the id map.
    const parent =
      parentId === null ? ROOT : position > 0 && this.ids[position - 1] === parentId ? position - 1 : BY_ID;
    this.parents.push(parent);
    this.types.push(entry.type);
    this.cached[position] = entry;
    this.positions?.set(entry.id, position);
    this.leaf = entry.id;
    this.leafPosition = position;
  }

  /**
   * Adds an entry known by its position in the source, its parent's position (or `-1`), its type
   * and, when it is not the entry before, its parent's id; moves the leaf to it. The id and the
   * entry are read from the source when needed (the arrays of ids and entries stay sparse).
   */
  addIndexed(parent: number, type: SessionEntryType, parentId?: string): void {
    const position = this.types.length;
    if (parentId !== undefined) this.parentIds[position] = parentId;
    this.parents.push(parent);
    this.types.push(type);
    if (this.positions !== undefined) this.addPosition(this.idOf(position), position);
    this.leaf = undefined;
    this.leafPosition = position;
  }

  /**
   * The current leaf: where the next entry attaches. A lazily indexed leaf is read (and checked)
   * first, so a damaged last line is never named as the leaf (it throws {@link SourceMismatch}).
   */
  get leafId(): string | null {
    if (this.leaf === undefined) this.leaf = this.entryAt(this.leafPosition).id;
    return this.leaf;
  }

  set leafId(leafId: string | null) {
    // A leaf at the newest entry (as a store reads it back) keeps its position: no id map to walk.
    const last = this.types.length - 1;
    this.leafPosition = leafId !== null && last >= 0 && this.ids[last] === leafId ? last : -1;
    this.leaf = leafId;
  }

  /** The position of an id (building the id map on first use), or `undefined`. */
  positionOf(id: string): number | undefined {
    return this.byPosition().get(id);
  }

  private byPosition(): Map<string, number> {
    if (this.positions === undefined) {
      const positions = new Map<string, number>();
      this.positions = positions;
      for (let position = 0; position < this.size; position++) this.addPosition(this.idOf(position), position);
    }
    return this.positions;
  }

  private addPosition(id: string, position: number): void {
    if (this.positions!.has(id)) {
      // Only a lazily indexed source can hold a repeated id (an edited file): it must be read in full.
      this.positions = undefined;
      throw new SourceMismatch(`entry id "${id}" appears twice`);
    }
    this.positions!.set(id, position);
  }

  /** The id of the entry at a position. */
  idOf(position: number): string {
    let id = this.ids[position];
    if (id === undefined) {
      id = this.source!.idAt(position);
      this.ids[position] = id;
    }
    return id;
  }

  /** Whether the entry at a position has this id (compared with the source's bytes when its id was not read yet). */
  hasIdAt(position: number, id: string): boolean {
    const known = this.ids[position];
    return known === undefined ? this.source!.hasId(position, id) : known === id;
  }

  /** The entry at a position, read from the source the first time. */
  entryAt(position: number): SessionEntry {
    let entry = this.cached[position];
    if (entry === undefined) {
      entry = this.source!.load(position);
      // The entry must be the one its line's first fields were indexed as.
      const parent = this.parents[position]!;
      const parentId = parent === ROOT ? null : parent >= 0 ? this.idOf(parent) : this.parentIds[position];
      const id = this.ids[position];
      // Compared with the source's bytes, not decoded; a parent read before gives its id for free.
      const sameId = id === undefined ? this.source!.hasId(position, entry.id) : id === entry.id;
      if (!sameId || entry.type !== this.types[position] || entry.parentId !== parentId) {
        throw new SourceMismatch(`entry "${entry.id}" is not what its line's first fields say`);
      }
      this.ids[position] = entry.id;
      this.cached[position] = entry;
    }
    return entry;
  }

  /** The parent's position, `-1` for a root, or `undefined` when the parent is not in the session. */
  parentOf(position: number): number | undefined {
    const parent = this.parents[position]!;
    if (parent !== BY_ID) return parent;
    return this.byPosition().get(this.parentIds[position] as string);
  }

  /** Throws unless `entryId` is `null` or an entry of the session. */
  checkEntry(entryId: string | null): void {
    if (entryId !== null && !this.has(entryId)) {
      throw new SessionError({
        message: `Entry "${entryId}" is not in session "${this.info.id}".`,
        code: 'ENTRY_NOT_FOUND',
      });
    }
  }

  /** The positions from a leaf back to the root, leaf first; throws for a broken tree. */
  private walk(leafId: string | undefined): number[] {
    // The current leaf's position is known: a lazily read session need not map its ids.
    const leaf = leafId === undefined ? this.leafPosition : this.positionOf(leafId);
    if (leaf === undefined) {
      throw new SessionError({
        message: `Entry "${leafId}" is not in the session, so there is no branch to walk from it. Pass the id of an existing entry (or null for an empty branch).`,
        code: 'ENTRY_NOT_FOUND',
      });
    }
    const positions: number[] = [];
    for (let position = leaf; ; ) {
      // A path longer than the number of entries must have come back to one: a cycle.
      if (positions.length >= this.size) {
        throw new SessionError({
          message: `The session tree has a cycle through entry "${this.idOf(position)}": following parentId from "${leafId ?? this.idOf(leaf)}" comes back to it. The stored tree is corrupt.`,
          code: 'TREE_CYCLE',
        });
      }
      positions.push(position);
      const parent = this.parentOf(position);
      if (parent === ROOT) return positions;
      if (parent === undefined) {
        throw new SessionError({
          message: `Entry "${this.idOf(position)}" names parent "${this.parentIds[position]}", which is not in the session. The stored tree is incomplete; move the leaf to another branch with setLeaf.`,
          code: 'PARENT_MISSING',
        });
      }
      position = parent;
    }
  }

  /**
   * The path to a leaf (the current one when `undefined`), root first, or its context branch (see
   * `SessionStore.getBranch`): then only the entries from the latest compaction's kept range on,
   * and the latest model and thinking-level changes before it, are read.
   */
  branch(leafId: string | null | undefined, context = false): SessionEntry[] {
    const leaf = leafId === undefined ? this.leafId : leafId;
    if (leaf === null) return [];
    const positions = this.walk(leafId === undefined && this.leafPosition >= 0 ? undefined : leaf);
    const order = context ? contextBranchOrder(this, positions) : undefined;
    if (order === undefined) return markStoreEntries(positions.reverse().map((position) => this.entryAt(position)));
    return markStoreEntries(order.map((index) => this.entryAt(positions[index]!)));
  }

  messages(): TranscriptMessage[] {
    // Built lazily: reopening a long session should not convert every entry to a message.
    for (; this.transcriptLength < this.size; this.transcriptLength++) {
      const entry = this.entryAt(this.transcriptLength);
      const message = entryToMessage(entry);
      if (message !== undefined) this.transcript.push({ entryId: entry.id, timestamp: entry.timestamp, message });
    }
    return [...this.transcript];
  }
}
