import type { ConfigErrorOptions, ContextErrorOptions, ErrorCode, LeafConflictErrorOptions } from './error-options.js';

/**
 * The few error classes ctxkit throws. Each takes one options object (`message`, `code`, `cause`),
 * carries a stable `name`, and has a static `isInstance` that checks the class's own `Symbol.for`
 * marker, so it works across two copies of the package.
 */

// One `Symbol.for` marker per class, so `isInstance` works across two copies of the package (two
// bundles, a CommonJS and an ESM copy) where `instanceof` does not.
const CONTEXT_ERROR = Symbol.for('ctxkit.ContextError');
const CONFIG_ERROR = Symbol.for('ctxkit.ConfigError');
const COMPACTION_ERROR = Symbol.for('ctxkit.CompactionError');
const SESSION_ERROR = Symbol.for('ctxkit.SessionError');
const STORE_ERROR = Symbol.for('ctxkit.StoreError');
const LEAF_CONFLICT_ERROR = Symbol.for('ctxkit.LeafConflictError');

function isMarked(value: unknown, marker: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
}

function mark(error: Error, marker: symbol, name: string): void {
  Object.defineProperty(error, marker, { value: true, enumerable: false });
  error.name = name;
}

/**
 * The base of every ctxkit error.
 *
 * @example
 * ```ts
 * try {
 *   resolveConfig({ maxTokens: -1 });
 * } catch (error) {
 *   if (ContextError.isInstance(error)) console.error(error.code, error.message);
 * }
 * ```
 */
export class ContextError extends Error {
  /** A stable machine-readable code. */
  readonly code: ErrorCode;

  /** @param options - The message, the code and the underlying cause. */
  constructor(options: ContextErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    mark(this, CONTEXT_ERROR, 'ContextError');
  }

  /**
   * True for any ctxkit error, even one from another copy of the package.
   *
   * @param value - Anything caught.
   * @returns Whether `value` is a ctxkit error.
   */
  static isInstance(value: unknown): value is ContextError {
    return isMarked(value, CONTEXT_ERROR);
  }
}

/**
 * Invalid configuration or options. The message names the function, the field and the fix.
 *
 * @example
 * ```ts
 * ConfigError.isInstance(error) && console.error(error.field, error.message);
 * ```
 */
export class ConfigError extends ContextError {
  /** The offending field, as a dotted path. */
  readonly field: string;

  /** @param options - The message, the offending field and the underlying validation error. */
  constructor(options: ConfigErrorOptions) {
    super({ message: options.message, code: 'CONFIG_INVALID', cause: options.cause });
    this.field = options.field;
    mark(this, CONFIG_ERROR, 'ConfigError');
  }

  /**
   * @param value - Anything caught.
   * @returns Whether `value` is a {@link ConfigError}, even one from another copy of the package.
   */
  static override isInstance(value: unknown): value is ConfigError {
    return isMarked(value, CONFIG_ERROR);
  }
}

/**
 * A compaction that could not produce a good result. Nothing was changed; the history is intact.
 *
 * @example
 * ```ts
 * if (CompactionError.isInstance(error) && error.code === 'NOT_SMALLER') console.warn('nothing to gain from compacting yet');
 * ```
 */
export class CompactionError extends ContextError {
  /** @param options - The message, the code and the underlying cause. */
  constructor(options: ContextErrorOptions) {
    super(options);
    mark(this, COMPACTION_ERROR, 'CompactionError');
  }

  /**
   * @param value - Anything caught.
   * @returns Whether `value` is a {@link CompactionError}, even one from another copy of the package.
   */
  static override isInstance(value: unknown): value is CompactionError {
    return isMarked(value, COMPACTION_ERROR);
  }
}

/**
 * A broken session tree or an unknown session or entry.
 *
 * @example
 * ```ts
 * if (SessionError.isInstance(error) && error.code === 'TREE_CYCLE') console.error('broken session tree:', error.message);
 * ```
 */
export class SessionError extends ContextError {
  /** @param options - The message, the code and the underlying cause. */
  constructor(options: ContextErrorOptions) {
    super(options);
    mark(this, SESSION_ERROR, 'SessionError');
  }

  /**
   * @param value - Anything caught.
   * @returns Whether `value` is a {@link SessionError}, even one from another copy of the package.
   */
  static override isInstance(value: unknown): value is SessionError {
    return isMarked(value, SESSION_ERROR);
  }
}

/**
 * A store that failed to read or write, or found its data corrupt.
 *
 * @example
 * ```ts
 * if (StoreError.isInstance(error)) console.error('storage failed:', error.cause);
 * ```
 */
export class StoreError extends ContextError {
  /** @param options - The message, the code and the underlying cause. */
  constructor(options: ContextErrorOptions) {
    super(options);
    mark(this, STORE_ERROR, 'StoreError');
  }

  /**
   * @param value - Anything caught.
   * @returns Whether `value` is a {@link StoreError}, even one from another copy of the package.
   */
  static override isInstance(value: unknown): value is StoreError {
    return isMarked(value, STORE_ERROR);
  }
}

/**
 * A write refused because it stated the leaf it extends (`expectedLeafId`) and another writer had
 * moved the session's leaf since. Nothing was written. A `StoreError` with code `LEAF_CONFLICT`:
 * read the branch again and retry from `currentLeafId`, or append on an explicit branch
 * (`parentId`).
 *
 * @example
 * ```ts
 * try {
 *   await store.appendEntry(sessionId, entry, { expectedLeafId: leaf });
 * } catch (error) {
 *   if (!LeafConflictError.isInstance(error)) throw error;
 *   leaf = error.currentLeafId; // rebuild the context from the new branch, then retry
 * }
 * ```
 */
export class LeafConflictError extends StoreError {
  /** The session written to. */
  readonly sessionId: string;
  /** The leaf the writer said it extends. */
  readonly expectedLeafId: string | null;
  /** The session's leaf when the write was refused. */
  readonly currentLeafId: string | null;

  /** @param options - The message, the session and both leaves. */
  constructor(options: LeafConflictErrorOptions) {
    super({ message: options.message, code: 'LEAF_CONFLICT' });
    this.sessionId = options.sessionId;
    this.expectedLeafId = options.expectedLeafId;
    this.currentLeafId = options.currentLeafId;
    mark(this, LEAF_CONFLICT_ERROR, 'LeafConflictError');
  }

  /**
   * @param value - Anything caught.
   * @returns Whether `value` is a {@link LeafConflictError}, even one from another copy of the package.
   */
  static override isInstance(value: unknown): value is LeafConflictError {
    return isMarked(value, LEAF_CONFLICT_ERROR);
  }
}
