import type { z } from 'zod';

/**
 * The few error classes ctxkit throws. Each carries a stable `name`, a `code`, an optional `cause`,
 * and a static `isInstance` that works across two copies of the package (it checks a
 * `Symbol.for` marker, not the prototype chain).
 */

const MARKER = Symbol.for('ctxkit.error');

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
  | 'DEPENDENCY_MISSING';

/** Options shared by every ctxkit error. */
export interface ContextErrorOptions {
  code: ErrorCode;
  cause?: unknown;
}

function hasMarker(value: unknown, name?: string): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const names = (value as { [MARKER]?: unknown })[MARKER];
  if (!Array.isArray(names)) return false;
  return name === undefined || names.includes(name);
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
  declare readonly [MARKER]: readonly string[];

  /**
   * @param message - What went wrong and what to do about it.
   * @param options - The code and the underlying cause.
   */
  constructor(message: string, options: ContextErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ContextError';
    this.code = options.code;
    const chain: string[] = [];
    for (let proto = Object.getPrototypeOf(this); proto && proto !== Error.prototype; ) {
      const ctor = proto.constructor as { errorName?: string };
      if (ctor.errorName) chain.push(ctor.errorName);
      proto = Object.getPrototypeOf(proto);
    }
    Object.defineProperty(this, MARKER, { value: chain, enumerable: false });
    this.name = chain[0] ?? 'ContextError';
  }

  /** @internal The name recorded in the cross-realm marker. */
  static readonly errorName: string = 'ContextError';

  /**
   * True for any ctxkit error, even one from another copy of the package.
   *
   * @param value - Anything caught.
   * @returns Whether `value` is a ctxkit error.
   */
  static isInstance(value: unknown): value is ContextError {
    return hasMarker(value, 'ContextError');
  }
}

/**
 * Invalid configuration. The message names the field and the fix.
 *
 * @example
 * ```ts
 * ConfigError.isInstance(error) && console.error(error.field, error.message);
 * ```
 */
export class ConfigError extends ContextError {
  /** @internal */
  static override readonly errorName = 'ConfigError';
  /** The offending field, as a dotted path. */
  readonly field: string;

  /**
   * @param message - What is wrong and how to fix it.
   * @param field - The dotted path of the offending field.
   * @param cause - The underlying validation error.
   */
  constructor(message: string, field: string, cause?: unknown) {
    super(message, { code: 'CONFIG_INVALID', cause });
    this.field = field;
  }

  /**
   * @param value - Anything caught.
   * @returns Whether `value` is a {@link ConfigError}.
   */
  static override isInstance(value: unknown): value is ConfigError {
    return hasMarker(value, 'ConfigError');
  }
}

/**
 * A compaction that could not produce a good result. Nothing was changed; the history is intact.
 *
 * @example
 * ```ts
 * if (CompactionError.isInstance(error) && error.code === 'NOT_SMALLER') { … }
 * ```
 */
export class CompactionError extends ContextError {
  /** @internal */
  static override readonly errorName = 'CompactionError';

  /**
   * @param value - Anything caught.
   * @returns Whether `value` is a {@link CompactionError}.
   */
  static override isInstance(value: unknown): value is CompactionError {
    return hasMarker(value, 'CompactionError');
  }
}

/**
 * A broken session tree or an unknown session or entry.
 *
 * @example
 * ```ts
 * if (SessionError.isInstance(error) && error.code === 'TREE_CYCLE') { … }
 * ```
 */
export class SessionError extends ContextError {
  /** @internal */
  static override readonly errorName = 'SessionError';

  /**
   * @param value - Anything caught.
   * @returns Whether `value` is a {@link SessionError}.
   */
  static override isInstance(value: unknown): value is SessionError {
    return hasMarker(value, 'SessionError');
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
  /** @internal */
  static override readonly errorName = 'StoreError';

  /**
   * @param value - Anything caught.
   * @returns Whether `value` is a {@link StoreError}.
   */
  static override isInstance(value: unknown): value is StoreError {
    return hasMarker(value, 'StoreError');
  }
}

/**
 * The first problem in a zod error, as the dotted field it concerns (or `fallback`) and a phrase
 * that completes "`<field>` …". Shared by every option validator so their errors read alike.
 *
 * @internal
 */
export function firstIssue(error: z.ZodError, fallback: string): { field: string; detail: string } {
  const issue = error.issues[0];
  const field = issue?.path.map(String).join('.') || fallback;
  if (issue?.code === 'unrecognized_keys') return { field, detail: `has unknown key(s) ${issue.keys.join(', ')}` };
  return { field, detail: issue?.message ?? 'is invalid' };
}
