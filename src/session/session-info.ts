/**
 * Session ids and infos, and the helpers every store shares to validate and report them.
 *
 * @internal
 */

import { SessionError, StoreError } from '../errors.js';
import { deepFreeze } from '../internal/deep-freeze.js';
import { describeValue } from '../validation/describe-value.js';
import * as v from '../validation/light-schema.js';
import { describeIssues } from '../validation/zod-issues.js';
import type { CreateSessionInit, SessionInfo } from './session-store.js';

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * Whether a string is a valid session id (safe as a file name).
 *
 * @internal
 */
export function isSessionId(value: string): boolean {
  return typeof value === 'string' && SESSION_ID.test(value);
}

const SESSION_ID_RULE = 'use 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit';

// Checked by hand-written light schemas (no zod in the stores' bundles), held equal to the zod
// schemas of the same shape by a property test (`test/session/is-stored-entry.test.ts`).
const optionalFields = {
  name: v.string('must be a string').optional(),
  parentSessionId: v.string('must be a string (the id of the session this one came from)').optional(),
  metadata: v.record(v.unknown(), 'must be a plain object of JSON values').optional(),
};

/** A `createSession` input: `z.object({ id: z.string().regex(SESSION_ID).optional(), name, parentSessionId, metadata })`. @internal */
export const sessionInitSchema = /* @__PURE__ */ (() =>
  v.object({
    id: v.custom<string>((value) => isSessionId(value as string), SESSION_ID_RULE).optional(),
    ...optionalFields,
  }))();

/** Session info a store reads back: `z.object({ id: z.string().regex(SESSION_ID), createdAt: z.number().nonnegative(), … })`. @internal */
export const sessionInfoSchema = /* @__PURE__ */ (() =>
  v.object({
    id: v.custom<string>((value) => isSessionId(value as string), `must be a session id: ${SESSION_ID_RULE}`),
    createdAt: v
      .number('must be a number of milliseconds since 1970, ≥ 0')
      .nonnegative('must be a number of milliseconds since 1970, ≥ 0'),
    ...optionalFields,
  }))();

/** @internal */
export function sessionNotFound(sessionId: string): SessionError {
  if (typeof sessionId !== 'string') {
    return new SessionError({
      message: `A session id must be a string (got ${describeValue(sessionId)}).`,
      code: 'INPUT_INVALID',
    });
  }
  return new SessionError({
    message: `There is no session "${sessionId}". Create it with createSession first.`,
    code: 'SESSION_NOT_FOUND',
  });
}

/**
 * Validates a `createSession` input and makes the session info.
 *
 * @internal
 */
export function createSessionInfo(init: CreateSessionInit | undefined, now: number): SessionInfo {
  const parsed = sessionInitSchema.safeParse(init ?? {});
  if (!parsed.success) {
    throw new SessionError({
      message: `Invalid session: ${describeIssues(parsed.error, 'init')}.`,
      code: 'INPUT_INVALID',
    });
  }
  const { id, name, parentSessionId, metadata } = parsed.data;
  return deepFreeze(
    toJson({
      id: id ?? crypto.randomUUID(),
      createdAt: now,
      ...(name === undefined ? {} : { name }),
      ...(parentSessionId === undefined ? {} : { parentSessionId }),
      ...(metadata === undefined ? {} : { metadata }),
    }) as SessionInfo,
  );
}

/**
 * Sessions oldest first, by `createdAt` then id.
 *
 * @internal
 */
export function sortSessions(sessions: SessionInfo[]): SessionInfo[] {
  return sessions.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** @internal */
export function sessionExists(sessionId: string): SessionError {
  return new SessionError({
    message: `A session "${sessionId}" already exists. Pick another id, or omit it to get a random one.`,
    code: 'INPUT_INVALID',
  });
}

/** The JSON form of a value (what a store keeps), or a `SessionError` for a value that is not JSON. @internal */
export function toJson(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value));
  } catch (error) {
    throw new SessionError({
      message: 'The value is not JSON (a cycle, a BigInt or similar); session data must be JSON.',
      code: 'INPUT_INVALID',
      cause: error,
    });
  }
}

/**
 * Session info a store read back from its own row: parsed when it is JSON text, validated and
 * frozen. A row that holds none is a damaged store (`STORE_CORRUPT`) named by `where`, never
 * trusted as it is.
 *
 * @internal
 */
export function storedSessionInfo(stored: unknown, where: string): SessionInfo {
  let value = stored;
  if (typeof stored === 'string') {
    try {
      value = JSON.parse(stored);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new StoreError({
        message: `${where} does not hold session info: its JSON is torn (${reason}).`,
        code: 'STORE_CORRUPT',
        cause: error,
      });
    }
  }
  const parsed = sessionInfoSchema.safeParse(value);
  if (!parsed.success) {
    throw new StoreError({
      message: `${where} does not hold valid session info: ${describeIssues(parsed.error, 'info')}.`,
      code: 'STORE_CORRUPT',
    });
  }
  return deepFreeze(value as SessionInfo);
}
