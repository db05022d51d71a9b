import { describeError } from '../internal/describe-error.js';
import type { SessionStore } from '../session/session-store.js';
import { CliError, EXIT, inputError, usageError } from './cli-error.js';
import type { LoadedSession, LoadSessionOptions } from './loaded-session.js';
import { chooseSession, readSession } from './read-session.js';

/** What node-postgres's `Pool` looks like, as far as this reader uses it. */
type PoolConstructor = new (config: {
  connectionString: string;
  max: number;
  options: string;
  connectionTimeoutMillis: number;
}) => { end(): Promise<void>; on(event: 'error', listener: () => void): unknown };
/**
 * Reads a session from a Postgres connection string, every transaction read-only.
 *
 * @internal
 */
export async function loadPostgres(connection: string, options: LoadSessionOptions): Promise<LoadedSession> {
  const location = redact(connection);
  let Pool: PoolConstructor;
  let createPostgresStore: typeof import('../postgres/index.js').createPostgresStore;
  try {
    Pool = ((await import('pg')) as unknown as { default: { Pool: PoolConstructor } }).default.Pool;
    ({ createPostgresStore } = await import('../postgres/index.js'));
  } catch (error) {
    throw new CliError(
      `Reading a Postgres session needs pg: run \`npm install pg\` (${describeError(error)}).`,
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
      throw usageError(`${location}: ${describeError(error)}`);
    }
    let sessionId: string;
    try {
      sessionId = await chooseSession(store, location, options.sessionId);
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw inputError(
        `Cannot read sessions from ${location} (${describeError(error)}). Check the connection string, and --schema and --table-prefix if the store was created with them.`,
      );
    }
    return await readSession(store, sessionId, { kind: 'postgres', location }, []);
  } finally {
    await pool.end().catch(() => undefined);
  }
}

/** A connection string without its password. */
function redact(connection: string): string {
  try {
    const url = new URL(connection);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return connection.replace(/:[^:@/]*@/, ':***@');
  }
}
