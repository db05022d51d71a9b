import { CompactionError } from '../errors.js';
import { raceAbort } from '../internal/race-abort.js';
import type { Summarizer, SummaryOutput, SummaryRequest } from './summarizer-types.js';

/** A summarizer's answer in one shape. @internal */
interface NormalizedSummary {
  text: string;
  truncated: boolean;
  /** The stop reason as the summarizer gave it, if any. */
  stopReason?: string;
}

/** Finish reasons of common providers, lower-cased, and what they mean. */
const STOP_REASONS: Readonly<Record<string, 'stop' | 'length'>> = {
  length: 'length', // OpenAI chat, Vercel AI SDK, most OpenAI-compatible servers
  max_tokens: 'length', // Anthropic, Bedrock; Gemini's MAX_TOKENS once lower-cased
  max_output_tokens: 'length', // OpenAI responses
  model_length: 'length', // Mistral
  stop: 'stop',
  end_turn: 'stop',
  stop_sequence: 'stop',
  complete: 'stop',
  completed: 'stop',
};

/**
 * A provider's finish reason in ctxkit's terms: `'length'` for every spelling of "cut off at the
 * output limit" (`'max_tokens'`, `'MAX_TOKENS'`, …), `'stop'` for a natural end, anything else as given.
 *
 * @internal
 */
export function normalizeStopReason(reason: string): string {
  return STOP_REASONS[reason.toLowerCase()] ?? reason;
}

/** @internal */
function normalizeSummary(output: SummaryOutput): NormalizedSummary {
  if (typeof output === 'string') return { text: output.trim(), truncated: false };
  if (output === null || typeof output !== 'object' || typeof output.text !== 'string') {
    return { text: '', truncated: false };
  }
  const { stopReason } = output;
  if (typeof stopReason !== 'string') return { text: output.text.trim(), truncated: false };
  return { text: output.text.trim(), truncated: normalizeStopReason(stopReason) === 'length', stopReason };
}

/**
 * Calls the summarizer, turning an abort into a `CompactionError` with code `ABORTED` and any other
 * rejection into `SUMMARIZER_FAILED`, with the original error as the cause. `consequence` completes
 * the failure message with what the caller does about it.
 *
 * @internal
 */
export async function callSummarizer(
  summarizer: Summarizer,
  request: SummaryRequest,
  consequence = 'nothing was changed. Retry, or use heuristicSummarizer when no model is available',
): Promise<NormalizedSummary> {
  throwIfAborted(request.signal);
  try {
    // Raced against the signal: a summarizer that ignores it cannot hang the caller.
    return normalizeSummary(
      await raceAbort(
        Promise.resolve().then(() => summarizer.summarize(request)),
        request.signal,
      ),
    );
  } catch (error) {
    throwIfAborted(request.signal, error);
    const reason = error instanceof Error ? error.message : String(error);
    throw new CompactionError({
      message: `The summarizer failed (${reason}); ${consequence}.`,
      code: 'SUMMARIZER_FAILED',
      cause: error,
    });
  }
}

/** @internal */
function throwIfAborted(signal: AbortSignal | undefined, cause?: unknown): void {
  if (signal?.aborted) {
    throw new CompactionError({
      message: 'The summary was aborted; nothing was changed.',
      code: 'ABORTED',
      cause: cause ?? signal.reason,
    });
  }
}
