import { abortReason } from '../../internal/race-abort.js';
import type { Summarizer, SummaryOutput } from '../../summarizing/summarizer-types.js';

/**
 * How long the manager waits for one summary call by default: 10 minutes. A compaction summary is
 * output-bound (up to the summary budget, at most 80% of `reserveTokens`: about 13,000 tokens with
 * the defaults), which a model writes in 2 to 7 minutes at 30 to 100 tokens a second after reading
 * up to a whole window; 10 minutes is also the request timeout the OpenAI and Anthropic SDKs use by
 * default. A healthy call ends before it; a call still silent then has hung. @internal
 */
export const DEFAULT_SUMMARY_TIMEOUT_MS = 600_000;

/** The longest a timer waits (2^31 − 1 ms, 24.8 days): a longer `setTimeout` fires at once. @internal */
export const MAX_SUMMARY_TIMEOUT_MS = 2_147_483_647;

/**
 * `summarizer` with a time limit on each call: a call still unsettled after `timeoutMs` is aborted
 * through the signal it was given (so a summarizer that passes it on cancels its model request) and
 * rejects with a timeout error, which the manager treats as a failed summary (the fallback takes
 * over). The host's signal still ends a call at once: the summarizer's signal follows it.
 *
 * @internal
 */
export function withSummaryTimeout(summarizer: Summarizer, timeoutMs: number): Summarizer {
  return {
    summarize(request) {
      const host = request.signal;
      if (host?.aborted) return Promise.reject(abortReason(host));
      const controller = new AbortController();
      return new Promise<SummaryOutput>((resolve, reject) => {
        const settle = () => {
          clearTimeout(timer);
          host?.removeEventListener('abort', onHostAbort);
        };
        const onHostAbort = () => {
          settle();
          controller.abort(host!.reason);
          reject(abortReason(host!));
        };
        const timer = setTimeout(() => {
          settle();
          const error = new Error(
            `The summarizer did not answer within ${timeoutMs} ms (summaryTimeoutMs); its call was aborted.`,
          );
          error.name = 'TimeoutError';
          controller.abort(error);
          reject(error);
        }, timeoutMs);
        host?.addEventListener('abort', onHostAbort, { once: true });
        Promise.resolve()
          .then(() => summarizer.summarize({ ...request, signal: controller.signal }))
          .then(
            (output) => {
              settle();
              resolve(output);
            },
            (error: unknown) => {
              settle();
              reject(error);
            },
          );
      });
    },
  };
}
