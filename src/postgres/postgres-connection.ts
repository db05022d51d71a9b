import { ContextError, StoreError } from '../errors.js';
import { createKeyedQueue } from '../internal/keyed-queue.js';

/**
 * The result of a query: the part of node-postgres's `QueryResult` the store reads.
 *
 * @example
 * ```ts
 * const { rows }: PostgresQueryResult = await pool.query('SELECT 1 AS one');
 * ```
 */
export interface PostgresQueryResult {
  // biome-ignore lint/suspicious/noExplicitAny: node-postgres types rows as any.
  rows: any[];
}

/**
 * A connection to PostgreSQL, typed structurally after node-postgres's `Client` and `PoolClient`
 * (the module never imports `pg` itself).
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * const client: PostgresClient = await pool.connect();
 * ```
 */
export interface PostgresClient {
  /** Runs one statement with `$1`-style parameters. */
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
  /** `'I'` idle, `'T'` in a transaction, `'E'` in a failed transaction (node-postgres 8.14 and later). */
  getTransactionStatus?(): string | null;
}

/**
 * A client checked out of a pool.
 *
 * @example
 * ```ts
 * const client: PostgresPoolClient = await pool.connect();
 * client.release();
 * ```
 */
export interface PostgresPoolClient extends PostgresClient {
  /** Returns the client to the pool; with an error, the pool discards it instead. */
  release(error?: Error | boolean): void;
  /** Listens for connection errors (node-postgres clients are event emitters). */
  on?(event: 'error', listener: (error: Error) => void): unknown;
  /** Stops listening. */
  removeListener?(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * A connection pool, typed structurally after node-postgres's `Pool`.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * const pool: PostgresPool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * ```
 */
export interface PostgresPool {
  /** Runs one statement on any idle connection. */
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
  /** Checks a client out, for a transaction. */
  connect(): Promise<PostgresPoolClient>;
}

/**
 * How the store reaches PostgreSQL: give exactly one of `pool` and `client`.
 *
 * @example
 * ```ts
 * const shared: PostgresConnectionOptions = { pool };
 * const inTransaction: PostgresConnectionOptions = { client }; // the host's client, inside BEGIN … COMMIT
 * ```
 */
export interface PostgresConnectionOptions {
  /** A node-postgres `Pool`: each write runs in its own transaction on a checked-out client. */
  pool?: PostgresPool;
  /**
   * A connected node-postgres `Client` or `PoolClient` the host owns. Inside the host's
   * transaction each write runs in a savepoint and commits or rolls back with it; outside one,
   * in its own transaction. Calls are serialized on it.
   */
  client?: PostgresClient;
}

/** A function that runs one statement. @internal */
export type Query = (text: string, values?: unknown[]) => Promise<PostgresQueryResult>;

/** A pool or a client, and the queue that serializes work on a client. @internal */
export interface Connection {
  pool: PostgresPool | undefined;
  client: PostgresClient | undefined;
  serialize: <T>(task: () => Promise<T>) => Promise<T>;
}

const hasFunction = (value: unknown, name: string) =>
  typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[name] === 'function';

/**
 * Checks the connection options: exactly one of a pool and a client.
 *
 * @internal
 */
export function connectionOf(options: PostgresConnectionOptions | undefined, caller: string): Connection {
  const { pool, client } = options ?? {};
  const poolOk = hasFunction(pool, 'query') && hasFunction(pool, 'connect');
  const clientOk = hasFunction(client, 'query');
  if (poolOk === clientOk || (pool !== undefined && !poolOk) || (client !== undefined && !clientOk)) {
    throw new StoreError({
      message: `${caller} needs a node-postgres connection: run \`npm install pg\`, then pass \`{ pool: new pg.Pool({ connectionString }) }\` (or \`{ client }\`, a connected client, to write inside your own transactions). Give exactly one of pool and client.`,
      code: 'DEPENDENCY_MISSING',
    });
  }
  const queue = createKeyedQueue<'client'>();
  return {
    pool: poolOk ? pool : undefined,
    client: poolOk ? undefined : client,
    serialize: poolOk ? (task) => task() : (task) => queue('client', task),
  };
}

const CONNECTION_LOST = new Set(['57P01', '57P02', '57P03', '08000', '08003', '08006', 'ECONNRESET', 'EPIPE']);

/**
 * The error to throw for a failed statement: ctxkit errors as they are, the rest as a
 * `StoreError` that says what happened and what to do.
 *
 * @internal
 */
function storeFailure(action: string, error: unknown): unknown {
  if (ContextError.isInstance(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const detail = error instanceof Error ? error.message : String(error);
  let hint = '';
  if (code === '42P01' || code === '3F000') {
    hint = ' The session tables are missing: run `await store.migrate()` (or `migratePostgres`) once when you deploy.';
  } else if (code === '40001' || code === '40P01') {
    hint = ' The transaction lost a race with another writer; nothing was written. Retry the call.';
  } else if (code === '25P02') {
    hint = ' Your transaction had already failed: roll it back first.';
  } else if (CONNECTION_LOST.has(String(code)) || /Connection terminated/i.test(detail)) {
    hint =
      ' The connection to PostgreSQL was lost; the transaction was rolled back by the server unless it was committing. Retry: an append that states expectedLeafId is refused (LEAF_CONFLICT) rather than stored twice.';
  }
  return new StoreError({ message: `Could not ${action} (${detail}).${hint}`, code: 'STORE_FAILED', cause: error });
}

async function inPoolTransaction<T>(pool: PostgresPool, work: (query: Query) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A checked-out client that loses its connection emits `error`; without a listener that would
  // crash the process. The failing query rejects anyway.
  const ignore = () => {};
  client.on?.('error', ignore);
  let broken: Error | undefined;
  const query: Query = (text, values) => client.query(text, values);
  try {
    await query('BEGIN');
    const result = await work(query);
    await query('COMMIT');
    return result;
  } catch (error) {
    await query('ROLLBACK').catch((rollbackError: unknown) => {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    });
    throw error;
  } finally {
    client.removeListener?.('error', ignore);
    client.release(broken);
  }
}

async function inClientTransaction<T>(client: PostgresClient, work: (query: Query) => Promise<T>): Promise<T> {
  const query: Query = (text, values) => client.query(text, values);
  let status = client.getTransactionStatus?.() ?? undefined;
  if (status === 'E') {
    throw new StoreError({
      message:
        'The client is in a failed transaction, so nothing can be written on it. Roll your transaction back, then retry.',
      code: 'STORE_FAILED',
    });
  }
  if (status === undefined) {
    // Without a transaction status, ask the server: SAVEPOINT fails outside a transaction block.
    status = await query('SAVEPOINT ctxkit_store').then(
      () => 'T!',
      (error: { code?: string }) => {
        if (error?.code === '25P01') return 'I';
        throw error;
      },
    );
  }
  const nested = status === 'T' || status === 'T!';
  if (status === 'T') await query('SAVEPOINT ctxkit_store');
  if (!nested) await query('BEGIN');
  try {
    const result = await work(query);
    await query(nested ? 'RELEASE SAVEPOINT ctxkit_store' : 'COMMIT');
    return result;
  } catch (error) {
    await query(nested ? 'ROLLBACK TO SAVEPOINT ctxkit_store; RELEASE SAVEPOINT ctxkit_store' : 'ROLLBACK').catch(
      () => {},
    );
    throw error;
  }
}

/**
 * Runs `work` in a transaction: on a pool, its own on a checked-out client; on the host's client,
 * a savepoint inside the host's transaction (or its own when there is none). A failure rolls the
 * work back and is thrown as a `StoreError` (ctxkit errors pass through).
 *
 * @internal
 */
export async function runTransaction<T>(
  connection: Connection,
  action: string,
  work: (query: Query) => Promise<T>,
): Promise<T> {
  try {
    return await connection.serialize(() =>
      connection.pool !== undefined
        ? inPoolTransaction(connection.pool, work)
        : inClientTransaction(connection.client!, work),
    );
  } catch (error) {
    throw storeFailure(action, error);
  }
}

/**
 * Runs reads: on a pool, each statement on any idle connection; on a client, after the work
 * queued before it.
 *
 * @internal
 */
export async function runRead<T>(
  connection: Connection,
  action: string,
  work: (query: Query) => Promise<T>,
): Promise<T> {
  const target = connection.pool ?? connection.client!;
  const query: Query = (text, values) => target.query(text, values);
  try {
    return await connection.serialize(() => work(query));
  } catch (error) {
    throw storeFailure(action, error);
  }
}
