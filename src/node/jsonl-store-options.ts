import { z } from 'zod';
import type { SessionStore } from '../session/session-store.js';
import { option, parseOptions } from '../validation/parse-options.js';

/**
 * A problem the JSONL reader skipped over instead of failing: a line torn by a crash mid-write,
 * or a line that is not a valid entry.
 *
 * @example
 * ```ts
 * const warning: JsonlStoreWarning = { sessionId: 's1', file: '/data/s1.jsonl', line: 42, torn: true, reason: 'Unexpected end of JSON input' };
 * ```
 */
export interface JsonlStoreWarning {
  sessionId: string;
  file: string;
  /** The 1-based line number. */
  line: number;
  /** True for an unterminated last line: an append that a crash cut short. */
  torn: boolean;
  /** What was wrong with the line. */
  reason: string;
}

/**
 * Options of {@link createJsonlStore}.
 *
 * @example
 * ```ts
 * const options: CreateJsonlStoreOptions = { directory: '.sessions', onWarning: (warning) => console.warn(warning) };
 * ```
 */
export interface CreateJsonlStoreOptions {
  /** Where the session files live; created when missing. */
  directory: string;
  /** Called for every line the reader skipped (see also `getDiagnostics`). */
  onWarning?: (warning: JsonlStoreWarning) => void;
  /** The clock used for timestamps. @default Date.now */
  now?: () => number;
  /**
   * The most bytes a session file may grow to: an append that would pass it is refused with a
   * `StoreError` (`STORE_FAILED`) and nothing is written, so a session never grows past what can be
   * read back. Start a new session (or branch one) to go on, or raise the cap.
   * @default 268435456 (256 MiB)
   */
  maxSessionBytes?: number;
}

/** The default {@link CreateJsonlStoreOptions.maxSessionBytes}: 256 MiB. @internal */
export const DEFAULT_MAX_SESSION_BYTES = 256 * 1024 * 1024;

/**
 * A {@link SessionStore} on JSONL files, with the reader's diagnostics.
 *
 * @example
 * ```ts
 * const store: JsonlSessionStore = createJsonlStore({ directory: '.sessions' });
 * console.log(store.getDiagnostics());
 * ```
 */
export interface JsonlSessionStore extends SessionStore {
  /** Waits for pending appends and leaf moves. The store stays usable. */
  close(): Promise<void>;
  /** Every line skipped while reading, since the store was created. */
  getDiagnostics(): JsonlStoreWarning[];
}

const DIRECTORY = 'must be the directory of the session files, e.g. createJsonlStore({ directory: ".sessions" })';
const MAX_SESSION_BYTES = `must be a whole number of bytes ≥ 1 (default ${DEFAULT_MAX_SESSION_BYTES})`;

const optionsSchema = z.strictObject(
  {
    directory: z.string({ error: DIRECTORY }).min(1, DIRECTORY),
    onWarning: z
      .custom<(warning: JsonlStoreWarning) => void>(
        (value) => typeof value === 'function',
        'must be a function that receives each skipped line',
      )
      .optional(),
    now: option.clock().optional(),
    // `int` also refuses numbers past the safe integers.
    maxSessionBytes: z.number({ error: MAX_SESSION_BYTES }).int(MAX_SESSION_BYTES).min(1, MAX_SESSION_BYTES).optional(),
  },
  { error: 'must be an object: createJsonlStore({ directory: ".sessions" })' },
);

/**
 * The checked options of `createJsonlStore`, with their defaults.
 *
 * @internal
 */
export function resolveJsonlOptions(options: CreateJsonlStoreOptions): {
  directory: string;
  now: () => number;
  maxSessionBytes: number;
} {
  const parsed = parseOptions('createJsonlStore', optionsSchema, options);
  return {
    directory: parsed.directory,
    now: parsed.now ?? Date.now,
    maxSessionBytes: parsed.maxSessionBytes ?? DEFAULT_MAX_SESSION_BYTES,
  };
}
