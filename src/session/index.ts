// `ctxkit/session`: the whole session tree. The `SessionStore` contract with its option types and the
// options of the errors a store throws (for hosts that write a store), the entry types, the
// functions over a tree of entries and the in-memory store. The root entry re-exports the few names a host that uses the manager needs
// (`SessionStore`, `SessionEntry`, `createInMemorySessionStore`, `buildContextFromBranch`).

export type { ConfigErrorOptions, ContextErrorOptions, LeafConflictErrorOptions } from '../error-options.js';
export type {
  BranchSummaryEntry,
  CompactionEntry,
  CustomEntry,
  CustomMessageEntry,
  LabelEntry,
  MessageEntry,
  ModelChangeEntry,
  SessionEntry,
  SessionEntryInput,
  SessionInfoEntry,
  ThinkingLevelChangeEntry,
} from '../session-entry.js';
export { type BranchSessionOptions, type BranchSessionResult, branchSession } from './branch-session.js';
export {
  type BuildContextFromBranchOptions,
  buildContextFromBranch,
  type ModelFacingFilter,
  type SessionContext,
} from './build-context-from-branch.js';
export { type CompactSessionOptions, type CompactSessionResult, compactSession } from './compact-session.js';
export {
  type DefineSessionStoreOptions,
  defineSessionStore,
  type SessionStoreCore,
} from './define-session-store.js';
export { entryToMessage } from './entry-to-message.js';
export {
  type CreateInMemorySessionStoreOptions,
  createInMemorySessionStore,
} from './in-memory-session-store.js';
export {
  type PlanSessionCompactionOptions,
  planSessionCompaction,
  type SessionCompactionPlan,
} from './plan-session-compaction.js';
export { searchToolResultsByScanning } from './search-tool-results.js';
export type {
  AppendEntryOptions,
  CreateSessionInit,
  SessionInfo,
  SessionStore,
  SetLeafOptions,
  ToolResultHit,
  ToolResultSearch,
  TranscriptMessage,
} from './session-store.js';
export { type SessionEntries, type WalkBranchOptions, walkBranch } from './walk-branch.js';
