import { CompactionError } from '../errors.js';
import { prepareModelMessages } from '../pipeline/prepare-model-messages.js';
import type { Message } from '../types.js';
import type { CallOptions, OverflowRecoveryResult, PrepareResult } from './context-manager-types.js';
import { describe, isAbort, isOverflowReply } from './internal/overflow-reply.js';
import type { ManagedHistory } from './managed-history.js';
import type { ManagerCompaction, PendingCompaction } from './manager-compaction.js';
import type { RecordedUsage } from './recorded-usage.js';

/** What {@link recoverFromOverflow} needs from the manager. @internal */
export interface OverflowRecoveryParts {
  prepare: (input: readonly Message[], callOptions: CallOptions) => Promise<PrepareResult>;
  compaction: ManagerCompaction;
  state: ManagedHistory;
  reported: RecordedUsage;
  isOverflow: (value: unknown) => boolean;
  /** The host's turn (each user message starts one) and the last turn that recovered. */
  turns: { current: number; recovered: number };
}

/**
 * `runWithOverflowRecovery`: prepares, calls the provider, and on an overflow compacts and calls
 * it once more; the compaction is adopted only when the retry succeeds. Once per turn.
 *
 * @internal
 */
export async function recoverFromOverflow<T>(
  parts: OverflowRecoveryParts,
  input: readonly Message[],
  call: (messages: Message[]) => Promise<T>,
  callOptions: CallOptions,
): Promise<OverflowRecoveryResult<T>> {
  const { compaction, isOverflow, turns } = parts;
  const prepared = await parts.prepare(input, callOptions);
  let firstError: unknown;
  try {
    const result = await call(prepared.messages);
    if (!isOverflowReply(result, isOverflow)) return { result, history: prepared.history, recovered: false };
    firstError = result;
  } catch (error) {
    if (!isOverflow(error)) throw error;
    firstError = error;
  }
  if (turns.recovered === turns.current) {
    throw new CompactionError({
      message:
        'The provider rejected the request as too long, and this turn already recovered from an overflow once; recovery is attempted once per turn. The history is unchanged; shorten the kept tail or the tool output.',
      code: 'OVERFLOW_UNRECOVERED',
      cause: firstError,
    });
  }
  turns.recovered = turns.current;
  let pending: PendingCompaction;
  try {
    pending = await compaction.run(prepared.history, 'overflow', callOptions);
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new CompactionError({
      message: `The provider rejected the request as too long, and compaction could not shrink it (${describe(error)}). The history is unchanged; shorten the kept tail or the tool output.`,
      code: 'OVERFLOW_UNRECOVERED',
      cause: error,
    });
  }
  let result: T;
  try {
    result = await call(prepareModelMessages(pending.result.messages));
    if (isOverflowReply(result, isOverflow)) throw result;
  } catch (error) {
    // The compaction did not help: it is dropped, and neither the manager nor the store takes it.
    compaction.drop(pending, error);
    if (!isOverflow(error)) throw error;
    throw new CompactionError({
      message:
        'The request overflowed the context window again after compaction; recovery is attempted once per turn. The history is unchanged; reduce the kept tail.',
      code: 'OVERFLOW_UNRECOVERED',
      cause: { first: firstError, second: error },
    });
  }
  await compaction.adopt(pending);
  parts.reported.prepared(parts.state.projection);
  return { result, history: parts.state.history, recovered: true };
}
