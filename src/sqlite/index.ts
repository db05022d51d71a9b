// The `ctxkit/sqlite` entry: the SQLite session store (the host passes its better-sqlite3 database).

export { type CreateSqliteStoreOptions, createSqliteStore } from './create-sqlite-store.js';
export { SQLITE_SCHEMA_VERSION, type SqliteDatabase, type SqliteStatement } from './sqlite-schema.js';
