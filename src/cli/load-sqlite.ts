import { describeError } from '../internal/describe-error.js';
import { CliError, EXIT, inputError } from './cli-error.js';
import type { LoadedSession, LoadSessionOptions } from './loaded-session.js';
import { chooseSession, notASession, readSession } from './read-session.js';

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
/**
 * Reads a session from a SQLite database, opened read-only and read from an in-memory copy.
 *
 * @internal
 */
export async function loadSqlite(file: string, options: LoadSessionOptions): Promise<LoadedSession> {
  let Database: SqliteConstructor;
  let createSqliteStore: typeof import('../sqlite/index.js').createSqliteStore;
  try {
    Database = ((await import('better-sqlite3')) as unknown as { default: SqliteConstructor }).default;
    ({ createSqliteStore } = await import('../sqlite/index.js'));
  } catch (error) {
    throw new CliError(
      `Reading a SQLite database needs better-sqlite3: run \`npm install better-sqlite3\` (${describeError(error)}).`,
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
    throw inputError(`Cannot open ${file} as a SQLite database (${describeError(error)}).`);
  }
  try {
    const table = copy
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('ctxkit_meta', 'session_entries')")
      .all();
    if (table.length < 2) throw notASession(file, 'the SQLite database has no ctxkit session tables');
    const store = createSqliteStore({ database: copy as never });
    const sessionId = await chooseSession(store, file, options.sessionId);
    return await readSession(store, sessionId, { kind: 'sqlite', location: file }, []);
  } finally {
    copy.close();
  }
}
