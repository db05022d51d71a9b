import type { NativeCompaction } from './native-compaction.js';
import type { ImageContent, Message, TextContent } from './types.js';

/**
 * The entries of the durable session tree: one node each, appended and never changed.
 *
 * Types are written by hand for readable docs; the zod schemas in `schemas/entries.ts` are annotated
 * against them so any drift is a compile error.
 */

/** Fields shared by every session entry. */
interface EntryBase {
  id: string;
  /** The entry this one continues from; `null` for a root. */
  parentId: string | null;
  /** Milliseconds since the epoch. */
  timestamp: number;
}

/** A conversation message. */
export interface MessageEntry extends EntryBase {
  type: 'message';
  message: Message;
}

/** Host content that reaches the model as a user message of its own kind. */
export interface CustomMessageEntry extends EntryBase {
  type: 'custom_message';
  customType: string;
  content: string | (TextContent | ImageContent)[];
  /** Whether a transcript UI shows it. @default true */
  display?: boolean;
  details?: unknown;
}

/** A compaction: from here on, the context starts with `summary` and the entries from `firstKeptEntryId`. */
export interface CompactionEntry extends EntryBase {
  type: 'compaction';
  /** The portable summary; `''` for a native compaction whose payload is opaque and not summarized yet. */
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: unknown;
  /**
   * A compaction the provider did on its side: its payload verbatim, sent only to the provider,
   * API and model that made it; `summary` goes to every other model.
   */
  native?: NativeCompaction;
}

/** The summary of a branch that was left, appended where the conversation continues. */
export interface BranchSummaryEntry extends EntryBase {
  type: 'branch_summary';
  /** The leaf of the abandoned branch. */
  fromId: string;
  summary: string;
  details?: unknown;
}

/** The model used from here on. */
export interface ModelChangeEntry extends EntryBase {
  type: 'model_change';
  provider: string;
  modelId: string;
}

/** The thinking level used from here on. */
export interface ThinkingLevelChangeEntry extends EntryBase {
  type: 'thinking_level_change';
  thinkingLevel: string;
}

/** A bookmark on another entry; never reaches the model. */
export interface LabelEntry extends EntryBase {
  type: 'label';
  targetId: string;
  label: string | undefined;
}

/** Session metadata such as a display name; never reaches the model. */
export interface SessionInfoEntry extends EntryBase {
  type: 'session_info';
  name?: string;
  data?: Record<string, unknown>;
}

/** Host state stored in the tree; never reaches the model. */
export interface CustomEntry extends EntryBase {
  type: 'custom';
  customType: string;
  data?: unknown;
}

/**
 * One node of the durable session tree.
 *
 * @example
 * ```ts
 * const entry: SessionEntry = {
 *   type: 'message', id: 'e1', parentId: null, timestamp: Date.now(),
 *   message: { role: 'user', content: 'hello' },
 * };
 * ```
 */
export type SessionEntry =
  | MessageEntry
  | CustomMessageEntry
  | CompactionEntry
  | BranchSummaryEntry
  | ModelChangeEntry
  | ThinkingLevelChangeEntry
  | LabelEntry
  | SessionInfoEntry
  | CustomEntry;

/** The `type` of a {@link SessionEntry}. */
export type SessionEntryType = SessionEntry['type'];

/** Each entry type once; a missing or unknown one is a type error. */
const ENTRY_TYPE_SET = {
  message: true,
  custom_message: true,
  compaction: true,
  branch_summary: true,
  model_change: true,
  thinking_level_change: true,
  label: true,
  session_info: true,
  custom: true,
} as const satisfies Record<SessionEntryType, true>;

/**
 * Every session entry type, in the schema's order: what the hand-written entry checks and the JSONL
 * reader accept.
 *
 * @internal
 */
export const SESSION_ENTRY_TYPES = /* @__PURE__ */ (() => Object.keys(ENTRY_TYPE_SET) as SessionEntryType[])();

/** Builds an input type for an entry: every field but the ones a store fills in. */
type WithoutStoreFields<T> = T extends EntryBase
  ? Omit<T, 'id' | 'parentId' | 'timestamp'> & Partial<Pick<EntryBase, 'id' | 'parentId' | 'timestamp'>>
  : never;

/**
 * An entry as a host appends it: `id`, `parentId` and `timestamp` are optional and filled in by the store.
 *
 * @example
 * ```ts
 * const input: SessionEntryInput = { type: 'message', message: { role: 'user', content: 'hi' } };
 * ```
 */
export type SessionEntryInput = WithoutStoreFields<SessionEntry>;
