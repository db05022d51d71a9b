// The `ctxkit/postgres` entry: the PostgreSQL session store for fleets of workers (the host passes
// its node-postgres pool or client).

export {
  type CreatePostgresStoreOptions,
  createPostgresStore,
  type PostgresSessionStore,
} from './create-postgres-store.js';
export {
  type MigratePostgresOptions,
  type MigratePostgresResult,
  migratePostgres,
  POSTGRES_SCHEMA_VERSION,
} from './migrate-postgres.js';
export type {
  PostgresClient,
  PostgresConnectionOptions,
  PostgresPool,
  PostgresPoolClient,
  PostgresQueryResult,
} from './postgres-connection.js';
export type { PostgresTableOptions } from './postgres-tables.js';
