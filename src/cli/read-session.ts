import { SessionError, StoreError } from '../errors.js';
import { describeError } from '../internal/describe-error.js';
import type { SessionInfo, SessionStore } from '../session/session-store.js';
import { CliError, inputError, usageError } from './cli-error.js';
import type { LoadedSession, SessionSource, SessionWarning } from './loaded-session.js';

/**
 * The error for a file that is neither a JSONL session nor a SQLite session database.
 *
 * @internal
 */
export function notASession(file: string, why: string): CliError {
  return inputError(
    `${file} is not a ctxkit session: ${why}. A JSONL session file starts with a {"type":"session",…} header line; a SQLite session database starts with "SQLite format 3".`,
  );
}

/**
 * The one session of a database, or the one `--session` names; lists them when the choice is open.
 *
 * @internal
 */
export async function chooseSession(
  store: SessionStore,
  location: string,
  wanted: string | undefined,
): Promise<string> {
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

/**
 * Reads the session `sessionId` from `store` (its info, every entry and the leaf), then closes the
 * store; a corrupt or unknown session becomes an input error.
 *
 * @internal
 */
export async function readSession(
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
      throw inputError(`${source.location}: ${describeError(error)}`);
    }
    throw error;
  } finally {
    await store.close?.();
  }
}
