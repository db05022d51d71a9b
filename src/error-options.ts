// What ctxkit's errors are built from: the machine-readable codes and one options object per
// constructor. The classes themselves are in `errors.ts`.

/** Machine-readable error codes. */
export type ErrorCode =
  | 'CONFIG_INVALID'
  | 'INPUT_INVALID'
  | 'SUMMARIZER_FAILED'
  | 'SUMMARY_EMPTY'
  | 'SUMMARY_TRUNCATED'
  | 'NOTHING_TO_COMPACT'
  | 'NOT_SMALLER'
  | 'OVERFLOW_UNRECOVERED'
  | 'ABORTED'
  | 'SESSION_NOT_FOUND'
  | 'ENTRY_NOT_FOUND'
  | 'TREE_CYCLE'
  | 'PARENT_MISSING'
  | 'STORE_FAILED'
  | 'STORE_CORRUPT'
  | 'LEAF_CONFLICT'
  | 'DEPENDENCY_MISSING';

/**
 * What every ctxkit error is built from.
 *
 * @example
 * ```ts
 * throw new StoreError({ message: 'cannot write sessions.db: disk full', code: 'STORE_FAILED', cause });
 * ```
 */
export interface ContextErrorOptions {
  /** What went wrong and what to do about it. */
  message: string;
  /** A stable machine-readable code. */
  code: ErrorCode;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * What a `ConfigError` (root entry) is built from: its code is always `CONFIG_INVALID`.
 *
 * @example
 * ```ts
 * throw new ConfigError({ message: 'compact: options.summarizer must have a summarize() method', field: 'summarizer' });
 * ```
 */
export interface ConfigErrorOptions {
  /** What is wrong and how to fix it: the function, the field and the fix. */
  message: string;
  /** The dotted path of the offending field. */
  field: string;
  /** The underlying validation error, if any. */
  cause?: unknown;
}

/**
 * What a `LeafConflictError` (root entry) is built from: its code is always `LEAF_CONFLICT`.
 *
 * @example
 * ```ts
 * throw new LeafConflictError({ message: 'session moved on', sessionId: 's1', expectedLeafId: 'e1', currentLeafId: 'e2' });
 * ```
 */
export interface LeafConflictErrorOptions {
  /** What happened and what to do about it. */
  message: string;
  /** The session written to. */
  sessionId: string;
  /** The leaf the writer said it extends. */
  expectedLeafId: string | null;
  /** The session's leaf when the write was refused. */
  currentLeafId: string | null;
}
