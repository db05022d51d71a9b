import { LeafConflictError, SessionError } from '../errors.js';

/**
 * Refuses a write whose `options.expectedLeafId` is not the session's current leaf, with a
 * {@link LeafConflictError}; a write without it is not checked.
 *
 * @internal
 */
export function checkExpectedLeaf(sessionId: string, options: unknown, currentLeafId: string | null): void {
  if (options === undefined || options === null) return;
  const expected = typeof options === 'object' ? (options as { expectedLeafId?: unknown }).expectedLeafId : options;
  if (expected === undefined) return;
  if (typeof options !== 'object' || (expected !== null && typeof expected !== 'string')) {
    throw new SessionError({
      message: `options.expectedLeafId: expected an entry id or null (the leaf the write extends), got ${typeof expected}.`,
      code: 'INPUT_INVALID',
    });
  }
  if (expected !== currentLeafId) {
    throw new LeafConflictError({
      message: `Session "${sessionId}" moved on: its leaf is ${currentLeafId === null ? 'empty' : `"${currentLeafId}"`}, not ${expected === null ? 'empty' : `"${expected}"`} as the write expected; nothing was written. Read the branch again and retry from the current leaf, or append on an explicit branch with parentId.`,
      sessionId,
      expectedLeafId: expected,
      currentLeafId,
    });
  }
}
