import { open, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { SessionError, StoreError } from '../errors.js';
import { createJsonlStore, type JsonlStoreWarning } from '../node/index.js';
import type { SessionInfo, SessionStore } from '../session/session-store.js';
import type { SessionEntry } from '../types.js';
import { CliError, EXIT, inputError, usageError } from './cli-error.js';

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

/** Options of {@link loadSession}. */
export interface LoadSessionOptions {
  /** The session to read from a database that holds several. */
  sessionId?: string | undefined;
  /** Postgres: the schema of the tables. @default the connection's search_path */
  schema?: string | undefined;
  /** Postgres: the tables' name prefix. @default 'ctxkit_' */
  tablePrefix?: string | undefined;
}

const SQLITE_MAGIC = 'SQLite format 3\u0000';

/**
 * Reads a session from a JSONL session file, a SQLite database or a Postgres connection string,
 * without writing to it: a SQLite database is opened read-only and read from an in-memory copy.
 *
 * @internal
 */
export async function loadSession(target: string, options: LoadSessionOptions = {}): Promise<LoadedSession> {
  if (/^postgres(ql)?:\/\//i.test(target)) return loadPostgres(target, options);
  if (options.schema !== undefined || options.tablePrefix !== undefined) {
    throw usageError('--schema and --table-prefix are for Postgres connection strings.');
  }
  const head = await readHead(target);
  if (head.startsWith(SQLITE_MAGIC)) return loadSqlite(target, options);
  return loadJsonl(target, head, options);
}

/** The first bytes of a file (up to the first line's end, within 64 KiB), with clear errors. */
async function readHead(file: string): Promise<string> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    const stats = await stat(file);
    if (stats.isDirectory()) {
      throw inputError(`${file} is a directory. Pass a session file (<session-id>.jsonl) or a SQLite database file.`);
    }
    handle = await open(file, 'r');
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT') throw inputError(`No such file: ${file}. Pass a JSONL session file or a SQLite database.`);
    if (code === 'EACCES' || code === 'EPERM') throw inputError(`Cannot read ${file}: permission denied.`);
    throw inputError(`Cannot read ${file} (${describe(error)}).`);
  }
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } catch (error) {
    throw inputError(`Cannot read ${file} (${describe(error)}).`);
  } finally {
    await handle.close();
  }
}

function notASession(file: string, why: string): CliError {
  return inputError(
    `${file} is not a ctxkit session: ${why}. A JSONL session file starts with a {"type":"session",…} header line; a SQLite session database starts with "SQLite format 3".`,
  );
}

async function loadJsonl(file: string, head: string, options: LoadSessionOptions): Promise<LoadedSession> {
  const firstLine = head.split('\n', 1)[0] ?? '';
  if (firstLine.trim().length === 0) throw notASession(file, 'it is empty');
  let header: unknown;
  try {
    header = JSON.parse(firstLine);
  } catch {
    throw notASession(
      file,
      head.includes('\n') ? 'its first line is not JSON' : 'its first line is not JSON (or the header was cut off)',
    );
  }
  if (typeof header !== 'object' || header === null || (header as { type?: unknown }).type !== 'session') {
    throw notASession(file, 'its first line is not a session header');
  }
  const name = basename(file);
  if (!name.endsWith('.jsonl')) {
    throw inputError(`${file} looks like a JSONL session, but its name must be <session-id>.jsonl to be opened.`);
  }
  const sessionId = name.slice(0, -'.jsonl'.length);
  if (options.sessionId !== undefined && options.sessionId !== sessionId) {
    throw usageError(`--session ${options.sessionId} does not match ${file}, which holds session ${sessionId}.`);
  }
  const warnings: SessionWarning[] = [];
  const store = createJsonlStore({
    directory: dirname(file),
    onWarning: (warning: JsonlStoreWarning) =>
      warnings.push({ line: warning.line, torn: warning.torn, reason: warning.reason }),
  });
  const loaded = await read(store, sessionId, { kind: 'jsonl', location: file }, warnings);
  return loaded;
}

/** What better-sqlite3's default export looks like, as far as this reader uses it. */
type SqliteConstructor = new (
  source: string | Buffer,
  options?: { readonly?: boolean; fileMustExist?: boolean },
) => {
  serialize(): Buffer;
  prepare(sql: string): { all(...parameters: unknown[]): unknown[]; get(...parameters: unknown[]): unknown };
  exec(sql: string): unknown;
  close(): void;
};

