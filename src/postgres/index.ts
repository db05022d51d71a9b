// The `ctxkit/postgres` entry: the PostgreSQL session store for fleets of workers (the host passes
// its node-postgres pool or client).

export {
  type CreatePostgresStoreOptions,
  createPostgresStore,
  type PostgresSessionStore,
} from './create-postgres-store.js';
export type {
  PostgresClient,
  PostgresConnectionOptions,
  PostgresPool,
  PostgresPoolClient,
  PostgresQueryResult,
} from './postgres-connection.js';
export {
  type MigratePostgresOptions,
  type MigratePostgresResult,
  migratePostgres,
  POSTGRES_SCHEMA_VERSION,
  type PostgresTableOptions,
} from './postgres-schema.js';
