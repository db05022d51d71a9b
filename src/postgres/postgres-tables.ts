import { ConfigError } from '../errors.js';
import * as v from '../validation/light-schema.js';
import { firstIssue } from '../validation/zod-issues.js';

/**
 * Where the store's tables live: a schema and a prefix for the table names.
 *
 * @example
 * ```ts
 * const tables: PostgresTableOptions = { schema: 'agents', tablePrefix: 'ctx_' };
 * ```
 */
export interface PostgresTableOptions {
  /** The schema of the tables (created by `migrate` when missing). @default the connection's `search_path` (usually `public`) */
  schema?: string;
  /** Prepended to every table name: `<prefix>sessions`, `<prefix>session_entries`, `<prefix>session_messages`, `<prefix>migrations`. @default 'ctxkit_' */
  tablePrefix?: string;
}

/** Quoted, qualified table names. @internal */
export interface PostgresTables {
  sessions: string;
  entries: string;
  messages: string;
  /** The tool-result index `recall` searches (migration 3). */
  toolResults: string;
  migrations: string;
  /** The key of the advisory lock that serializes migrations of these tables. */
  lockKey: string;
  schema: string | undefined;
  prefix: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const PREFIX = /^([a-z_][a-z0-9_]*)?$/;
/** A string of at most `max` characters that `pattern` matches. */
const identifier = (value: unknown, max: number, pattern: RegExp) =>
  typeof value === 'string' && value.length <= max && pattern.test(value);
const tableOptionsSchema = /* @__PURE__ */ (() =>
  v.object({
    schema: v
      .custom<string>(
        (value) => identifier(value, 63, IDENTIFIER),
        'must be at most 63 lowercase letters, digits and "_", starting with a letter or "_"',
      )
      .optional(),
    tablePrefix: v
      .custom<string>(
        (value) => identifier(value, 40, PREFIX),
        'must be at most 40 lowercase letters, digits and "_", starting with a letter or "_" (or "")',
      )
      .optional(),
  }))();

/**
 * The table names for the options, validated.
 *
 * @internal
 */
export function resolveTables(options: PostgresTableOptions, caller: string): PostgresTables {
  const parsed = tableOptionsSchema.safeParse({ schema: options.schema, tablePrefix: options.tablePrefix });
  if (!parsed.success) {
    const { field, detail } = firstIssue(parsed.error, '(options)');
    throw new ConfigError({
      message: `Invalid ${caller} options: ${field} ${detail}. Table names are built from them, so only plain identifiers are accepted.`,
      field,
      cause: parsed.error,
    });
  }
  const schema = parsed.data.schema;
  const prefix = parsed.data.tablePrefix ?? 'ctxkit_';
  const name = (table: string) => (schema === undefined ? `"${prefix}${table}"` : `"${schema}"."${prefix}${table}"`);
  return {
    sessions: name('sessions'),
    entries: name('session_entries'),
    messages: name('session_messages'),
    toolResults: name('session_tool_results'),
    migrations: name('migrations'),
    lockKey: `ctxkit:${schema ?? ''}:${prefix}`,
    schema,
    prefix,
  };
}