async function loadSqlite(file: string, options: LoadSessionOptions): Promise<LoadedSession> {
  let Database: SqliteConstructor;
  let createSqliteStore: typeof import('../sqlite/index.js').createSqliteStore;
  try {
    Database = ((await import('better-sqlite3')) as unknown as { default: SqliteConstructor }).default;
    ({ createSqliteStore } = await import('../sqlite/index.js'));
  } catch (error) {
    throw new CliError(
      `Reading a SQLite database needs better-sqlite3: run \`npm install better-sqlite3\` (${describe(error)}).`,
      EXIT.failed,
    );
  }
  // Read-only, then an in-memory copy: the store's schema check never touches the file.
  let copy: InstanceType<SqliteConstructor>;
  try {
    const source = new Database(file, { readonly: true, fileMustExist: true });
    try {
      copy = new Database(source.serialize());
    } finally {
      source.close();
    }
  } catch (error) {
    throw inputError(`Cannot open ${file} as a SQLite database (${describe(error)}).`);
  }
  try {
    const table = copy
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('ctxkit_meta', 'session_entries')")
      .all();
    if (table.length < 2) throw notASession(file, 'the SQLite database has no ctxkit session tables');
    const store = createSqliteStore({ database: copy as never });
    const sessionId = await chooseSession(store, file, options.sessionId);
    return await read(store, sessionId, { kind: 'sqlite', location: file }, []);
  } finally {
    copy.close();
  }
}

/** What node-postgres's `Pool` looks like, as far as this reader uses it. */
type PoolConstructor = new (config: {
  connectionString: string;
  max: number;
  options: string;
  connectionTimeoutMillis: number;
}) => { end(): Promise<void>; on(event: 'error', listener: () => void): unknown };

async function loadPostgres(connection: string, options: LoadSessionOptions): Promise<LoadedSession> {
  const location = redact(connection);
  let Pool: PoolConstructor;
  let createPostgresStore: typeof import('../postgres/index.js').createPostgresStore;
  try {
    Pool = ((await import('pg')) as unknown as { default: { Pool: PoolConstructor } }).default.Pool;
    ({ createPostgresStore } = await import('../postgres/index.js'));
  } catch (error) {
    throw new CliError(
      `Reading a Postgres session needs pg: run \`npm install pg\` (${describe(error)}).`,
      EXIT.failed,
    );
  }
  // Every transaction of this pool is read-only: the server refuses any write.
  const pool = new Pool({
    connectionString: connection,
    max: 2,
    options: '-c default_transaction_read_only=on',
    connectionTimeoutMillis: 10_000,
  });
  pool.on('error', () => {});
  try {
    let store: SessionStore;
    try {
      store = createPostgresStore({
        pool: pool as never,
        ...(options.schema === undefined ? {} : { schema: options.schema }),
        ...(options.tablePrefix === undefined ? {} : { tablePrefix: options.tablePrefix }),
      });
    } catch (error) {
      throw usageError(`${location}: ${describe(error)}`);
    }
    let sessionId: string;
    try {
      sessionId = await chooseSession(store, location, options.sessionId);
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw inputError(
        `Cannot read sessions from ${location} (${describe(error)}). Check the connection string, and --schema and --table-prefix if the store was created with them.`,
      );
    }
    return await read(store, sessionId, { kind: 'postgres', location }, []);
  } finally {
    await pool.end().catch(() => undefined);
  }
}

/** The one session of a database, or the one `--session` names; lists them when the choice is open. */
async function chooseSession(store: SessionStore, location: string, wanted: string | undefined): Promise<string> {
  const sessions = await store.listSessions();
  if (wanted !== undefined) {
    if (!sessions.some((session) => session.id === wanted)) {
      throw inputError(`${location} has no session "${wanted}".${listing(sessions)}`);
    }
    return wanted;
  }
  if (sessions.length === 0) throw inputError(`${location} holds no sessions.`);
  if (sessions.length > 1) {
    throw usageError(
      `${location} holds ${sessions.length} sessions; pick one with --session <id>.${listing(sessions)}`,
    );
  }
  return sessions[0]!.id;
}

function listing(sessions: readonly SessionInfo[]): string {
  if (sessions.length === 0) return '';
  const rows = sessions.map(
    (session) =>
      `  ${session.id}  ${new Date(session.createdAt).toISOString()}${session.name ? `  ${session.name}` : ''}`,
  );
  return `\nSessions:\n${rows.join('\n')}`;
}

async function read(
  store: SessionStore,
  sessionId: string,
  source: SessionSource,
  warnings: SessionWarning[],
): Promise<LoadedSession> {
  try {
    const info = await store.getSession(sessionId);
    if (info === undefined) throw inputError(`${source.location} holds no session "${sessionId}".`);
    const entries = await store.getEntries(sessionId);
    const leafId = await store.getLeaf(sessionId);
    return { source, info, entries, leafId, warnings };
  } catch (error) {
    if (error instanceof CliError) throw error;
    if (SessionError.isInstance(error) || (StoreError.isInstance(error) && error.code === 'STORE_CORRUPT')) {
      throw inputError(`${source.location}: ${describe(error)}`);
    }
    throw error;
  } finally {
    await store.close?.();
  }
}

/** A connection string without its password. */
export function redact(connection: string): string {
  try {
    const url = new URL(connection);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return connection.replace(/:[^:@/]*@/, ':***@');
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
