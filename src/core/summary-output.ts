import { CompactionError } from '../errors.js';
import type { Summarizer, SummaryOutput, SummaryRequest } from '../summarizer-types.js';

/** A summarizer's answer in one shape. @internal */
export interface NormalizedSummary {
  text: string;
  truncated: boolean;
}

/** @internal */
export function normalizeSummary(output: SummaryOutput): NormalizedSummary {
  if (typeof output === 'string') return { text: output.trim(), truncated: false };
  if (output === null || typeof output !== 'object' || typeof output.text !== 'string') {
    return { text: '', truncated: false };
  }
  return { text: output.text.trim(), truncated: output.stopReason === 'length' };
}

/**
 * Calls the summarizer, turning an abort into a `CompactionError` with code `ABORTED` and any other
 * rejection into `SUMMARIZER_FAILED`, with the original error as the cause.
 *
 * @internal
 */
export async function callSummarizer(summarizer: Summarizer, request: SummaryRequest): Promise<NormalizedSummary> {
  throwIfAborted(request.signal);
  try {
    return normalizeSummary(await summarizer.summarize(request));
  } catch (error) {
    throwIfAborted(request.signal, error);
    const reason = error instanceof Error ? error.message : String(error);
    throw new CompactionError(
      `The summarizer failed (${reason}); nothing was changed. Retry, or use heuristicSummarizer when no model is available.`,
      { code: 'SUMMARIZER_FAILED', cause: error },
    );
  }
}

/** @internal */
export function throwIfAborted(signal: AbortSignal | undefined, cause?: unknown): void {
  if (signal?.aborted) {
    throw new CompactionError('The summary was aborted; nothing was changed.', {
      code: 'ABORTED',
      cause: cause ?? signal.reason,
    });
  }
}
