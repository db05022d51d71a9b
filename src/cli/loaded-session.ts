import type { SessionInfo } from '../session/session-store.js';
import type { SessionEntry } from '../session-entry.js';

/** A line of a session file that the reader skipped, such as an append torn by a crash. */
export interface SessionWarning {
  /** The 1-based line number in the file. */
  line: number;
  /** True for an unterminated last line. */
  torn: boolean;
  reason: string;
}

/** Where a session was read from. */
export interface SessionSource {
  kind: 'jsonl' | 'sqlite' | 'postgres';
  /** The file, or the connection string without its password. */
  location: string;
}

/** A session read into memory: the whole tree, the current leaf and what the reader skipped. */
export interface LoadedSession {
  source: SessionSource;
  info: SessionInfo;
  entries: SessionEntry[];
  leafId: string | null;
  warnings: SessionWarning[];
}

/** Options of `loadSession`. */
export interface LoadSessionOptions {
  /** The session to read from a database that holds several. */
  sessionId?: string | undefined;
  /** Postgres: the schema of the tables. @default the connection's search_path */
  schema?: string | undefined;
  /** Postgres: the tables' name prefix. @default 'ctxkit_' */
  tablePrefix?: string | undefined;
}
