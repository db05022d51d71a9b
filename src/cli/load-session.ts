import { open, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { describeError } from '../internal/describe-error.js';
import { createJsonlStore, type JsonlStoreWarning } from '../node/index.js';
import { CliError, inputError, usageError } from './cli-error.js';
import { loadPostgres } from './load-postgres.js';
import { loadSqlite } from './load-sqlite.js';
import type { LoadedSession, LoadSessionOptions, SessionWarning } from './loaded-session.js';
import { notASession, readSession } from './read-session.js';

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
    throw inputError(`Cannot read ${file} (${describeError(error)}).`);
  }
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } catch (error) {
    throw inputError(`Cannot read ${file} (${describeError(error)}).`);
  } finally {
    await handle.close();
  }
}

async function loadJsonl(file: string, head: string, options: LoadSessionOptions): Promise<LoadedSession> {
  const firstLine = head.split('\n', 1)[0] ?? '';
  if (firstLine.trim().length === 0) throw notASession(file, 'it is empty');
  let header: unknown;
  try {
    header = JSON.parse(firstLine.replace(/^\uFEFF/, '')); // as the store reads it: a byte order mark is not JSON
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
  const loaded = await readSession(store, sessionId, { kind: 'jsonl', location: file }, warnings);
  return loaded;
}
