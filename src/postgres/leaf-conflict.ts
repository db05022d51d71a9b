// TEMPORARY until the Architecture commit lands: these move to errors.ts and the SessionStore contract.
import { StoreError } from '../errors.js';

export interface AppendEntryOptions {
  expectedLeafId?: string | null;
}
export interface SetLeafOptions {
  expectedLeafId?: string | null;
}

// @ts-expect-error temporary
export class LeafConflictError extends StoreError {
  static override readonly errorName = 'LeafConflictError';
  readonly sessionId: string;
  readonly expectedLeafId: string | null;
  readonly currentLeafId: string | null;
  constructor(
    message: string,
    details: { sessionId: string; expectedLeafId: string | null; currentLeafId: string | null },
  ) {
    super(message, { code: 'LEAF_CONFLICT' as 'STORE_FAILED' });
    this.sessionId = details.sessionId;
    this.expectedLeafId = details.expectedLeafId;
    this.currentLeafId = details.currentLeafId;
  }
  static override isInstance(value: unknown): value is LeafConflictError {
    const names = (value as Record<symbol, unknown> | null)?.[Symbol.for('ctxkit.error')];
    return Array.isArray(names) && names.includes('LeafConflictError');
  }
}
